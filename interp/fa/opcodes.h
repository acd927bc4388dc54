// The one table of Fighters Anthology shape opcodes. Decoding, disassembly, tracing and the
// interpreter's dispatch table are all built from it, so an opcode's name, size rule and original
// handler are written down exactly once. Source: seed 000 (instruction tables, Engine Notes).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace shapevm::fa {

// How an instruction's total size is determined (seed 000, "Instruction Dispatch").
enum class SizeRule : uint8_t {
  kFixed,         // fixed_size bytes
  kHeader,        // 0xFF: the 14-byte shape header
  kToEnd,         // 0x00 EndObject / 0x01 EndShape: "all remaining" (one opcode byte listed)
  kShortEof,      // 0x1E: one byte; a following run of 0x1E is alignment
  kX86,           // 0xF0: F0 00, then an x86 payload bounded by the static walker
  kPlane06,       // 0x06: 16 + u16@[14]
  kPlaneShort,    // 0x0C/0x0E/0x10: 12 + u16@[10]
  kFrameTable,    // 0x40: 4 + u16@[2] * 2
  kSourceName,    // 0x42: 2 + strlen + 1
  kVertexBuffer,  // 0x82: 6 + u16@[2] * 6
  kOrderField,    // 0x6C: 13/14/16 by the embedded 38/48/50 jump at [10]
  kFace,          // 0xFC: by the content/layout flags
  kUnknown,       // engine-only / do_if_not_effect handlers: no shape uses them, size untraced
};

// What is known about an opcode's runtime behaviour.
enum class Knowledge : uint8_t {
  kTraced,    // a seed specifies the behaviour
  kPartial,   // layout partly traced (XformUnmask 0xC4/0xC6)
  kUntraced,  // size known, semantics not: executes as "skip"
};

// Where an opcode comes from.
enum class Origin : uint8_t {
  kCorpus,       // one of the seed's 55 opcodes seen in the FA_2.LIB corpus
  kEngineOnly,   // a vector_table handler never used by the shipped shapes
  kIfNotEffect,  // one of the six do_if_not_effect slots
};

struct OpcodeInfo {
  uint8_t op = 0;
  std::string_view mnemonic;     // the seed's name: "VertexBuffer", "Unk08", ...
  std::string_view handler;      // the FA.SMS handler symbol, "" where the seed gives none
  uint32_t handler_address = 0;  // the handler's address in FA.EXE, 0 where not given
  SizeRule rule = SizeRule::kFixed;
  uint16_t fixed_size = 0;  // for kFixed (and the minimum size of variable rules)
  // Word-magic: the parser-side view where the second byte is 0x00. The engine itself fetches
  // [op][first operand byte] for every opcode and does not care (seed 000, vector_table).
  bool word_magic = false;
  Knowledge knowledge = Knowledge::kUntraced;
  Origin origin = Origin::kCorpus;
};

namespace detail {
// Each byte's table entry (nullptr for none), filled at compile time in opcodes.cpp.
extern const std::array<const OpcodeInfo*, 256> kOpcodeOfByte;
}  // namespace detail

// The opcode's table entry, or nullptr when the byte is not a known opcode (the engine would
// dispatch it to an unassigned or unknown vector_table slot). Inline: the walker asks for every
// instruction of every shape.
inline const OpcodeInfo* find_opcode(uint8_t op) {
  return detail::kOpcodeOfByte[op];
}

// Every known opcode, ascending: the 55 corpus opcodes, the engine-only handlers and the six
// do_if_not_effect slots.
std::span<const OpcodeInfo> all_opcodes();

// The engine's vector_table (0x5183A0): 128 dword entries addressed at opcode*2, so entry i is
// reached by the even opcode 2*i; odd opcodes read a misaligned entry (seed 000, Engine Notes).
inline constexpr uint32_t kVectorTableAddress = 0x5183A0;
inline constexpr size_t kVectorTableSlots = 128;
// The common stub that unassigned vector_table slots point at.
inline constexpr uint32_t kUnassignedStubAddress = 0x4D17E0;
inline constexpr std::string_view kIfNotEffectHandler = "do_if_not_effect";

// The entry of vector_table that opcode `op` dispatches through, as the original computes
// [vector_table + op*2]: for odd opcodes the dword straddles two entries.
inline constexpr uint32_t vector_table_entry_address(uint8_t op) {
  return kVectorTableAddress + static_cast<uint32_t>(op) * 2;
}

}  // namespace shapevm::fa
