// Static disassembly of a model's drawing program: every instruction reachable from the program
// start through fall-through, branches and continuations, in offset order, with labels on branch
// targets and packets decoded. Instructions are written in the program syntax of the assembler
// language (docs/apache.md); header, vertices and the rest of a record are shown by `info`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interp/apache/archive.h"
#include "interp/apache/opcodes.h"

namespace shapevm::apache {

struct ProgramWalk {
  std::map<uint32_t, Instruction> instructions;  // by file offset
  std::map<uint32_t, std::string> labels;        // branch targets -> "L<offset>"
  std::map<uint8_t, uint64_t> opcode_counts;
  std::map<uint8_t, uint64_t> packet_counts;  // by packet type
  // Secondary packets (AP-21): how many, how many length bytes fit each reading, and the face2
  // instructions whose byte disagrees with the seed's reading (the walk does not follow where
  // such a byte would skip to; a run does, and reports it).
  uint64_t secondary_packets = 0;
  uint64_t secondary_whole = 0;   // byte = the whole packet, itself included (the seed)
  uint64_t secondary_packet = 0;  // byte = the packet from its type byte on
  std::vector<uint32_t> secondary_mismatches;
};

// InputError on any malformed instruction reached.
ProgramWalk walk_program(const Archive& archive, const ModelRecord& record);

// "face polygon colour=12 : 0 1 2" for one instruction (labels from the walk).
std::string instruction_text(const Instruction& ins, const std::map<uint32_t, std::string>& labels);

// The whole listing: header comments, then one line per instruction with its offset and bytes
// as a comment.
std::string program_listing(const Archive& archive, const ModelRecord& record,
                            const ProgramWalk& walk);

}  // namespace shapevm::apache
