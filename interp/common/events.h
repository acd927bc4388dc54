// The one event stream from an interpreter to its sinks (DESIGN.md, "Data flow"). Interpreters
// emit events in execution order; sinks (rasterizer, trace writer, mesh collector, debugger,
// counters) listen and never reach into an interpreter by a side channel. Events are engine
// neutral: `engine` names the engine ("fa", "apache", ...), offsets are in the engine's own
// program address space (FA: CODE offsets).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm {

// A value an engine names on an executed step (Starlancer's chunk requests: "tag", "hit",
// "cursor_before", ...); the trace writes them under "fields", in order.
struct EventField {
  std::string_view name;
  int64_t value = 0;
};

struct OpEvent {
  std::string_view engine;
  uint32_t offset = 0;  // where the opcode starts
  uint32_t size = 0;    // bytes it occupies
  uint16_t op = 0;
  std::string_view name;               // the specification's mnemonic
  std::string_view handler;            // the original handler's symbol, "" if unknown
  uint32_t handler_address = 0;        // 0 if unknown
  uint32_t depth = 0;                  // call depth
  bool untraced = false;               // semantics unknown: executed as "skip"
  std::span<const EventField> fields;  // the step's own values, owned by the interpreter
};

struct BranchEvent {
  std::string_view engine;
  uint32_t offset = 0;
  // What decided the branch, named by the engine ("jump", "lod", "winding", ...; each engine lists
  // its kinds in its own folder and docs/trace.md).
  std::string_view kind = "jump";
  bool taken = false;
  uint32_t target = 0;  // where execution continues
  int64_t value = 0;    // what was tested (frame index, projected size, ...)
  int64_t limit = 0;    // what it was tested against (nframes, threshold, ...)
  // The engine global the test read, when it read one (FA: "_detail"), and its address in the
  // original executable (0 when none): the trace writes them as "global" and "addr".
  std::string_view global{};
  uint32_t global_address = 0;
};

struct CallEvent {
  std::string_view engine;
  uint32_t offset = 0;  // the calling instruction
  uint32_t target = 0;  // the called chain
  uint32_t resume = 0;  // where the caller continues after the return
  uint32_t depth = 0;   // depth after the call
};

struct ReturnEvent {
  std::string_view engine;
  uint32_t offset = 0;  // the returning instruction
  uint32_t resume = 0;
  uint32_t depth = 0;  // depth after the return
};

// A point in view space: x right, y up, z toward the viewer (so depth = -z), in 1/256 units of
// the shape's raw coordinates.
struct ViewPoint {
  int32_t x = 0, y = 0, z = 0;
  bool operator==(const ViewPoint&) const = default;
};

struct VerticesEvent {
  std::string_view engine;
  uint32_t offset = 0;
  uint32_t first_slot = 0;
  uint32_t count = 0;
};

struct FaceCorner {
  uint32_t index = 0;                  // pool index
  std::array<int16_t, 3> model{};      // raw shape coordinates
  ViewPoint view;                      // transformed
  std::array<uint16_t, 2> texcoord{};  // texel units, when textured
  // Model coordinates that need more than 16 bits (used when FaceEvent::wide_model is set).
  std::array<int32_t, 3> model_wide{};
  int32_t shade = 0;  // 16.16 row of FaceEvent::shade_rows (when it is not empty)
  // 16.16 texels, used instead of texcoord when FaceEvent::fine_texcoords is set (engines whose
  // coordinates are fractions of the image or lie outside it).
  std::array<int32_t, 2> texcoord_fine{};
};

// What a face draws: a filled polygon (the default; 1 corner = a point, 2 = a line, as before),
// an open polyline through its corners, or one point per corner.
enum class FaceShape : uint8_t { kPolygon, kPolyline, kPoints };

// The name the trace uses for a face shape.
constexpr const char* face_shape_name(FaceShape shape) {
  switch (shape) {
    case FaceShape::kPolygon:
      return "polygon";
    case FaceShape::kPolyline:
      return "polyline";
    case FaceShape::kPoints:
      return "points";
  }
  return "?";
}

struct FaceEvent {
  std::string_view engine;
  uint32_t offset = 0;
  uint32_t sequence = 0;  // draw order
  uint8_t color = 0;      // palette index
  uint8_t content_flags = 0;
  uint8_t layout_flags = 0;
  bool is_shadow = false;
  bool textured = false;
  // Texture coordinates are interpolated with perspective correction (the engine decides; FA's
  // content flag 0x10 is its own, assumed reading: interp/fa/assumptions.h).
  bool perspective = false;
  std::string_view texture;  // current texture name ("" if none)
  std::span<const FaceCorner> corners;
  // Surface styles beyond one colour or one texture (raster::SurfaceStyle); the defaults draw a
  // plain face. Tables are owned by the interpreter and live at least as long as the run.
  FaceShape shape = FaceShape::kPolygon;
  bool wide_model = false;              // corners carry model_wide instead of model
  uint8_t color2 = 0;                   // second colour when pattern_alternates
  uint16_t pattern = 0xFFFF;            // 4x4 stipple, bit (y & 3) * 4 + (x & 3) set = drawn
  bool pattern_alternates = false;      // clear bits draw color2
  bool texture_linear = false;          // texels addressed linearly; beyond the image: omitted
  std::span<const uint8_t> shade_rows;  // rows of 256, indexed by the corners' shade
  std::span<const uint8_t> remap;       // 256 entries: pixel := remap[pixel]
  // Depth-buffered engines (FrameSettings::depth_test) and blending. These faces take the
  // renderer's depth path (raster/depth_fill.h), never the styled one.
  bool fine_texcoords = false;     // corners carry texcoord_fine instead of texcoord
  bool texture_repeat = false;     // texel coordinates wrap around the image (else clamp)
  bool depth_write = true;         // with the depth test: the face's pixels write depth
  std::span<const uint8_t> blend;  // 65536 entries: pixel := blend[source * 256 + pixel]
  bool styled() const {
    return pattern != 0xFFFF || pattern_alternates || texture_linear || !shade_rows.empty() ||
           !remap.empty();
  }
};

enum class DiagnosticLevel : uint8_t { kInfo, kWarning, kError };

struct DiagnosticEvent {
  std::string_view engine;
  uint32_t offset = 0;
  DiagnosticLevel level = DiagnosticLevel::kWarning;
  std::string message;
};

struct EndEvent {
  std::string_view engine;
  uint32_t offset = 0;
  std::string reason;  // "ShortEOF at top level", "EndObject", "budget: steps", ...
  bool clean = true;   // false when a diagnostic stopped the run
  uint64_t ops = 0;
  uint64_t faces = 0;
};

// Embedded native code: entered, left (resumed or stopped), and optionally each instruction and
// each read of an import's storage. `arch` names the native code ("x86" for FA); the trace's
// event names are built from it ("x86_enter", "x86_exit", "x86_insn").
struct NativeEvent {
  std::string_view engine;
  std::string_view arch = "x86";
  uint32_t offset = 0;        // the bytecode instruction that entered the native block
  uint32_t payload = 0;       // enter: where the native code starts in the program
  bool enter = true;          // false: the exit
  uint64_t instructions = 0;  // executed (exit; 0 when not counted)
  bool counted = false;       // instructions is exact (counting needs the per-instruction trace)
  bool resumed = false;       // exit: the bytecode resumes at `resume`
  uint32_t resume = 0;
  std::string reason;  // exit: how it ended
};

struct NativeInstructionEvent {
  std::string_view engine;
  std::string_view arch = "x86";
  uint32_t address = 0;
  std::span<const uint8_t> bytes;
  std::string text;  // disassembly
};

struct ImportReadEvent {
  std::string_view engine;
  std::string_view name;
  uint32_t address = 0;
  int size = 0;
  int64_t value = 0;
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Interpreters skip building per-opcode events for sinks that do not want them (the hot path).
  virtual bool wants_ops() const { return false; }
  // Likewise for branch, call and return events (a frame renderer only needs faces).
  virtual bool wants_control() const { return true; }
  virtual void on_op(const OpEvent&) {}
  virtual void on_branch(const BranchEvent&) {}
  virtual void on_call(const CallEvent&) {}
  virtual void on_return(const ReturnEvent&) {}
  virtual void on_vertices(const VerticesEvent&) {}
  virtual void on_face(const FaceEvent&) {}
  virtual void on_diagnostic(const DiagnosticEvent&) {}
  virtual void on_end(const EndEvent&) {}
  virtual void on_native(const NativeEvent&) {}
  virtual void on_native_instruction(const NativeInstructionEvent&) {}
  virtual void on_import_read(const ImportReadEvent&) {}
  // A sink enforcing a work budget (interp/common/work_limits.h) names the one it exhausted
  // ("budget: faces"); engines ask after every face and op event they emit and end the run there,
  // unclean, with that reason. Empty: go on. Not virtual: the sink raises the reason when an event
  // exhausts its budget (request_stop), and asking is one load. A virtual question asked after
  // every face was a tenth of an FA geometry opcode's time.
  std::string_view stop_requested() const { return stop_reason_; }

 protected:
  // Raises `reason` (a string with static storage, such as kBudgetFaces); the first one raised
  // stays.
  void request_stop(std::string_view reason) {
    if (stop_reason_.empty()) stop_reason_ = reason;
  }

 private:
  std::string_view stop_reason_;
};

// Fans one stream out to several sinks, in order.
class MultiSink : public EventSink {
 public:
  void add(EventSink* sink) {
    sinks_.push_back(sink);
    wants_ops_ = wants_ops_ || sink->wants_ops();
    wants_control_ = wants_control_ || sink->wants_control();
  }
  bool wants_ops() const override { return wants_ops_; }
  bool wants_control() const override { return wants_control_; }
  void on_op(const OpEvent& e) override {
    for (auto* s : sinks_)
      if (s->wants_ops()) s->on_op(e);
    absorb_stop();
  }
  void on_branch(const BranchEvent& e) override { forward(&EventSink::on_branch, e); }
  void on_call(const CallEvent& e) override { forward(&EventSink::on_call, e); }
  void on_return(const ReturnEvent& e) override { forward(&EventSink::on_return, e); }
  void on_vertices(const VerticesEvent& e) override { forward(&EventSink::on_vertices, e); }
  void on_face(const FaceEvent& e) override { forward(&EventSink::on_face, e); }
  void on_diagnostic(const DiagnosticEvent& e) override { forward(&EventSink::on_diagnostic, e); }
  void on_end(const EndEvent& e) override { forward(&EventSink::on_end, e); }
  void on_native(const NativeEvent& e) override { forward(&EventSink::on_native, e); }
  void on_native_instruction(const NativeInstructionEvent& e) override {
    forward(&EventSink::on_native_instruction, e);
  }
  void on_import_read(const ImportReadEvent& e) override { forward(&EventSink::on_import_read, e); }

 private:
  // Every member sees the event, in order; then the first reason a member raised is raised here.
  template <typename Event>
  void forward(void (EventSink::*on)(const Event&), const Event& e) {
    for (auto* s : sinks_) (s->*on)(e);
    absorb_stop();
  }

  // Raises the first reason a member sink raised, in the members' order, after each event.
  void absorb_stop() {
    if (!stop_requested().empty()) return;
    for (auto* s : sinks_) {
      if (auto reason = s->stop_requested(); !reason.empty()) {
        request_stop(reason);
        return;
      }
    }
  }

  std::vector<EventSink*> sinks_;
  bool wants_ops_ = false;
  bool wants_control_ = false;
};

}  // namespace shapevm
