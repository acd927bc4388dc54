#include "interp/fa/instruction.h"

#include <fmt/format.h>

#include "core/byte_reader.h"

namespace shapevm::fa {
namespace {

bool have(std::span<const uint8_t> code, uint64_t off, uint64_t count) {
  return off <= code.size() && count <= code.size() - off;
}

// Out of line and cold: the checks below run for every instruction of a walk, and their
// failure is rare, so only the comparison stays in the decoder's path.
[[gnu::cold, gnu::noinline]] bool report_short(std::span<const uint8_t> code, uint32_t off,
                                               uint64_t count, DecodeError& error,
                                               std::string_view what, std::string_view detail) {
  error = {off, fmt::format("expected {}{} ({} bytes) but only {} remain before the end of CODE",
                            what, detail, count, off <= code.size() ? code.size() - off : 0)};
  return false;
}

// `what` and `detail` are joined only when the check fails.
inline bool need(std::span<const uint8_t> code, uint32_t off, uint64_t count, DecodeError& error,
                 std::string_view what, std::string_view detail = "") {
  if (have(code, off, count)) [[likely]]
    return true;
  return report_short(code, off, count, error, what, detail);
}

int16_t s16(std::span<const uint8_t> code, uint64_t at) {
  return load_i16(code.data() + at);
}
uint16_t u16(std::span<const uint8_t> code, uint64_t at) {
  return load_u16(code.data() + at);
}
int32_t s32(std::span<const uint8_t> code, uint64_t at) {
  return load_i32(code.data() + at);
}

// The jump at `at` inside another instruction, if the bytes there are exactly one jump of
// `expected_size` bytes (0 = any size that fits).
std::optional<EmbeddedJump> embedded_jump_at(std::span<const uint8_t> code, uint32_t at,
                                             uint32_t available) {
  if (available == 0 || !have(code, at, 1)) return std::nullopt;
  switch (code[at]) {
    case 0x38:
      if (available == 3) return EmbeddedJump{0x38, at, 3};
      break;
    case 0x48:
      if (available == 4) return EmbeddedJump{0x48, at, 4};
      break;
    case 0x50:
      if (available == 6) return EmbeddedJump{0x50, at, 6};
      break;
    default:
      break;
  }
  return std::nullopt;
}

Link jump_link(std::span<const uint8_t> code, const EmbeddedJump& j, LinkRole role) {
  switch (j.op) {
    case 0x38:
      return {role, int64_t{j.offset} + 3 + s16(code, j.offset + 1), j.offset + 1};
    case 0x48:
      return {role, int64_t{j.offset} + 4 + s16(code, j.offset + 2), j.offset + 2};
    default:
      return {role, int64_t{j.offset} + 6 + s32(code, j.offset + 2), j.offset + 2};
  }
}

// face_size's checks spelled out, each with its own message: called only when a Face's bytes run
// out, so that face_size itself keeps no stack frame for the messages it never formats.
[[gnu::cold, gnu::noinline]] uint32_t checked_face_size(std::span<const uint8_t> code, uint32_t off,
                                                        DecodeError& error) {
  if (!need(code, off, 5, error, "Face opcode, content, layout, colour and is_shadow")) return 0;
  const uint8_t content = code[off + 1];
  const uint8_t layout = code[off + 2];
  uint64_t pos = uint64_t{off} + face_count_at(content, layout);
  if (!need(code, off, pos + 1 - off, error, "Face normal/centre and corner count")) return 0;
  const uint32_t corners = code[pos];
  pos += 1;
  pos += corners * ((layout & kLayoutShortIndices) ? 2u : 1u);
  if (content & kFaceHaveTexcoords) pos += corners * ((layout & kLayoutByteTexcoords) ? 2u : 4u);
  if (!have(code, off, pos - off)) {
    need(code, off, pos - off, error,
         fmt::format("Face with {} corners (content 0x{:02X}, layout 0x{:02X})", corners, content,
                     layout));
    return 0;
  }
  return static_cast<uint32_t>(pos - off);
}

// decode_instruction's failures, out of line and cold like report_short: the decoder no longer
// sets up their messages' arguments in its own frame, which every instruction of a walk enters.
[[gnu::cold, gnu::noinline]] bool report_unknown_opcode(uint32_t off, uint8_t op,
                                                        DecodeError& error) {
  error = {off, fmt::format("expected a known opcode, found 0x{:02X} (no FA opcode has this "
                            "value; the engine would dispatch vector_table entry 0x{:X})",
                            op, vector_table_entry_address(op))};
  return false;
}
[[gnu::cold, gnu::noinline]] bool report_unterminated_source_name(uint32_t off,
                                                                  DecodeError& error) {
  error = {off, "expected SourceName's NUL terminator before the end of CODE"};
  return false;
}
[[gnu::cold, gnu::noinline]] bool report_order_field_jump(uint32_t off, uint8_t found,
                                                          DecodeError& error) {
  error = {off + 10, fmt::format("expected OrderField's embedded jump opcode 38, 48 or 50 at "
                                 "byte 10, found {:02X}",
                                 found)};
  return false;
}
[[gnu::cold, gnu::noinline]] bool report_unknown_size(uint32_t off, const OpcodeInfo& info,
                                                      DecodeError& error) {
  error = {off, fmt::format("expected an opcode with a known size; 0x{:02X} is the engine-only "
                            "handler {} that no shipped shape uses, and its size is untraced",
                            info.op, info.handler)};
  return false;
}

}  // namespace

uint32_t face_size(std::span<const uint8_t> code, uint32_t off, DecodeError& error) {
  // The three checks of checked_face_size as comparisons only: this runs for every face a walk
  // decodes and every face the interpreter draws, and with the messages in line it saved six
  // registers and built a frame on each call (76 instructions a face; now about 30).
  const uint32_t size = face_extent(code, off).size;
  if (size == 0) [[unlikely]]
    return checked_face_size(code, off, error);
  return size;
}

FaceView parse_face(std::span<const uint8_t> code, uint32_t off) {
  FaceView f;
  f.content = code[off + 1];
  f.layout = code[off + 2];
  f.color = code[off + 3];
  f.is_shadow = code[off + 4];
  uint32_t pos = off + 5;
  f.has_normal = (f.content & kFaceHaveNormal) != 0;
  if (f.has_normal) {
    for (int i = 0; i < 3; ++i) f.normal[i] = s16(code, pos + 2 * i);
    pos += 6;
    if (f.layout & kLayoutByteCenter) {
      for (int i = 0; i < 3; ++i) f.center[i] = static_cast<int8_t>(code[pos + i]);
      pos += 3;
    } else {
      for (int i = 0; i < 3; ++i) f.center[i] = s16(code, pos + 2 * i);
      pos += 6;
    }
  }
  const uint32_t corners = code[pos++];
  const bool short_indices = (f.layout & kLayoutShortIndices) != 0;
  for (uint32_t i = 0; i < corners; ++i) {
    f.indices.push_back(short_indices ? u16(code, pos) : code[pos]);
    pos += short_indices ? 2 : 1;
  }
  f.has_texcoords = (f.content & kFaceHaveTexcoords) != 0;
  if (f.has_texcoords) {
    const bool byte_tc = (f.layout & kLayoutByteTexcoords) != 0;
    for (uint32_t i = 0; i < corners; ++i) {
      if (byte_tc) {
        f.texcoords.push_back({code[pos], code[pos + 1]});
        pos += 2;
      } else {
        f.texcoords.push_back({u16(code, pos), u16(code, pos + 2)});
        pos += 4;
      }
    }
  }
  return f;
}

VertexBufferView parse_vertex_buffer(std::span<const uint8_t> code, uint32_t off) {
  return {u16(code, off + 2), u16(code, off + 4)};
}

std::array<int16_t, 3> vertex_at(std::span<const uint8_t> code, uint32_t off, uint32_t index) {
  const uint64_t at = uint64_t{off} + 6 + uint64_t{index} * 6;
  return {s16(code, at), s16(code, at + 2), s16(code, at + 4)};
}

std::string texture_file_name(std::span<const uint8_t> code, uint32_t off) {
  std::string name;
  for (uint32_t i = 0; i < 14 && code[off + 2 + i] != 0; ++i)
    name.push_back(char(code[off + 2 + i]));
  return name;
}

std::string source_name(std::span<const uint8_t> code, uint32_t off) {
  std::string name;
  for (uint64_t i = off + 2; i < code.size() && code[i] != 0; ++i) name.push_back(char(code[i]));
  return name;
}

int64_t obj_end_target(std::span<const uint8_t> code, uint32_t f2_offset, ObjEndReading reading) {
  const uint16_t value = u16(code, f2_offset + 2);
  return reading == ObjEndReading::kAbsolute ? int64_t{value} : int64_t{f2_offset} + 4 + value;
}

namespace {

// The size of the instruction at `off` whose opcode `info` describes, by the opcode table's rule:
// decode_instruction's first half, which the walk's outline (walk_outline) takes alone.
// Inlined into both (GCC kept one call of it out of line): 0 with `error` filled when the bytes
// run out or the size is unknown.
[[gnu::always_inline]] inline uint32_t size_by_rule(std::span<const uint8_t> code, uint32_t off,
                                                    const OpcodeInfo& info, DecodeError& error) {
  const std::string_view mnemonic = info.mnemonic;
  uint32_t size = 0;
  switch (info.rule) {
    case SizeRule::kFixed:
    case SizeRule::kHeader:
      if (!need(code, off, info.fixed_size, error, mnemonic)) return 0;
      size = info.fixed_size;
      break;
    case SizeRule::kShortEof:
      size = 1;
      break;
    case SizeRule::kX86:
      if (!need(code, off, 2, error, "X86Code F0 00")) return 0;
      size = 2;
      break;
    case SizeRule::kPlane06:
      if (!need(code, off, 16, error, "OrderPlane plane data and size field")) return 0;
      size = 16 + u16(code, off + 14);
      if (!need(code, off, size, error, "OrderPlane (16 + u16@[14] bytes)")) return 0;
      break;
    case SizeRule::kPlaneShort:
      if (!need(code, off, 12, error, mnemonic, " plane data and size field")) return 0;
      size = 12 + u16(code, off + 10);
      if (!need(code, off, size, error, mnemonic, " (12 + u16@[10] bytes)")) return 0;
      break;
    case SizeRule::kFrameTable:
      if (!need(code, off, 4, error, "JumpToFrame frame count")) return 0;
      size = 4 + 2u * u16(code, off + 2);
      if (!need(code, off, size, error, "JumpToFrame table (4 + 2 * nframes bytes)")) return 0;
      break;
    case SizeRule::kSourceName: {
      if (!need(code, off, 3, error, "SourceName string")) return 0;
      uint64_t end = off + 2;
      while (end < code.size() && code[end] != 0) ++end;
      if (end >= code.size()) {
        report_unterminated_source_name(off, error);
        return 0;
      }
      size = static_cast<uint32_t>(end + 1 - off);
      break;
    }
    case SizeRule::kVertexBuffer:
      if (!need(code, off, 6, error, "VertexBuffer count and push_at")) return 0;
      size = 6 + 6u * u16(code, off + 2);
      if (!need(code, off, size, error, "VertexBuffer vertices (6 + 6 * count bytes)")) return 0;
      break;
    case SizeRule::kOrderField:
      if (!need(code, off, 11, error, "OrderField operands and embedded jump opcode")) return 0;
      switch (code[off + 10]) {
        case 0x38:
          size = 13;
          break;
        case 0x48:
          size = 14;
          break;
        case 0x50:
          size = 16;
          break;
        default:
          report_order_field_jump(off, code[off + 10], error);
          return 0;
      }
      if (!need(code, off, size, error, "OrderField with its embedded jump")) return 0;
      break;
    case SizeRule::kFace: {
      // In line: a shape's instructions are mostly faces, and the call cost about five
      // instructions a face of a walk. A face whose bytes run out is reported as face_size does.
      const uint32_t face = face_extent(code, off).size;
      return face != 0 ? face : checked_face_size(code, off, error);
    }
    case SizeRule::kToEnd:
      size = 1;
      break;
    case SizeRule::kUnknown:
      report_unknown_size(off, info, error);
      return 0;
  }
  return size;
}

}  // namespace

uint32_t instruction_size_by_rule(std::span<const uint8_t> code, uint32_t off, DecodeError& error) {
  if (!need(code, off, 1, error, "an opcode")) return 0;
  const OpcodeInfo* info = find_opcode(code[off]);
  if (info == nullptr) {
    report_unknown_opcode(off, code[off], error);
    return 0;
  }
  return size_by_rule(code, off, *info, error);
}

bool decode_instruction(std::span<const uint8_t> code, uint32_t off, Instruction& insn,
                        DecodeError& error) {
  if (!need(code, off, 1, error, "an opcode")) return false;
  const uint8_t op = code[off];
  const OpcodeInfo* info = find_opcode(op);
  if (info == nullptr) {
    return report_unknown_opcode(off, op, error);
  }
  // Every field reset in place (instruction.h lists them): assigning a fresh Instruction built
  // one on the stack and moved it in, for each of a walk's instructions.
  insn.links.clear();
  insn.embedded_jump.reset();
  insn.offset = off;
  insn.op = op;
  insn.info = info;
  insn.size = size_by_rule(code, off, *info, error);
  if (insn.size == 0) return false;

  // Links (facts/fa-operand-positions.md).
  switch (op) {
    case 0x48:
      insn.links.push_back({LinkRole::kJump, int64_t{off} + 4 + s16(code, off + 2), off + 2});
      break;
    case 0x38:
      insn.links.push_back({LinkRole::kJump, int64_t{off} + 3 + s16(code, off + 1), off + 1});
      break;
    case 0x50:
      insn.links.push_back({LinkRole::kJump, int64_t{off} + 6 + s32(code, off + 2), off + 2});
      break;
    case 0x12:
      insn.links.push_back({LinkRole::kCall, int64_t{off} + 4 + s16(code, off + 2), off + 2});
      break;
    case 0x6E:
      insn.links.push_back({LinkRole::kCall, int64_t{off} + 6 + s32(code, off + 2), off + 2});
      break;
    case 0xAC:
      insn.links.push_back({LinkRole::kBranch, int64_t{off} + 4 + s16(code, off + 2), off + 2});
      break;
    case 0xA6:
      insn.links.push_back({LinkRole::kBranch, int64_t{off} + 6 + s16(code, off + 2), off + 2});
      break;
    case 0xC8:
      insn.links.push_back({LinkRole::kBranch, int64_t{off} + 8 + s16(code, off + 6), off + 6});
      break;
    case 0xC4:
      insn.links.push_back({LinkRole::kCall, int64_t{off} + 16 + s16(code, off + 14), off + 14});
      break;
    case 0xC6:
      insn.links.push_back({LinkRole::kCall, int64_t{off} + 18 + s32(code, off + 14), off + 14});
      break;
    case 0x40: {
      const uint32_t n = u16(code, off + 2);
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t slot = off + 4 + 2 * k;
        insn.links.push_back({LinkRole::kFrame, int64_t{slot} + s16(code, slot), slot});
      }
      break;
    }
    case 0x6C: {
      insn.links.push_back({LinkRole::kCall, int64_t{off} + 10 + s16(code, off + 8), off + 8});
      insn.links.push_back({LinkRole::kContinue, int64_t{off} + 8 + s16(code, off + 6), off + 6});
      insn.embedded_jump = embedded_jump_at(code, off + 10, insn.size - 10);
      if (insn.embedded_jump)
        insn.links.push_back(jump_link(code, *insn.embedded_jump, LinkRole::kThen));
      break;
    }
    case 0x06:
    case 0x0C:
    case 0x0E:
    case 0x10: {
      // The size field counts the bytes after it: the call's rel16 and whatever follows.
      const uint32_t rel_at = op == 0x06 ? 16 : 12;
      if (insn.size >= rel_at + 2) {
        insn.links.push_back(
            {LinkRole::kCall, int64_t{off} + rel_at + 2 + s16(code, off + rel_at), off + rel_at});
        insn.embedded_jump = embedded_jump_at(code, off + rel_at + 2, insn.size - rel_at - 2);
        if (insn.embedded_jump)
          insn.links.push_back(jump_link(code, *insn.embedded_jump, LinkRole::kThen));
      }
      break;
    }
    default:
      break;
  }
  return true;
}

}  // namespace shapevm::fa
