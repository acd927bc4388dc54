// The Fighters Anthology shape interpreter. It runs a shape's bytecode the way FA.EXE's
// hand-written threaded interpreter did (seed 000, "Interpreter dispatch — vector_table"): every
// fetch reads [opcode][first operand byte] and advances two bytes, dispatch goes through a
// 128-entry table indexed like vector_table (opcode*2), and each handler ends by fetching and
// dispatching the next instruction. Built with GCC/Clang labels-as-values; a switch over the same
// handler list is the portable fallback (Dispatch::kSwitch), kept for comparison.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/common/events.h"
#include "interp/fa/articulation.h"
#include "interp/fa/debug_hook.h"
#include "interp/fa/predecoded_code.h"
#include "interp/fa/run_state.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::fa {

enum class Dispatch : uint8_t { kThreaded, kSwitch };

// Why a run ended. Code decides on this, never on RunResult::reason (that text is for people and
// traces, which print it unchanged).
enum class StopReason : uint8_t {
  kEndObject,         // EndObject (0x00)                        "EndObject"
  kTopLevelShortEof,  // ShortEOF with no call to return from    "ShortEOF at top level"
  kStepBudget,        // RunState::step_limit reached            "budget: steps"
  kWorkBudget,        // a sink's work budget exhausted           "budget: faces", "budget: pixels",
                      // "budget: trace bytes" (interp/common/work_limits.h)
  kCallDepthBudget,   // RunState::call_depth_limit reached      "call depth limit N reached ..."
  kX86Stopped,        // an embedded x86 block did not resume    "x86 block at ... stopped: ..."
  kFault,             // any other diagnostic that ends the run: bad or odd opcode, operands or
                      // a transfer outside CODE, a full pool, a bad object-record read, ...
  kDebugger,          // the debug hook asked to stop            "stopped by the debugger"
  kReachedWalkedCode,  // --merged: a harvest walk reached code an earlier walk executed
                       // ("harvest: reached code already walked")
};

struct RunResult {
  std::string reason;                        // why the run ended, in words (traces print it)
  StopReason stop = StopReason::kEndObject;  // the same, typed
  bool clean = true;  // false: a diagnostic (bad opcode, budget, bounds) stopped it
  uint32_t end_offset = 0;
  uint64_t ops = 0;
  uint64_t faces = 0;
  int precision_shift = 0;  // GRAddBrentObj's shift for this view (precision_shift.h, FA-51)
};

class MachineAccess;

// A driver that runs the machine more than once per run (merged_harvest.h) watches it through
// this observer. It is called only on the fetch slow path (Machine::fetch), which a run without
// per-opcode events, a debugger or an observer never takes.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Before fetching at m.pos() (budget and bounds already checked). Returns false when it
  // stopped the run (MachineAccess::stop / fail); it may also move m.pos() (return_from_call).
  virtual bool before_fetch(MachineAccess& m) = 0;
  enum class Action : uint8_t { kDispatch, kDone, kStop };
  // After the opcode at `off` is fetched and counted (and shown to the debugger and the sink),
  // before its handler runs: kDispatch runs the handler, kDone means the observer executed the
  // instruction itself (through MachineAccess) and the next one is fetched, kStop ends the run.
  virtual Action before_dispatch(MachineAccess& m, uint32_t off, uint8_t op) = 0;
};

class Interpreter {
 public:
  // `shape` must outlive the interpreter. The static walk supplies the x86 region bounds used
  // while X86Code is skipped (assumptions.h).
  explicit Interpreter(const Shape& shape, const WalkOptions& walk_options = {});
  // With `walk` already made of `shape` (walk_shape with the options the runs use), so a caller
  // that has one neither walks the shape twice nor copies the walk: the interpreter shares it.
  Interpreter(const Shape& shape, std::shared_ptr<const WalkResult> walk);
  ~Interpreter();

  // Not reentrant: one interpreter per thread (it owns the vertex pool).
  RunResult run(const RunState& state, EventSink& sink, Dispatch dispatch = Dispatch::kThreaded);

  // The LOD thresholds of the shape, largest first (for --lod k), and the projected size that
  // puts a run at level k: above every threshold for 0, just below the k-th largest otherwise.
  const std::vector<uint16_t>& lod_thresholds() const { return lod_thresholds_; }
  int64_t synthetic_projected_size(uint32_t level) const;

  // The camera distance that frames every vertex the shape's VertexBuffers hold, for the camera's
  // heading and pitch in a width x height frame: the distance a run uses when none is given.
  int32_t fit_distance(const CameraSpec& camera, int width, int height) const;
  // The view a run in `state` uses: a camera distance of 0 stands for the fitted distance at the
  // state's frame size. The interpreter, the trace's globals and the debugger all take it from
  // here, so they agree.
  ViewSetup shape_view(const RunState& state) const;

  // The x86 sandbox of the last run that executed x86 (nullptr before one has).
  const X86Runner* x86_runner() const { return x86_.get(); }

  // Attaches a debugger (debug_hook.h); nullptr detaches it. Not owned.
  void set_debug_hook(DebugHook* hook) { hook_ = hook; }

 private:
  friend class MachineAccess;
  struct Machine;
  // The interpreter's vertices, LOD thresholds and x86 regions, from a walk's items.
  void take_walk_facts(const std::vector<OutlineItem>& items);
  // The whole walk, made on first use (--merged) unless one was shared at construction.
  const WalkResult& walk();

  const Shape& shape_;
  WalkOptions walk_options_;                // how walk() walks the shape
  std::shared_ptr<const WalkResult> walk_;  // shared, or made by walk(); null before
  std::vector<uint16_t> lod_thresholds_;
  std::vector<std::array<int16_t, 3>> model_vertices_;  // every VertexBuffer's, in code order
  std::map<uint32_t, uint32_t> x86_ends_;               // X86Code offset -> end of its x86 region
  // The vertex pool, reused by every run: as long as the highest slot any run wrote (a new
  // interpreter cleared all assumed::kPoolSlots, 192 KB, which was a twentieth of a fresh frame).
  std::vector<PoolSlot> pool_;
  // The corners of the face being drawn, reused by every face of every run: as long as the most
  // corners any face had. Only the fields FA fills change (index, model, view, texcoord).
  std::vector<FaceCorner> corners_;
  std::unique_ptr<X86Runner> x86_;  // created by the first run that executes x86
  PredecodedCode predecoded_;       // the threaded dispatch's decoded instructions
  std::unique_ptr<ArticulationAnalysis> articulations_;  // for --merged, made on first use
  bool x86_trace_ = false;
  // fit_distance's last view (heading, pitch, width, height) and its distance.
  mutable std::optional<std::pair<std::array<int, 4>, int32_t>> last_fit_;
  uint32_t epoch_ = 0;
  DebugHook* hook_ = nullptr;
};

// The operands of a VertexBuffer (0x82) that passed its checks.
struct VertexBufferOperands {
  uint32_t first = 0;  // the first pool slot written
  uint32_t count = 0;
  uint32_t next = 0;  // the offset after the instruction
};

// The small, explicit interface through which a driver (merged_harvest.h) works a running
// machine: between loops (where to start, with which frame stack, position and texture) and from
// its RunObserver callbacks (the instructions it executes itself). Valid only during
// Interpreter::run.
class MachineAccess {
 public:
  // The dispatch loop, from pos() until something stops it; result() says why.
  void run_loop();
  const RunResult& result() const;
  void set_result(const RunResult& r);

  uint32_t pos() const;
  void set_pos(uint32_t at);
  uint32_t code_size() const;
  const RunState& state() const;

  // A fresh walk at top level: no frames, the object at the view's origin.
  void reset_frames();
  bool at_top_level() const;
  // Returns from the innermost call as its ShortEOF would (a return event; pos() = its resume).
  void return_from_call(uint32_t off);

  const std::string& texture() const;
  void set_texture(std::string name);

  // Ends the run at `off` (always returns false, to be returned by the caller).
  bool stop(uint32_t off, std::string reason, StopReason why, bool clean);
  // Reports a diagnostic (at the failure level) and ends the run, not clean (StopReason::kFault).
  bool fail(uint32_t off, std::string message);
  // The level of the diagnostic that fail() reports (kError unless a driver lowers it).
  void set_failure_level(DiagnosticLevel level);

  // The two halves of VertexBuffer: its checks (diagnostics; nullopt when it ended the run), and
  // writing the slots (the vertices event).
  std::optional<VertexBufferOperands> vertex_buffer_operands(uint32_t off);
  void write_vertices(uint32_t off, const VertexBufferOperands& vb);
  // Steps over the Face at `off` without drawing it (false when its encoding ended the run).
  bool skip_face(uint32_t off);

 private:
  friend class Interpreter;
  explicit MachineAccess(Interpreter::Machine& m) : m_(m) {}
  Interpreter::Machine& m_;
};

}  // namespace shapevm::fa
