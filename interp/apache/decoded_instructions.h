// The drawing program's instructions, each decoded once per interpreter and reading, and kept for
// later runs.
//
// An archive's bytes never change while it is open (no Apache opcode writes to the program, unlike
// Fighters Anthology's embedded x86), so an instruction decoded at an offset under one secondary-
// length reading stays valid for every later run. One cache holds one reading, so that what it
// links together was decoded the same way. The viewer redraws a record every frame, the
// debugger re-runs it to step back, and a regress manifest runs one record in many states: those
// runs found decoding a third of their cost per opcode (decode_instruction and decode_packet).
// Nothing is kept during a cache's first run: a batch runs each record once in an interpreter of
// its own, and keeping what it will never run again made those runs half again as slow (the
// allocation of every instruction). From the second run on, the instructions run are kept.
// Each decoded instruction also remembers the one that followed it and the ones its branches
// called, so a run that takes the same path goes from one to the next without a lookup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/offset_map.h"
#include "interp/apache/opcodes.h"

namespace shapevm::apache {

struct DecodedInstruction {
  Instruction ins;
  // The instruction the run went on to after this one last time (checked against the pc before
  // it is used: after a face2 the next pc depends on the winding).
  DecodedInstruction* next = nullptr;
  // The instructions its branches called last time, by target offset (a target is fixed by the
  // instruction, so no check is needed).
  std::vector<std::pair<uint32_t, DecodedInstruction*>> called;
  bool kept = true;  // false: scratch storage, decoded again on every use
  // face, face2: the packet's texture coordinates were checked against the interpreter's texture
  // archive and called for no diagnostic. Both are fixed while the cache lives, so later runs
  // skip the check (a texture lookup and a read of every corner, about 220 instructions a
  // packet). Set and read on kept instructions only.
  bool texcoords_clean = false;
};

class DecodedInstructions {
 public:
  // At most this many instructions are kept (about 10 MB), so a hostile archive cannot make the
  // cache grow with its size: past it, instructions are decoded into scratch storage each time,
  // as they were before there was a cache.
  static constexpr size_t kMaxKept = 65'536;

  // `max_kept` below kMaxKept only for tests of what happens past it.
  DecodedInstructions(std::span<const uint8_t> bytes, const std::string& source,
                      SecondaryLength reading, size_t max_kept = kMaxKept)
      : bytes_(bytes), source_(source), reading_(reading), max_kept_(max_kept) {}

  // The instruction at `offset`, decoded on first use. A decoding error is an InputError each time
  // the offset is reached (nothing is kept for it). The reference stays valid while this cache
  // lives, except one returned from scratch storage (the first run, or past kMaxKept), which is
  // valid until the next call at the same `depth` (the interpreter holds one instruction per
  // depth).
  DecodedInstruction& at(uint32_t offset, uint32_t depth);

  // What follows `from` at `pc`: `from`'s remembered successor when it is there, else at().
  DecodedInstruction& after(DecodedInstruction& from, uint32_t pc, uint32_t depth) {
    if (from.next != nullptr && from.next->ins.offset == pc) [[likely]]
      return *from.next;
    DecodedInstruction& to = at(pc, depth);
    if (from.kept && to.kept) from.next = &to;
    return to;
  }

  // The first instruction of the branch of `from` that starts at `target` (run at `depth`).
  DecodedInstruction& called(DecodedInstruction& from, uint32_t target, uint32_t depth);

  // Called as a run starts: from the second run on, instructions are kept.
  void begin_run() { keeping_ = runs_++ > 0; }

  size_t size() const { return kept_.size(); }

 private:
  std::span<const uint8_t> bytes_;
  const std::string& source_;
  SecondaryLength reading_;
  size_t max_kept_;
  uint64_t runs_ = 0;
  bool keeping_ = false;
  // The kept instructions, found by offset through kept_at_. A deque keeps its elements' addresses
  // as it grows: references handed out stay valid while the recursion of calls holds them.
  std::deque<DecodedInstruction> kept_;
  OffsetMap<DecodedInstruction> kept_at_;
  // One per depth: the first run's instructions, and any past max_kept_.
  std::deque<DecodedInstruction> scratch_;
};

}  // namespace shapevm::apache
