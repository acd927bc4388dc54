// What the debugger sees while a Starlancer model is drawn: one pause point before each part,
// each face (polygon) and each deferred blended face, with the part, level, face record and
// shading mode as registers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/common/pause.h"

namespace shapevm::shp {

// Registers: the loader's (cursor, tag, struct_size, part, level, node, clip, list; loader.h) so
// a session shows one set of names throughout, then face and mode.
struct DrawView {
  uint32_t offset = 0;  // the record's offset in the model image (shown as the cursor)
  uint16_t tag = 0;     // the record's chunk tag (part 0x01, face 0x03, clip event 0x0C)
  uint16_t struct_size = 0;
  std::string mnemonic;
  uint32_t op = 0;  // the shading mode (faces) or 0
  int64_t part = -1, level = -1, clip = -1, face = -1, mode = -1;
  uint64_t steps = 0;  // steps before this one (the loader's and drawing's)
  uint64_t faces = 0;  // face events emitted so far
};

class DrawPausePoint : public PausePoint {
 public:
  explicit DrawPausePoint(const DrawView& view) : v_(view) {}
  uint32_t offset() const override { return v_.offset; }
  std::string_view mnemonic() const override { return v_.mnemonic; }
  uint32_t opcode() const override { return v_.op; }
  uint32_t depth() const override { return 0; }
  bool native() const override { return false; }
  std::optional<uint32_t> native_offset() const override { return std::nullopt; }
  bool ended() const override { return false; }
  // The registers, steps, faces, offset and depth.
  std::optional<int64_t> read(std::string_view name) const override;
  Snapshot capture() const override;
  DebugVocabulary vocabulary() const override;
  std::vector<DebugValue> registers() const;

 private:
  const DrawView& v_;
};

}  // namespace shapevm::shp
