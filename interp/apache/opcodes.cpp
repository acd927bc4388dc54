#include "interp/apache/opcodes.h"

#include <fmt/format.h>

#include "interp/apache/program_reader.h"

namespace shapevm::apache {
namespace {

using K = OperandKind;

// Operand lists: assumed (assumptions.h, docs/apache.md). Meanings: traced.
constexpr std::array<OpcodeInfo, kOpcodeCount> kOpcodes{{
    {0, "face", "draw a primary face and update its winding result", 1, {{{K::kPacket, "packet"}}}},
    {1,
     "face2",
     "draw a secondary face if the preceding winding result was nonnegative",
     1,
     {{{K::kSecondaryPacket, "packet"}}}},
    {2,
     "winding",
     "evaluate a polygon's winding and draw two branches in the resulting order",
     4,
     {{{K::kPolygon, "polygon"},
       {K::kDisplacement, "front"},
       {K::kDisplacement, "back"},
       {K::kDisplacement, kContinueRole}}}},
    {3,
     "ifmask",
     "execute a branch when an animation bit mask is set",
     3,
     {{{K::kMask32, "mask"}, {K::kDisplacement, "branch"}, {K::kDisplacement, kContinueRole}}}},
    {4,
     "choose",
     "choose between two branches using an animation bit mask",
     4,
     {{{K::kMask32, "mask"},
       {K::kDisplacement, "set"},
       {K::kDisplacement, "clear"},
       {K::kDisplacement, kContinueRole}}}},
    {5,
     "select",
     "select an authored branch using a shifted and masked animation value",
     4,
     {{{K::kShift8, "shift"},
       {K::kMask32, "mask"},
       {K::kCases, "cases"},
       {K::kDisplacement, kContinueRole}}}},
    {6, "attached", "draw an attached model by slot number", 1, {{{K::kSlot8, "slot"}}}},
    {7, "ret", "return from this branch", 0, {}},
}};

}  // namespace

const char* secondary_length_name(SecondaryLength reading) {
  return reading == SecondaryLength::kWhole ? "whole" : "packet";
}

uint32_t expected_secondary_length(uint32_t packet_size, SecondaryLength reading) {
  return packet_size + (reading == SecondaryLength::kWhole ? 1u : 0u);
}

const OpcodeInfo* opcode_info(uint8_t op) {
  return op < kOpcodeCount ? &kOpcodes[op] : nullptr;
}

const OpcodeInfo* opcode_by_name(std::string_view name) {
  for (const auto& o : kOpcodes)
    if (name == o.name) return &o;
  return nullptr;
}

void decode_instruction(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source,
                        Instruction& out, SecondaryLength reading) {
  const ProgramReader r(bytes, source);
  const uint8_t op = r.u8(offset, "a drawing opcode");
  const OpcodeInfo* info = opcode_info(op);
  if (info == nullptr) r.fail(offset, fmt::format("expected a drawing opcode 0..7, found {}", op));
  out.offset = offset;
  out.op = op;
  out.info = info;
  out.branches.clear();
  out.has_continuation = false;
  out.polygon = {};
  out.secondary_mismatch = false;
  uint32_t at = offset + 1;
  auto displacement = [&](const char* role) {
    // Messages are formatted only on failure: this is the interpreter's hot path.
    r.require(at, 2,
              [&] { return fmt::format("the {} branch displacement of {}", role, info->name); });
    const int16_t d = load_i16(bytes.data() + at);
    at += 2;
    const int64_t target = int64_t{at} + d;  // relative to the byte after the displacement
    if (target < 0 || target >= static_cast<int64_t>(bytes.size())) {
      r.fail(at - 2, fmt::format("expected the {} displacement {} of {} to land inside the file "
                                 "(target {}, file {} bytes)",
                                 role, d, info->name, target, bytes.size()));
    }
    return static_cast<uint32_t>(target);
  };
  for (uint8_t k = 0; k < info->operand_count; ++k) {
    const Operand& operand = info->operands[k];
    switch (operand.kind) {
      case K::kPacket:
        decode_packet(bytes, at, source, out.packet);
        at += out.packet.size;
        break;
      case K::kSecondaryPacket: {
        out.secondary_length = r.u8(at, "a secondary packet's length byte");
        decode_packet(bytes, at + 1, source, out.packet);
        out.secondary_expected = expected_secondary_length(out.packet.size, reading);
        out.secondary_mismatch = out.secondary_length != out.secondary_expected;
        // Where the byte leads: it counts from itself (whole) or from the type byte after it.
        out.secondary_skip =
            at + out.secondary_length + (reading == SecondaryLength::kWhole ? 0u : 1u);
        at += 1 + out.packet.size;
        break;
      }
      case K::kPolygon: {
        const uint8_t n = r.u8(at, "the decision polygon's vertex count");
        if (n < 3) {
          r.fail(at,
                 fmt::format("expected a decision polygon of at least 3 vertices, found {}", n));
        }
        out.polygon = r.bytes(at + 1, n, "the decision polygon's vertex indices");
        at += 1 + n;
        break;
      }
      case K::kMask32:
        out.mask = r.u32(at, "an animation mask");
        at += 4;
        break;
      case K::kShift8:
        out.shift = r.u8(at, "a select shift");
        if (out.shift > 31) r.fail(at, fmt::format("expected a shift 0..31, found {}", out.shift));
        at += 1;
        break;
      case K::kCases: {
        const uint8_t n = r.u8(at, "the select case count");
        at += 1;
        for (uint8_t c = 0; c < n; ++c) out.branches.push_back(displacement("case"));
        break;
      }
      case K::kDisplacement: {
        const uint32_t target = displacement(operand.role);
        if (operand.role == kContinueRole) {
          out.has_continuation = true;
          out.continuation = target;
        } else {
          out.branches.push_back(target);
        }
        break;
      }
      case K::kSlot8:
        out.slot = r.u8(at, "an attached-model slot");
        at += 1;
        break;
    }
  }
  out.size = at - offset;
}

}  // namespace shapevm::apache
