// Decoding one FA instruction: its size by the opcode table's rule, and the offsets it links to.
// Link positions follow seed 000 and facts/fa-operand-positions.md; each is relative to the
// instruction's own CODE offset `off`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interp/fa/opcodes.h"

namespace shapevm::fa {

enum class LinkRole : uint8_t {
  kJump,      // unconditional: 0x48, 0x38, 0x50
  kCall,      // called chain that returns at its ShortEOF: 0x12, 0x6E, selectors, 0xC4/0xC6
  kContinue,  // 0x6C: where the selector continues after the call
  kBranch,    // conditional branch taken: 0xAC, 0xA6, 0xC8
  kFrame,     // 0x40: one frame-table slot's target
  kThen,      // the jump embedded at the end of 0x6C and (when present) the plane selectors
  kObjEnd,    // 0xF2: the EndObject offset, under the chosen reading (see walker.h)
};

struct Link {
  LinkRole role;
  int64_t target;         // CODE offset (may be out of range in malformed input)
  uint32_t field_offset;  // CODE offset of the operand field holding the displacement
};

// The embedded jump at the end of 0x6C (always) and of the plane selectors (when the bytes after
// the call displacement are exactly one jump instruction).
struct EmbeddedJump {
  uint8_t op;       // 0x38, 0x48 or 0x50
  uint32_t offset;  // CODE offset of the embedded jump's opcode byte
  uint32_t size;    // 3, 4 or 6
};

// decode_instruction resets each of these fields in place rather than assigning a fresh
// Instruction (a walk decodes into every item once): a field added here is reset there too.
struct Instruction {
  uint32_t offset = 0;
  uint32_t size = 0;
  uint8_t op = 0;
  const OpcodeInfo* info = nullptr;
  std::vector<Link> links;
  std::optional<EmbeddedJump> embedded_jump;
};

struct DecodeError {
  uint32_t offset;
  std::string expected;
};

// Decodes the instruction at `off`. Only handles opcodes with a static size (not 0x00/0x01, whose
// extent is decided by the walker, and not kUnknown ones). On failure returns nullopt and fills
// `error` with what a well-formed stream has there. (Returns bool rather than std::optional:
// GCC 12 reports a false maybe-uninitialized on optional<Instruction> at -O2.)
bool decode_instruction(std::span<const uint8_t> code, uint32_t off, Instruction& insn,
                        DecodeError& error);

// How PtrToObjEnd's operand is read. The seed: an absolute CODE offset. OpenFA and T.O.R.E.,
// tested on real files: relative to the end of the 4-byte instruction. See docs/fa.md.
enum class ObjEndReading : uint8_t { kAbsolute, kRelative };
int64_t obj_end_target(std::span<const uint8_t> code, uint32_t f2_offset, ObjEndReading reading);

// A parsed Face (0xFC) instruction (seed 000, "Face (0xFC)").
struct FaceView {
  uint8_t content = 0;  // content flags: 0x40 normal, 0x04 texcoords, 0x02 fill background
  uint8_t layout = 0;   // layout flags: 0x04 u16 indices, 0x02 byte centre, 0x01 byte texcoords
  uint8_t color = 0;
  uint8_t is_shadow = 0;
  bool has_normal = false;
  std::array<int16_t, 3> normal{};  // float = i16 / 32765.0
  std::array<int16_t, 3> center{};
  std::vector<uint16_t> indices;
  bool has_texcoords = false;
  std::vector<std::array<uint16_t, 2>> texcoords;
};
inline constexpr uint8_t kFaceHaveNormal = 0x40;
inline constexpr uint8_t kFaceHaveTexcoords = 0x04;
inline constexpr uint8_t kFaceFillBackground = 0x02;
// The seed lists 0x20 as unknown with a guess ("brighter shading"); not applied (docs/fa.md).
inline constexpr uint8_t kFaceBrighterShading = 0x20;
inline constexpr uint8_t kLayoutShortIndices = 0x04;
inline constexpr uint8_t kLayoutByteCenter = 0x02;
inline constexpr uint8_t kLayoutByteTexcoords = 0x01;
inline constexpr double kFaceNormalScale = 1.0 / 32765.0;

// Where a Face's corner count sits, from the Face's first byte: after the opcode, content,
// layout, colour and is_shadow bytes and the optional normal and centre the flags announce.
constexpr uint32_t face_count_at(uint8_t content, uint8_t layout) {
  uint32_t at = 5;
  if (content & kFaceHaveNormal) at += 6 + ((layout & kLayoutByteCenter) ? 3 : 6);
  return at;
}

// Where a Face's corner count sits and the Face's size, from its flags and corner count,
// without reading past `code`: size 0 when its bytes run out (face_size says how). Inline, for
// the pre-decoder, which keeps the count's place too and decodes a face on its first visit.
struct FaceExtent {
  uint32_t count_at = 0;
  uint32_t size = 0;
};
inline FaceExtent face_extent(std::span<const uint8_t> code, uint32_t off) {
  const uint64_t room = off <= code.size() ? code.size() - off : 0;
  if (room < 5) [[unlikely]]
    return {};
  const uint8_t content = code[off + 1];
  const uint8_t layout = code[off + 2];
  const uint32_t count_at = face_count_at(content, layout);
  if (room <= count_at) [[unlikely]]
    return {count_at, 0};
  const uint32_t corners = code[off + count_at];
  uint64_t size = count_at + 1 + corners * ((layout & kLayoutShortIndices) ? 2u : 1u);
  if (content & kFaceHaveTexcoords) size += corners * ((layout & kLayoutByteTexcoords) ? 2u : 4u);
  if (room < size) [[unlikely]]
    return {count_at, 0};
  return {count_at, static_cast<uint32_t>(size)};
}
// The size decode_instruction finds for the instruction at `off`, without its links: 0 where
// decode_instruction fails, with the same `error`. A whole Face is sized here in line (most of a
// shape's instructions are faces: through the call and the opcode table's size rule, sizing one
// took about 65 instructions, in line 27); everything else by the size rule.
uint32_t instruction_size_by_rule(std::span<const uint8_t> code, uint32_t off, DecodeError& error);
inline uint32_t instruction_size(std::span<const uint8_t> code, uint32_t off, DecodeError& error) {
  if (off < code.size() && code[off] == 0xFC) [[likely]] {
    const uint32_t face = face_extent(code, off).size;
    if (face != 0) [[likely]]
      return face;
  }
  return instruction_size_by_rule(code, off, error);
}
// Size of a Face from its flags and corner count (without reading past `code`); 0 with `error`
// filled when the bytes run out (a Face is at least 6 bytes). A plain integer, not an optional:
// GCC returned the optional through memory, and reading it back stalled on the byte just written,
// which made this the costliest line of a walk.
uint32_t face_size(std::span<const uint8_t> code, uint32_t off, DecodeError& error);
// Parses a Face already known to be complete (decode_instruction succeeded).
FaceView parse_face(std::span<const uint8_t> code, uint32_t off);

// VertexBuffer (0x82): [82 00][count u16][push_at u16][count × (x, y, z) i16].
struct VertexBufferView {
  uint16_t count = 0;
  uint16_t push_at = 0;  // byte offset into the 8-byte-slot pool; slot index = push_at / 8
  uint32_t first_slot() const { return push_at / 8u; }
  bool aligned() const { return push_at % 8u == 0; }
};
VertexBufferView parse_vertex_buffer(std::span<const uint8_t> code, uint32_t off);
std::array<int16_t, 3> vertex_at(std::span<const uint8_t> code, uint32_t off, uint32_t index);

// TextureFile (0xE2): 14-byte NUL-padded name. SourceName (0x42): NUL-terminated string.
std::string texture_file_name(std::span<const uint8_t> code, uint32_t off);
std::string source_name(std::span<const uint8_t> code, uint32_t off);

}  // namespace shapevm::fa
