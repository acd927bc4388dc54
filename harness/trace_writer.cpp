#include "harness/trace_writer.h"

#include <fmt/compile.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/text_bytes.h"

namespace shapevm::harness {

namespace {
const char* level_name(DiagnosticLevel level) {
  switch (level) {
    case DiagnosticLevel::kInfo:
      return "info";
    case DiagnosticLevel::kWarning:
      return "warning";
    case DiagnosticLevel::kError:
      return "error";
  }
  return "?";
}
}  // namespace

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20 || c > 0x7E) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "\"";
}

std::string json_quote_text(std::string_view s) {
  return nlohmann::json(utf8_or_latin1(s)).dump(-1, ' ', /*ensure_ascii=*/true);
}

// Every line ends here, so this is where the trace's size passes its budget.
void TraceWriter::line() {
  buf_.push_back('\n');
  if (buf_.size() > (1 << 16)) flush();
  if (bytes_written() > limits_.trace_bytes) request_stop(kBudgetTraceBytes);
}

void TraceWriter::flush() {
  if (buf_.size()) std::fwrite(buf_.data(), 1, buf_.size(), out_);
  flushed_ += buf_.size();
  buf_.clear();
  std::fflush(out_);
}

void TraceWriter::start(std::string_view engine, std::string_view source,
                        const std::string& state_json) {
  fmt::format_to(fmt::appender(buf_),
                 FMT_COMPILE(R"({{"ev":"start","eng":"{}","schema":{},"source":{},"state":{}}})"),
                 engine, kTraceSchemaVersion, json_quote_text(source), state_json);
  line();
}

void TraceWriter::on_op(const OpEvent& e) {
  auto it = fmt::appender(buf_);
  fmt::format_to(it, FMT_COMPILE(R"({{"ev":"op","eng":"{}","off":{},"op":{},"name":"{}")"),
                 e.engine, e.offset, e.op, e.name);
  if (e.handler_address)
    fmt::format_to(it, FMT_COMPILE(R"(,"handler":"0x{:X}")"), e.handler_address);
  if (!e.handler.empty()) fmt::format_to(it, FMT_COMPILE(R"(,"symbol":"{}")"), e.handler);
  fmt::format_to(it, FMT_COMPILE(R"(,"depth":{})"), e.depth);
  if (e.untraced) fmt::format_to(it, FMT_COMPILE(R"(,"untraced":true)"));
  if (!e.fields.empty()) {
    fmt::format_to(it, FMT_COMPILE(R"(,"fields":{{)"));
    for (size_t i = 0; i < e.fields.size(); ++i)
      fmt::format_to(it, FMT_COMPILE(R"({}"{}":{})"), i ? "," : "", e.fields[i].name,
                     e.fields[i].value);
    buf_.push_back('}');
  }
  buf_.push_back('}');
  line();
}

void TraceWriter::on_branch(const BranchEvent& e) {
  auto it = fmt::appender(buf_);
  fmt::format_to(
      it,
      FMT_COMPILE(
          R"({{"ev":"branch","eng":"{}","off":{},"kind":"{}","taken":{},"to":{},"value":{},"limit":{})"),
      e.engine, e.offset, e.kind, e.taken, e.target, e.value, e.limit);
  // The global the test read, by name and by its address in the original executable.
  if (!e.global.empty()) {
    fmt::format_to(it, FMT_COMPILE(R"(,"global":{})"), json_quote(e.global));
    if (e.global_address) fmt::format_to(it, FMT_COMPILE(R"(,"addr":"0x{:X}")"), e.global_address);
  }
  buf_.push_back('}');
  line();
}

void TraceWriter::on_call(const CallEvent& e) {
  fmt::format_to(
      fmt::appender(buf_),
      FMT_COMPILE(R"({{"ev":"call","eng":"{}","off":{},"to":{},"resume":{},"depth":{}}})"),
      e.engine, e.offset, e.target, e.resume, e.depth);
  line();
}

void TraceWriter::on_return(const ReturnEvent& e) {
  fmt::format_to(fmt::appender(buf_),
                 FMT_COMPILE(R"({{"ev":"ret","eng":"{}","off":{},"to":{},"depth":{}}})"), e.engine,
                 e.offset, e.resume, e.depth);
  line();
}

void TraceWriter::on_vertices(const VerticesEvent& e) {
  fmt::format_to(fmt::appender(buf_),
                 FMT_COMPILE(R"({{"ev":"vertices","eng":"{}","off":{},"first":{},"count":{}}})"),
                 e.engine, e.offset, e.first_slot, e.count);
  line();
}

void TraceWriter::on_face(const FaceEvent& e) {
  if (++faces_ > limits_.faces) {
    request_stop(kBudgetFaces);  // past the budget: the engine stops at its next check
    return;
  }
  auto it = fmt::appender(buf_);
  fmt::format_to(it, FMT_COMPILE(R"({{"ev":"face","eng":"{}","off":{},"seq":{},"indices":[)"),
                 e.engine, e.offset, e.sequence);
  for (size_t i = 0; i < e.corners.size(); ++i)
    fmt::format_to(it, FMT_COMPILE("{}{}"), i ? "," : "", e.corners[i].index);
  fmt::format_to(it, FMT_COMPILE(R"(],"color":{},"content":{},"layout":{},"shadow":{})"), e.color,
                 e.content_flags, e.layout_flags, e.is_shadow);
  // The texture applies only to textured faces; others are flat in `color`.
  fmt::format_to(it, FMT_COMPILE(R"(,"texture":{})"),
                 !e.textured || e.texture.empty() ? std::string("null") : json_quote(e.texture));
  if (e.textured) {
    fmt::format_to(it, FMT_COMPILE(R"(,"uv":[)"));
    for (size_t i = 0; i < e.corners.size(); ++i)
      fmt::format_to(it, FMT_COMPILE("{}[{},{}]"), i ? "," : "", e.corners[i].texcoord[0],
                     e.corners[i].texcoord[1]);
    buf_.push_back(']');
  }
  // Added in schema 1 for engines with richer faces; written only when not the default.
  if (e.shape != FaceShape::kPolygon)
    fmt::format_to(it, FMT_COMPILE(R"(,"shape":"{}")"), face_shape_name(e.shape));
  if (e.pattern != 0xFFFF) fmt::format_to(it, FMT_COMPILE(R"(,"pattern":{})"), e.pattern);
  if (e.pattern_alternates) fmt::format_to(it, FMT_COMPILE(R"(,"color2":{})"), e.color2);
  if (!e.remap.empty()) fmt::format_to(it, FMT_COMPILE(R"(,"remap":true)"));
  if (!e.shade_rows.empty()) {
    fmt::format_to(it, FMT_COMPILE(R"(,"shade":[)"));
    for (size_t i = 0; i < e.corners.size(); ++i)
      fmt::format_to(it, FMT_COMPILE("{}{}"), i ? "," : "", e.corners[i].shade >> 16);
    buf_.push_back(']');
  }
  buf_.push_back('}');
  line();
}

void TraceWriter::on_diagnostic(const DiagnosticEvent& e) {
  fmt::format_to(fmt::appender(buf_),
                 FMT_COMPILE(R"({{"ev":"diag","eng":"{}","off":{},"level":"{}","message":{}}})"),
                 e.engine, e.offset, level_name(e.level), json_quote_text(e.message));
  line();
}

void TraceWriter::on_end(const EndEvent& e) {
  // The face that went past --max-faces reached the engine's count but was refused, not traced:
  // the end line counts the face lines above it.
  const uint64_t faces = std::min(e.faces, limits_.faces);
  fmt::format_to(
      fmt::appender(buf_),
      FMT_COMPILE(
          R"({{"ev":"end","eng":"{}","off":{},"reason":{},"clean":{},"ops":{},"faces":{}}})"),
      e.engine, e.offset, json_quote_text(e.reason), e.clean, e.ops, faces);
  line();
  flush();
}

void TraceWriter::on_native(const NativeEvent& e) {
  auto it = fmt::appender(buf_);
  if (e.enter) {
    fmt::format_to(it, FMT_COMPILE(R"({{"ev":"{}_enter","eng":"{}","off":{},"payload":{}}})"),
                   e.arch, e.engine, e.offset, e.payload);
  } else {
    fmt::format_to(it, FMT_COMPILE(R"({{"ev":"{}_exit","eng":"{}","off":{})"), e.arch, e.engine,
                   e.offset);
    if (e.counted) fmt::format_to(it, FMT_COMPILE(R"(,"instructions":{})"), e.instructions);
    if (e.resumed) fmt::format_to(it, FMT_COMPILE(R"(,"resume":{})"), e.resume);
    fmt::format_to(it, FMT_COMPILE(R"(,"reason":{}}})"), json_quote_text(e.reason));
  }
  line();
}

void TraceWriter::on_native_instruction(const NativeInstructionEvent& e) {
  auto it = fmt::appender(buf_);
  fmt::format_to(it, FMT_COMPILE(R"({{"ev":"{}_insn","eng":"{}","addr":{},"bytes":")"), e.arch,
                 e.engine, e.address);
  for (uint8_t b : e.bytes) fmt::format_to(it, FMT_COMPILE("{:02x}"), b);
  fmt::format_to(it, FMT_COMPILE(R"(","text":{}}})"), json_quote_text(e.text));
  line();
}

void TraceWriter::on_import_read(const ImportReadEvent& e) {
  fmt::format_to(fmt::appender(buf_),
                 FMT_COMPILE(R"({{"ev":"import_read","eng":"{}","name":{},"size":{},"value":{}}})"),
                 e.engine, json_quote(e.name), e.size, e.value);
  line();
}

}  // namespace shapevm::harness
