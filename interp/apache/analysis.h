// What a static walk of a record tells the knobs and the viewer about the state it reads: its LOD
// chain, the animation values its mask, choice and select opcodes distinguish, and the
// gameplay-filled attachment slots (model ID 0) it can draw. The walk covers the record, its LOD
// records and every model they attach (recursively); a malformed program or attachment list is
// skipped (the run reports it).
#pragma once

#include <cstdint>
#include <vector>

#include "interp/apache/archive.h"

namespace shapevm::apache {

struct StateAnalysis {
  std::vector<uint32_t> lod_chain;  // the record first, then each next LOD record
  // anim values that select distinct branches, ascending, without 0 (the engine default): every
  // combination of the tested bit groups (an ifmask/choose mask, or an authored select case),
  // or each group's values alone when there are too many combinations.
  std::vector<int64_t> anim_values;
  bool anim_read = false;       // some mask, choose or select opcode reads anim
  bool walk_failed = false;     // a program could not be walked: anim_values may be incomplete
  std::vector<uint32_t> slots;  // gameplay-filled attachment indices (slotN), ascending
};

StateAnalysis analyse_record(const Archive& archive, uint32_t record);

}  // namespace shapevm::apache
