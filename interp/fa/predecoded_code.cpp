#include "interp/fa/predecoded_code.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "core/byte_reader.h"
#include "interp/fa/assumptions.h"
#include "interp/fa/instruction.h"
#include "interp/fa/opcodes.h"

namespace shapevm::fa {

namespace {

// Reads one instruction's operands for the decoder. Each check mirrors the one the ordinary
// handler makes (interpreter.cpp); a failed check leaves the entry kLegacy so that the handler
// itself reports it.
struct Decoder {
  const uint8_t* code;
  uint32_t size;
  uint32_t off;
  DecodedOp& d;

  bool have(uint32_t n) const { return uint64_t{off} + n <= size; }
  bool inside(int64_t target) const { return target >= 0 && target < size; }
  uint16_t u16(uint32_t rel) const { return load_u16(code + off + rel); }
  int16_t i16(uint32_t rel) const { return load_i16(code + off + rel); }
  int32_t i32(uint32_t rel) const { return load_i32(code + off + rel); }

  bool set(FastOp kind, uint32_t span) {
    if (span > kMaxDecodedSpan) return false;
    d.kind = kind;
    d.span = static_cast<uint8_t>(span);
    return true;
  }

  // Both arms of a two-way instruction must lie inside CODE (the handler would fault otherwise).
  bool arms(int64_t first, int64_t second) {
    if (!inside(first) || !inside(second)) return false;
    d.set_target(static_cast<uint32_t>(first));
    d.set_next(static_cast<uint32_t>(second));
    return true;
  }

  bool jump(uint32_t size, int64_t displacement) {
    const int64_t target = int64_t{off} + size + displacement;
    if (!inside(target)) return false;
    d.set_target(static_cast<uint32_t>(target));
    d.set_next(off + size);
    return true;
  }

  // A conditional branch: taken goes to target, otherwise to the next instruction.
  bool conditional(uint32_t size, int64_t displacement) {
    if (!jump(size, displacement)) return false;
    return inside(d.next());
  }

  // Face (0xFC): the size depends on the flags and the corner count, which follows the optional
  // normal: the entry holds the count's place and the flags (a: count offset, b: content |
  // layout << 8) and spans up to the count; the corners are read as the face is drawn.
  bool face() {
    const FaceExtent face = face_extent({code, size}, off);
    if (face.size == 0) return false;
    d.set_next(off + face.size);
    d.a = static_cast<uint16_t>(face.count_at);
    d.b = static_cast<uint16_t>(code[off + 1] | code[off + 2] << 8);
    return set(FastOp::kFace, face.count_at + 1);
  }

  bool decode() {
    const uint8_t op = code[off];
    d.op = op;
    // Faces first: most of a shape's instructions, where the switch took a dozen instructions
    // to reach its case.
    if (op == 0xFC) [[likely]]
      return face();
    if (op & 1) return false;
    switch (op) {
      case 0x00:
        return set(FastOp::kEndObject, 1);
      case 0x1E:
        return set(FastOp::kShortEof, 1);
      case 0x38:  // ShortJump: rel16 at byte 1
        return have(3) && jump(3, i16(1)) && set(FastOp::kJump, 3);
      case 0x48:
        return have(4) && jump(4, i16(2)) && set(FastOp::kJump, 4);
      case 0x50:
        return have(6) && jump(6, i32(2)) && set(FastOp::kJump, 6);
      case 0x12:
        return have(4) && jump(4, i16(2)) && set(FastOp::kCall, 4);
      case 0x6E:
        return have(6) && jump(6, i32(2)) && set(FastOp::kCall, 6);
      case 0xC4:
      case 0xC6: {
        const uint32_t size = op == 0xC6 ? 18 : 16;
        if (!have(size) || !jump(size, op == 0xC6 ? i32(14) : i16(14))) return false;
        return set(FastOp::kXformCall, size);
      }
      case 0x40: {
        if (!have(4)) return false;
        const uint32_t n = u16(2);
        if (n == 0 || !have(4 + 2 * n)) return false;
        d.a = static_cast<uint16_t>(n);
        d.set_next(off + 4 + 2 * n);
        return set(FastOp::kFrame, 4);  // the table is read as the run reaches it
      }
      case 0xAC:
        return have(4) && conditional(4, i16(2)) && set(FastOp::kDamage, 4);
      case 0xA6:
        if (!have(6) || !conditional(6, i16(2))) return false;
        d.a = u16(4);
        return set(FastOp::kDetail, 6);
      case 0xC8:
        if (!have(8) || !conditional(8, i16(6))) return false;
        d.a = u16(2);
        d.b = u16(4);
        return set(FastOp::kLod, 8);
      case 0x6C: {
        Instruction insn;
        DecodeError error;
        if (!decode_instruction({code, size}, off, insn, error)) return false;
        if (!arms(int64_t{off} + 10 + i16(8), int64_t{off} + 8 + i16(6))) return false;
        d.a = u16(2);
        d.b = u16(4);
        return set(FastOp::kOrderField, insn.size);
      }
      case 0x06:
      case 0x0C:
      case 0x0E:
      case 0x10: {
        const uint32_t rel_at = op == 0x06 ? 16 : 12;
        if (!have(rel_at)) return false;
        const uint32_t total = rel_at + u16(rel_at - 2);
        if (!have(total) || total < rel_at + 2) return false;
        if (!arms(int64_t{off} + rel_at + 2 + i16(rel_at), int64_t{off} + total)) return false;
        return set(FastOp::kOrderPlane, rel_at + 2);
      }
      case 0x82: {
        if (!have(6)) return false;
        const uint32_t count = u16(2);
        const uint32_t push_at = u16(4);
        // A misaligned push_at warns on every run: the handler does that.
        if (!have(6 + 6 * count) || push_at % 8 != 0) return false;
        if (push_at / 8 + count > assumed::kPoolSlots) return false;
        d.a = static_cast<uint16_t>(count);
        d.b = static_cast<uint16_t>(push_at / 8);
        d.set_next(off + 6 + 6 * count);
        return set(FastOp::kVertexBuffer, 6);  // the vertices are read as they are written
      }
      case 0xF6:  // VertexInfo: byte-magic, 7 bytes
        if (!have(7)) return false;
        d.set_next(off + 7);
        return set(FastOp::kNext, 1);
      case 0xE0:
        if (!have(4)) return false;
        d.set_next(off + 4);
        return set(FastOp::kNext, 1);
      case 0xE2:  // TextureFile: its name is made into a string by the handler
      case 0xF0:  // X86Code: the sandbox
        return false;
      default:
        break;
    }
    // The opcodes the interpreter steps over (handler_for's kSkip).
    const OpcodeInfo* info = find_opcode(op);
    if (info == nullptr || info->rule == SizeRule::kUnknown) return false;
    Instruction insn;
    DecodeError error;
    if (!decode_instruction({code, size}, off, insn, error)) return false;
    d.set_next(off + insn.size);
    const bool fixed = info->rule == SizeRule::kFixed || info->rule == SizeRule::kHeader;
    return set(FastOp::kNext, fixed ? 1 : insn.size);
  }
};

// Whether every byte of an entry is zero, read as two 8-byte words (an entry has no padding: the
// static_assert beside DecodedOp). Field by field, the test took eleven instructions a first
// visit.
constexpr bool cleared(const DecodedOp& d) {
  const auto words = std::bit_cast<std::array<uint64_t, 2>>(d);
  return (words[0] | words[1]) == 0;
}
// prepare() clears entries by writing zero bytes: that must be what DecodedOp{} holds.
static_assert(cleared(DecodedOp{}));
static_assert(std::is_aggregate_v<DecodedOp> && std::is_trivially_copyable_v<DecodedOp>);

// Set when the thread's kept storages are destroyed: a table destroyed after that (a
// thread-local object of the caller's) frees its storage instead. Trivially destructible, so
// valid until the end.
thread_local bool t_spares_destroyed = false;
thread_local uint64_t t_storages_allocated = 0;

}  // namespace

unsigned PredecodedCode::size_class(size_t entries) {
  return static_cast<unsigned>(std::bit_width(entries - 1));  // entries >= 1
}

PredecodedCode::Storage* PredecodedCode::spare(unsigned k) {
  struct Spares {
    std::array<Storage, kMaxKeptClass + 1> by_class;
    ~Spares() { t_spares_destroyed = true; }
  };
  if (t_spares_destroyed || k > kMaxKeptClass) return nullptr;
  thread_local Spares held;
  return &held.by_class[k];
}

void PredecodedCode::keep(Storage&& storage) {
  // A storage allocated to size (above kMaxKeptClass) falls in a class spare() keeps none of.
  if (storage.ops == nullptr) return;
  Storage* slot = spare(size_class(storage.capacity));
  if (slot != nullptr && slot->ops == nullptr)
    *slot = std::move(storage);  // its written entries are reset as the next table takes it
}

uint64_t PredecodedCode::storages_allocated() {
  return t_storages_allocated;
}

void PredecodedCode::Storage::reset_written() {
  for (uint32_t i : written) ops[i] = DecodedOp{};
  written.clear();
}

PredecodedCode::~PredecodedCode() {
  keep(std::move(storage_));
}

void PredecodedCode::prepare(const uint8_t* code, uint32_t size) {
  if (code == code_ && size == size_ && storage_.ops != nullptr) return;
  if (!serves(size))
    throw std::length_error("PredecodedCode: CODE of " + std::to_string(size) +
                            " bytes is beyond the pre-decoded table's reach");
  const size_t entries = size_t{size} + 1;
  if (entries > storage_.capacity) {
    // The storage held (none, or one too small) gives way to one of this CODE's class.
    keep(std::exchange(storage_, Storage{}));
    const unsigned k = size_class(entries);
    Storage* left = spare(k);
    if (left != nullptr && left->ops != nullptr) {
      storage_ = std::exchange(*left, Storage{});
    } else {
      const size_t capacity = k <= kMaxKeptClass ? size_t{1} << k : entries;
      storage_.ops.reset(static_cast<DecodedOp*>(::operator new(capacity * sizeof(DecodedOp))));
      storage_.capacity = capacity;
      std::memset(static_cast<void*>(storage_.ops.get()), 0, capacity * sizeof(DecodedOp));
      ++t_storages_allocated;
    }
  }
  storage_.reset_written();
  code_ = code;
  size_ = size;
  storage_.ops[size_].kind = FastOp::kOffEnd;
  storage_.written.push_back(size_);
}

void PredecodedCode::clear() {
  code_ = nullptr;
  size_ = 0;
  storage_.reset_written();  // nothing is listed before the first prepare()
}

DecodedOp& PredecodedCode::decode(uint32_t off) {
  DecodedOp& d = storage_.ops[off];
  // An entry decoded before and invalidated since is listed already.
  if (cleared(d)) storage_.written.push_back(off);
  d = DecodedOp{};
  Decoder decoder{code_, size_, off, d};
  if (!decoder.decode()) {
    const uint8_t op = d.op;
    d = DecodedOp{};
    d.kind = FastOp::kLegacy;  // the handler re-reads CODE every time: nothing to invalidate
    d.op = op;
  }
  return d;
}

void PredecodedCode::invalidate(uint32_t offset, uint32_t size) {
  if (storage_.ops == nullptr || offset >= size_) return;
  const uint32_t begin = offset >= kMaxDecodedSpan ? offset - kMaxDecodedSpan + 1 : 0;
  const uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{offset} + size, size_));
  for (uint32_t i = begin; i < end; ++i) {
    DecodedOp& d = storage_.ops[i];
    if (d.kind != FastOp::kDecode && d.kind != FastOp::kLegacy && i + d.span > offset)
      d.kind = FastOp::kDecode;
  }
}

}  // namespace shapevm::fa
