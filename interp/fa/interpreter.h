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
#include <string>
#include <vector>

#include "interp/common/events.h"
#include "interp/fa/articulation.h"
#include "interp/fa/debug_hook.h"
#include "interp/fa/run_state.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::fa {

enum class Dispatch : uint8_t { kThreaded, kSwitch };

// Why a run ended. Code decides on this, never on RunResult::reason (that text is for people and
// traces, which print it unchanged).
enum class StopReason : uint8_t {
  kEndObject,          // EndObject (0x00)                        "EndObject"
  kTopLevelShortEof,   // ShortEOF with no call to return from    "ShortEOF at top level"
  kStepBudget,         // RunState::step_limit reached            "budget: steps"
  kCallDepthBudget,    // RunState::call_depth_limit reached      "call depth limit N reached ..."
  kX86Stopped,         // an embedded x86 block did not resume    "x86 block at ... stopped: ..."
  kFault,              // any other diagnostic that ends the run: bad or odd opcode, operands or
                       // a transfer outside CODE, a full pool, a bad object-record read, ...
  kDebugger,           // the debug hook asked to stop            "stopped by the debugger"
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
};

class Interpreter {
 public:
  // `shape` must outlive the interpreter. The static walk supplies the x86 region bounds used
  // while X86Code is skipped (assumptions.h).
  explicit Interpreter(const Shape& shape, const WalkOptions& walk_options = {});
  ~Interpreter();

  // Not reentrant: one interpreter per thread (it owns the vertex pool).
  RunResult run(const RunState& state, EventSink& sink, Dispatch dispatch = Dispatch::kThreaded);

  // The LOD thresholds of the shape, largest first (for --lod k), and the projected size that
  // puts a run at level k: above every threshold for 0, just below the k-th largest otherwise.
  const std::vector<uint16_t>& lod_thresholds() const { return lod_thresholds_; }
  int64_t synthetic_projected_size(uint32_t level) const;

  // Attaches a debugger (debug_hook.h); nullptr detaches it. Not owned.
  void set_debug_hook(DebugHook* hook) { hook_ = hook; }

 private:
  struct Machine;
  template <typename Execute>
  void run_merged_harvest(Machine& m, Execute&& execute);
  const Shape& shape_;
  WalkResult walk_;
  std::vector<uint16_t> lod_thresholds_;
  std::map<uint32_t, uint32_t> x86_ends_;  // X86Code offset -> end of its x86 region
  std::vector<PoolSlot> pool_;             // the vertex pool, reused by every run
  std::unique_ptr<X86Runner> x86_;         // created by the first run that executes x86
  std::unique_ptr<ArticulationAnalysis> articulations_;  // for --merged, made on first use
  bool x86_trace_ = false;
  uint32_t epoch_ = 0;
  DebugHook* hook_ = nullptr;
};

}  // namespace shapevm::fa
