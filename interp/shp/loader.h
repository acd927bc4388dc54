// model_load (0x004A44D0) as the program it is: a fixed sequence of requests to model_take_chunk
// (0x004A2EB0), each scanning the chunk stream forward from a cursor to its tag or the
// terminator's (docs/shp.md, "The loader"). Every request is a step: it is offered to the
// debugger as a pause point before it runs and emitted as an OpEvent with its values after.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/events.h"
#include "interp/common/pause.h"
#include "interp/shp/assumptions.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

inline constexpr std::string_view kEngine = "shp";
inline constexpr uint32_t kModelLoadAddress = 0x004A44D0;
inline constexpr uint32_t kTakeChunkAddress = 0x004A2EB0;
inline constexpr std::string_view kStoppedByDebugger = "stopped by the debugger";

// One chunk header as the scan reads it.
struct ChunkHeader {
  uint32_t offset = 0;
  uint16_t tag = 0;
  uint16_t record_size = 0;  // 0 for the terminator (not read)
  uint16_t count = 0;        // 0 for the terminator (not read)
  uint32_t next = 0;         // offset + 6 + record_size * count (the terminator: offset + 2)
  bool terminator() const { return tag == static_cast<uint16_t>(Tag::kTerminator); }
};

// The chunk header at `offset`: only the tag when it is the terminator's (SL-05), otherwise the
// whole header with its records inside the image. InputError (source, offset, expectation).
ChunkHeader read_chunk_header(std::span<const uint8_t> image, uint32_t offset,
                              const std::string& source);

// What the debugger sees before a request (and at the run's end).
struct LoaderView {
  uint32_t cursor = 0;
  uint16_t tag = 0;
  uint16_t struct_size = 0;
  std::string mnemonic;  // "take 04 vertices"; "end" at the end
  int64_t part = -1, level = -1, node = -1, clip = -1, list = -1;
  uint64_t steps = 0;  // requests executed before this one
  uint64_t faces = 0;  // faces drawn (at the end)
  uint32_t parts = 0;  // parts the part chunk counted so far
  bool ended = false;
  bool end_clean = true;
  std::string end_reason;
};

class LoaderPausePoint : public PausePoint {
 public:
  explicit LoaderPausePoint(const LoaderView& view) : v_(view) {}
  uint32_t offset() const override { return v_.cursor; }
  std::string_view mnemonic() const override { return v_.mnemonic; }
  uint32_t opcode() const override { return v_.tag; }
  uint32_t depth() const override { return 0; }
  bool native() const override { return false; }
  std::optional<uint32_t> native_offset() const override { return std::nullopt; }
  bool ended() const override { return v_.ended; }
  // cursor, tag, struct_size, part, level, node, clip, list, steps, faces, offset, depth.
  std::optional<int64_t> read(std::string_view name) const override;
  Snapshot capture() const override;
  DebugVocabulary vocabulary() const override;
  std::vector<DebugValue> registers() const;

 private:
  const LoaderView& v_;
};

struct LoadOptions {
  EventSink* sink = nullptr;
  PauseHandler* pause = nullptr;
  uint64_t max_steps = assumed::kDefaultMaxSteps;  // chunk headers examined
  std::string source;
};

struct LoadOutcome {
  Model model;
  bool clean = true;
  bool stopped = false;  // the debugger or a budget ended it before the last request
  std::string reason;    // "" when the loader finished
  uint32_t cursor = 0;   // where the last request left the cursor (an error: where it was found)
  uint64_t requests = 0;
  uint64_t examined = 0;  // chunk headers read by the scans
  uint64_t pause_ticks = 0;
};

// Runs model_load over `image`. Bad input becomes an error diagnostic in the sink and an unclean
// outcome (never an exception); a budget likewise; the debugger's stop a clean, stopped outcome.
LoadOutcome run_model_load(std::span<const uint8_t> image, const LoadOptions& options);

// The model as a reader opens it: model_load, then the whole chunk stream walked to its
// terminator to keep what the writer needs (chunks of tags the loader never asks for, the
// layout's normalisations). InputError for anything malformed, with file, offset and expectation.
Model load_model(std::span<const uint8_t> image, const std::string& source,
                 uint64_t max_steps = assumed::kDefaultMaxSteps);

}  // namespace shapevm::shp
