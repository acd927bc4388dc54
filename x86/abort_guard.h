// Surviving Unicorn's own aborts.
//
// Unicorn 2.0.1 ends the host process (it prints "tcg fatal error" and calls abort()) when its
// translator meets some invalid instructions instead of raising the #UD the CPU would: FF /3 and
// FF /5 with a register operand (a far call or jump "through a register", bytes FF D8-DF and
// FF E8-EF, with or without prefixes; Unicorn's issue 1716). Measured here for every one- and
// two-byte opcode with a register operand: only those sixteen pairs abort. Translation happens
// before any hook sees an instruction, and keeping Unicorn from translating such bytes (an exit at
// every place they could start) made every warm block three times slower, since Unicorn
// discards the translations around each exit after every run. So the sandbox lets the abort
// happen and returns from it instead: while a guarded call runs, a SIGABRT raised on the same
// thread jumps back to the guard, and the engine that aborted is never used again.
//
// Whatever runs under the guard is abandoned where it stood, Unicorn's hook callbacks included:
// they must not throw (an exception cannot cross Unicorn's C frames anyway).
//
// This relies on glibc 2.36's abort() (Debian 12), which releases its lock before it raises
// SIGABRT, so that a handler that does not return leaves abort() reusable.
#pragma once

namespace shapevm::x86 {

// Calls fn(arg). Returns true when it returned, false when abort() was called on this thread
// while it ran: the call is abandoned where it stood, and whatever it was changing must be
// discarded. An abort on another thread, or outside a guarded call, ends the process as before
// (through any SIGABRT handler installed before the first guarded call, such as a fuzzer's).
bool call_surviving_abort(void (*fn)(void*), void* arg);

}  // namespace shapevm::x86
