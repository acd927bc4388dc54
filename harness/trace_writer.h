// The trace sink: one JSON object per event, one per line (JSON Lines), in execution order.
// Schema (versioned, docs/trace.md): every line has "ev" and "eng"; fields are only ever added.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "interp/common/events.h"
#include "interp/common/work_limits.h"

namespace shapevm::harness {

inline constexpr int kTraceSchemaVersion = 1;

class TraceWriter : public EventSink {
 public:
  // Writes to `out` (not owned). `ops` = emit an "op" line per executed opcode.
  // `limits`: the faces it may record and the bytes it may reach (interp/common/work_limits.h);
  // past either it asks the engine to stop, and still writes the run's last events.
  explicit TraceWriter(std::FILE* out, bool ops = true, WorkLimits limits = {})
      : out_(out), ops_(ops), limits_(limits) {}
  ~TraceWriter() override { flush(); }

  // The first line: {"ev":"start","eng":..,"schema":1,"source":..,"state":{..}}.
  void start(std::string_view engine, std::string_view source, const std::string& state_json);

  bool wants_ops() const override { return ops_; }
  void on_op(const OpEvent& e) override;
  void on_branch(const BranchEvent& e) override;
  void on_call(const CallEvent& e) override;
  void on_return(const ReturnEvent& e) override;
  void on_vertices(const VerticesEvent& e) override;
  void on_face(const FaceEvent& e) override;
  void on_diagnostic(const DiagnosticEvent& e) override;
  void on_end(const EndEvent& e) override;
  void on_native(const NativeEvent& e) override;
  void on_native_instruction(const NativeInstructionEvent& e) override;
  void on_import_read(const ImportReadEvent& e) override;
  uint64_t bytes_written() const { return flushed_ + buf_.size(); }
  void flush();

 private:
  void line();
  std::FILE* out_;
  bool ops_;
  WorkLimits limits_;
  uint64_t faces_ = 0;
  uint64_t flushed_ = 0;
  fmt::memory_buffer buf_;
};

// JSON string literal for a name read from a file (a texture, an import): every byte as its
// Latin-1 character, non-ASCII ones written \u00XX (core/text_bytes.h), so 0x98 is "\u0098".
std::string json_quote(std::string_view s);
// JSON string literal for prose (a message, a reason, the source as the user named it): valid
// UTF-8 kept, any other byte as its Latin-1 character (utf8_or_latin1); non-ASCII written \uXXXX.
std::string json_quote_text(std::string_view s);

}  // namespace shapevm::harness
