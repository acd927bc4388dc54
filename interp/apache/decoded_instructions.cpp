#include "interp/apache/decoded_instructions.h"

namespace shapevm::apache {

DecodedInstruction& DecodedInstructions::at(uint32_t offset, uint32_t depth) {
  if (keeping_)
    if (DecodedInstruction* found = kept_at_.find(offset)) return *found;
  if (!keeping_ || kept_.size() >= max_kept_) {
    if (scratch_.size() <= depth) scratch_.resize(size_t{depth} + 1);
    DecodedInstruction& d = scratch_[depth];
    d.kept = false;
    decode_instruction(bytes_, offset, source_, d.ins, reading_);
    return d;
  }
  DecodedInstruction& d = kept_.emplace_back();
  try {
    decode_instruction(bytes_, offset, source_, d.ins, reading_);
  } catch (...) {
    kept_.pop_back();  // not kept: reaching the offset again reports the same error again
    throw;
  }
  kept_at_.insert(offset, &d);
  return d;
}

DecodedInstruction& DecodedInstructions::called(DecodedInstruction& from, uint32_t target,
                                                uint32_t depth) {
  for (const auto& [offset, to] : from.called)
    if (offset == target) return *to;
  DecodedInstruction& to = at(target, depth);
  if (from.kept && to.kept) from.called.emplace_back(target, &to);
  return to;
}

}  // namespace shapevm::apache
