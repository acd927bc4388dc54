#include "interp/apache/listing.h"

#include <fmt/format.h>

#include <set>

namespace shapevm::apache {

ProgramWalk walk_program(const Archive& archive, const ModelRecord& record) {
  ProgramWalk walk;
  if (!record.header.has(kProgram)) return walk;
  std::vector<uint32_t> pending{record.header.sections[kProgram]};
  while (!pending.empty()) {
    uint32_t pc = pending.back();
    pending.pop_back();
    while (!walk.instructions.contains(pc)) {
      Instruction ins;
      decode_instruction(archive.bytes(), pc, archive.source(), ins);
      ++walk.opcode_counts[ins.op];
      if (ins.op <= 1) ++walk.packet_counts[ins.packet.type->type];
      if (static_cast<Opcode>(ins.op) == Opcode::kFace2) {
        ++walk.secondary_packets;
        const uint32_t size = ins.packet.size;
        if (ins.secondary_length == expected_secondary_length(size, SecondaryLength::kWhole))
          ++walk.secondary_whole;
        if (ins.secondary_length == expected_secondary_length(size, SecondaryLength::kAfterItself))
          ++walk.secondary_packet;
        if (ins.secondary_mismatch) walk.secondary_mismatches.push_back(ins.offset);
      }
      for (uint32_t target : ins.branches) {
        walk.labels.emplace(target, fmt::format("L{:x}", target));
        pending.push_back(target);
      }
      if (ins.has_continuation) {
        walk.labels.emplace(ins.continuation, fmt::format("L{:x}", ins.continuation));
        pending.push_back(ins.continuation);
      }
      const auto op = static_cast<Opcode>(ins.op);
      const uint32_t next = ins.offset + ins.size;
      walk.instructions.emplace(pc, std::move(ins));
      if (op == Opcode::kReturn || op == Opcode::kWinding || op == Opcode::kIfMask ||
          op == Opcode::kChoose || op == Opcode::kSelect) {
        break;  // no fall-through: returns end, decisions continue at their continuation
      }
      pc = next;
    }
  }
  return walk;
}

std::string instruction_text(const Instruction& ins,
                             const std::map<uint32_t, std::string>& labels) {
  auto label = [&](uint32_t target) {
    auto it = labels.find(target);
    return it != labels.end() ? it->second : fmt::format("L{:x}", target);
  };
  std::string s = ins.info->name;
  switch (static_cast<Opcode>(ins.op)) {
    case Opcode::kFace:
      s += " " + packet_header_text(ins.packet) + " : " + packet_vertices_text(ins.packet);
      break;
    case Opcode::kFace2:
      // The length byte is written out only when it is not the seed's whole-packet length, so
      // the listing assembles to the same bytes.
      s += " " + packet_header_text(ins.packet);
      if (ins.secondary_length != expected_secondary_length(ins.packet.size, kSeedSecondaryLength))
        s += fmt::format(" length={}", ins.secondary_length);
      s += " : " + packet_vertices_text(ins.packet);
      break;
    case Opcode::kWinding:
      for (uint8_t v : ins.polygon) s += fmt::format(" {}", v);
      s += fmt::format(" front={} back={} continue={}", label(ins.branches[0]),
                       label(ins.branches[1]), label(ins.continuation));
      break;
    case Opcode::kIfMask:
      s += fmt::format(" 0x{:x} branch={} continue={}", ins.mask, label(ins.branches[0]),
                       label(ins.continuation));
      break;
    case Opcode::kChoose:
      s += fmt::format(" 0x{:x} set={} clear={} continue={}", ins.mask, label(ins.branches[0]),
                       label(ins.branches[1]), label(ins.continuation));
      break;
    case Opcode::kSelect: {
      s += fmt::format(" shift={} mask=0x{:x} cases=", ins.shift, ins.mask);
      for (size_t i = 0; i < ins.branches.size(); ++i) s += (i ? "," : "") + label(ins.branches[i]);
      if (ins.branches.empty()) s += "-";
      s += " continue=" + label(ins.continuation);
      break;
    }
    case Opcode::kAttached:
      s += fmt::format(" {}", ins.slot);
      break;
    case Opcode::kReturn:
      break;
  }
  return s;
}

std::string program_listing(const Archive& archive, const ModelRecord& record,
                            const ProgramWalk& walk) {
  const ModelHeader& h = record.header;
  std::string out =
      fmt::format("; {} record #{} \"{}\" ({}) at file offset 0x{:x}\n", archive.source(),
                  record.index, h.name, h.description, record.offset);
  out += fmt::format("; encoding {} ({}), program at 0x{:x}; offsets below are file offsets\n",
                     h.encoding, h.encoding == 0 ? "signed 16-bit" : "grid", h.sections[kProgram]);
  if (!h.has(kProgram)) return out + "; no face drawing program\n";
  for (const auto& [offset, ins] : walk.instructions) {
    if (auto it = walk.labels.find(offset); it != walk.labels.end()) out += it->second + ":\n";
    std::string bytes;
    for (uint32_t i = 0; i < ins.size && i < 12; ++i)
      bytes += fmt::format("{:02x}", archive.bytes()[offset + i]);
    if (ins.size > 12) bytes += "..";
    out += fmt::format("  {:<60} ; {:06x} {}\n", instruction_text(ins, walk.labels), offset, bytes);
    if (ins.secondary_mismatch) {
      out += fmt::format(
          "; note: the length byte {} is not this packet's whole length {}: the engine skips "
          "by the byte (to 0x{:x})\n",
          ins.secondary_length, ins.secondary_expected, ins.secondary_skip);
    }
  }
  return out;
}

}  // namespace shapevm::apache
