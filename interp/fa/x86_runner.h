// Runs FA's embedded x86 blocks (opcode 0xF0) in the sandbox, the way do_start_asm entered them:
// `push esi; ret` with ESI = the payload just past F0 00 (seed 000, FA-18). The image is mapped
// at its preferred base (ImageBase + CODE VA) in a buffer shared with the interpreter, so x86
// stores into bytecode operands are what the interpreter reads next.
//
// Imports (facts/fa-x86.md §5, strategy B): every relocated operand that names a DATA trampoline
// is rewritten to that import's slot in a globals region, filled from the run state before each
// run; every one that names a FUNCTION trampoline is rewritten to an exit address on a page of
// HLT, so `push resume; push stub; ret` lands on HLT and the host handles the call:
// do_start_interp resumes the bytecode at the pushed address, _ErrorExit reports its message,
// the other known functions return their configured EAX.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interp/common/events.h"
#include "interp/fa/run_state.h"
#include "interp/fa/shape.h"
#include "x86/sandbox.h"

namespace shapevm::fa {

// Guest memory layout (all page aligned; the image sits at its own preferred base below these).
inline constexpr uint32_t kX86GlobalsBase = 0x00800000;
inline constexpr uint32_t kX86GlobalSlotSize = 0x100;  // each data import; `_v` needs 0x100 bytes
inline constexpr uint32_t kX86StackBase = 0x00900000;
inline constexpr uint32_t kX86StackSize = 0x10000;
// Unmapped on both sides of the stack: a push or call below it is "stack exhausted", a pop or ret
// above it "stack underflow". The globals region must end below the lower guard.
inline constexpr uint32_t kX86StackGuard = 0x10000;
inline constexpr uint32_t kX86ExitBase = 0x00A00000;
// Exit slots of 16 HLT bytes: slot 0 catches a block that just returns; function import j
// (counting function imports only) exits at slot j + 1. The exit region grows by pages as needed.
inline constexpr uint32_t kX86ExitSlotSize = 16;
inline constexpr uint32_t kX86ReturnSentinel = kX86ExitBase;
// A thread's Unicorn engine is closed and a new one opened once this many runners (one per
// interpreter of an x86 shape) have taken it from one another: Unicorn appends every new
// translation to its code buffer, about 2 KB for a runner's blocks, and gives the space back only
// with a new engine. (A full flush, UC_CTL_TB_FLUSH, is no substitute: in Unicorn 2.0.1 it touches
// the whole 1 GiB buffer, and a process that flushed grew past 1 GB.) Unicorn asks for 2 MB pages
// for that buffer, which Linux grants where transparent huge pages are enabled, so growth costs
// memory 2 MB at a time: at 512 take-overs it stays near 1 MB, inside the first such page. Opening
// an engine costs about 0.5 ms, about 1 us per take-over, beside the 34 us a take-over itself
// costs.
inline constexpr uint32_t kX86TakeOversPerEngine = 512;
inline constexpr uint64_t kX86BlockBudget = 100'000;  // instructions per block
inline constexpr int kX86MaxHostCalls = 64;           // function imports per block

struct X86BlockResult {
  bool resumed = false;
  uint32_t resume_offset = 0;  // CODE offset where the bytecode continues
  uint64_t instructions = 0;   // counted only when tracing
  bool counted = false;
  std::string reason;  // "do_start_interp", or why it stopped (with address and disassembly)
};

class X86Runner {
 public:
  // Throws InputError if the image cannot be laid out (CODE base not page aligned, overlap).
  X86Runner(const Shape& shape, bool trace);
  ~X86Runner();

  // Restores CODE to the file's bytes (with the import rewrites) and fills the import slots from
  // `state`. Call before each run: frames are repeatable.
  void begin_run(const RunState& state, EventSink* sink);
  // The CODE bytes as the interpreter must read them (shared with the guest).
  const uint8_t* code() const;
  X86BlockResult run_block(uint32_t x86code_offset);

  // For a debugger: called before each x86 instruction with the registers it starts from. Only
  // a runner built with `trace` observes instructions; nullptr removes the observer.
  using InstructionObserver =
      std::function<void(const NativeInstructionEvent&, const x86::Registers&)>;
  void set_instruction_observer(InstructionObserver observer);

  // Told of every change to CODE's bytes after the interpreter may have read them: a guest
  // store into CODE (during run_block), and begin_run putting back bytes the last run's x86
  // changed. `offset` and `size` are in CODE. The pre-decoded bytecode (predecoded_code.h)
  // drops what it decoded from those bytes.
  using CodeWriteObserver = std::function<void(uint32_t offset, uint32_t size)>;
  void set_code_write_observer(CodeWriteObserver observer);

  // Guard blocks whose outcome was taken from an earlier run, and those run because their inputs
  // were new (x86_guard_memo.h); blocks that are not pure guards count in neither.
  // The Unicorn engines opened so far by this process's runners for untraced runs: one per
  // thread, renewed after kX86TakeOversPerEngine runners have taken it.
  static uint64_t engines_opened();
  // How many times a runner has mapped its CODE into a thread's engine for untraced runs. A
  // fresh runner after a freed one of the same layout takes over the mapping instead.
  static uint64_t code_maps();

  uint64_t memo_hits() const;
  uint64_t memo_misses() const;

  // The data value an import has before a run when the state does not set it (facts §4).
  static int64_t default_import_value(const std::string& name, const RunState& state);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shapevm::fa
