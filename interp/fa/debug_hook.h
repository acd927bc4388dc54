// What a debugger may see of a running FA interpreter, and the one hook through which it may stop
// a run. The interpreter calls the hook only when one is attached (Interpreter::set_debug_hook),
// on the same slow path as per-opcode events, so a run without a debugger is unchanged.
//
// The hook is called at every "pause point": before each opcode executes, before each x86
// instruction of an embedded block executes (only when the run traces x86, RunState::x86_trace),
// and once at the end of the run. Everything a DebugView points at is valid only during the call.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "interp/common/events.h"
#include "interp/fa/camera.h"
#include "interp/fa/run_state.h"
#include "x86/sandbox.h"

namespace shapevm::fa {

// One vertex pool slot. It holds a value of the current run only when `epoch` equals the run's
// (the pool is allocated once per interpreter and never cleared between runs). Laid out as a
// FaceCorner begins (its index, model and view), so that a face copies each corner from its slot
// in one move, the epoch landing where the corner's index then goes (the interpreter checks it).
struct PoolSlot {
  uint32_t epoch = 0;
  std::array<int16_t, 3> model{};
  ViewPoint view;
};

// One active call (Unmask, XformUnmask, selector): where it was made, the chain it entered, where
// its ShortEOF resumes, and the object position the caller used (restored on return).
struct CallFrame {
  uint32_t resume = 0;
  std::array<int64_t, 3> rel{};
  uint32_t call = 0;
  uint32_t entry = 0;
};

struct RunResult;

struct DebugView {
  uint32_t offset = 0;  // the opcode about to execute (x86 pause: the X86Code opcode)
  uint8_t op = 0;
  uint64_t steps = 0;  // opcodes executed before this one
  uint64_t faces = 0;  // faces emitted so far
  std::span<const CallFrame> frames;
  std::array<int64_t, 3> position{};  // the object position transforms use (`rel`)
  std::span<const PoolSlot> pool;
  uint32_t epoch = 0;  // the run's pool epoch
  std::string_view texture;
  std::span<const uint8_t> code;  // CODE as the interpreter reads it (x86 may have written it)
  const RunState* state = nullptr;
  const ViewSetup* view = nullptr;  // the view matrix and object position the run set up
  // x86 pause: the instruction about to execute and the registers before it.
  const NativeInstructionEvent* x86_instruction = nullptr;
  const x86::Registers* x86_registers = nullptr;
  // End pause: how the run ended.
  const RunResult* end = nullptr;
};

class DebugHook {
 public:
  virtual ~DebugHook() = default;
  // Return true to end the run at this opcode (it does not execute; the run ends clean with the
  // reason "stopped by the debugger"). At x86 and end pauses the value is ignored: a run asked
  // to stop inside an x86 block stops at the next opcode pause.
  virtual bool pause(const DebugView& view) = 0;
};

}  // namespace shapevm::fa
