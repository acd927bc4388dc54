// The eight drawing opcodes (seed 003, "Drawing language"; AP-10..AP-18) as ONE table: the
// meaning is traced, the operand list of each opcode is assumed (assumptions.h, docs/apache.md).
// The decoder, the interpreter, the disassembler and the assembler all read this table, so a
// corrected operand order is one edit.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interp/apache/packets.h"

namespace shapevm::apache {

enum class Opcode : uint8_t {
  kFace = 0,      // primary face; updates the winding result
  kFace2 = 1,     // secondary face; drawn if the last winding result was nonnegative
  kWinding = 2,   // decision polygon: two branches in winding order, then continue
  kIfMask = 3,    // branch when anim & mask != 0, then continue
  kChoose = 4,    // one of two branches by anim & mask, then continue
  kSelect = 5,    // authored case (anim >> shift) & mask, then continue
  kAttached = 6,  // draw an attached model by slot
  kReturn = 7,    // return from this branch
};
inline constexpr uint8_t kOpcodeCount = 8;

// How a secondary packet's length byte is read (AP-21). The seed: the byte gives the complete
// packet length, so it counts itself (kWhole). The alternative this project used to assume, the
// packet from its type byte on without the length byte (kAfterItself), stays selectable
// (`--set secondary_length=packet`). The engine only skips by the byte: a byte that disagrees
// with the packet's own size is a diagnostic, never a decoding error.
enum class SecondaryLength : uint8_t { kWhole, kAfterItself };
inline constexpr SecondaryLength kSeedSecondaryLength = SecondaryLength::kWhole;
const char* secondary_length_name(SecondaryLength reading);  // "whole", "packet"
// The length byte a secondary packet of `packet_size` bytes (type byte onward) has in `reading`.
uint32_t expected_secondary_length(uint32_t packet_size, SecondaryLength reading);

enum class OperandKind : uint8_t {
  kPacket,           // a primary packet
  kSecondaryPacket,  // length byte, then a packet
  kPolygon,          // count u8, count vertex indices
  kMask32,
  kShift8,
  kCases,         // case count u8, then that many displacements
  kDisplacement,  // signed 16-bit, relative to the byte after it
  kSlot8,
};

// The role of the displacement every structured opcode ends with: where the run continues. The
// table names it through this one array, so the decoder tells it apart by address.
inline constexpr char kContinueRole[] = "continue";

struct Operand {
  OperandKind kind;
  const char* role;  // "front", "back", "branch", "set", "clear", "continue", ...
};

struct OpcodeInfo {
  uint8_t op;
  const char* name;    // the project's mnemonic
  const char* action;  // the seed's description
  uint8_t operand_count;
  std::array<Operand, 5> operands;
};

// nullptr for a byte >= 8.
const OpcodeInfo* opcode_info(uint8_t op);
const OpcodeInfo* opcode_by_name(std::string_view name);

// A decoded instruction. Branch targets and the continuation are file offsets.
struct Instruction {
  uint32_t offset = 0;
  uint32_t size = 0;
  uint8_t op = 0;
  const OpcodeInfo* info = nullptr;
  Packet packet;                     // face, face2
  uint8_t secondary_length = 0;      // face2: the length byte as stored
  uint32_t secondary_expected = 0;   // face2: the byte the reading expects for this packet
  uint32_t secondary_skip = 0;       // face2: where a skipped packet resumes (by the byte)
  bool secondary_mismatch = false;   // face2: the byte disagrees with the packet's size
  std::span<const uint8_t> polygon;  // winding: vertex indices
  uint32_t mask = 0;
  uint8_t shift = 0;
  uint8_t slot = 0;
  // Displacement operands in table order except "continue" (winding: front, back; ifmask: branch;
  // choose: set, clear; select: the cases).
  std::vector<uint32_t> branches;
  bool has_continuation = false;
  uint32_t continuation = 0;
};

// Decodes the instruction at `offset` into `out` (reusing its storage). InputError for an opcode
// byte >= 8, a truncated operand or a branch target outside the file. A secondary length byte
// that disagrees with its packet under `reading` is recorded (secondary_mismatch), not an error:
// `size` then still covers the packet as decoded and `secondary_skip` is where the byte leads.
void decode_instruction(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source,
                        Instruction& out, SecondaryLength reading = kSeedSecondaryLength);

}  // namespace shapevm::apache
