#include "interp/fa/x86_guard_memo.h"

#include <cstring>
#include <set>

#include "core/byte_reader.h"

namespace shapevm::fa {

namespace {

// Reachable instructions a proof may visit before it gives up (guards are a few instructions,
// chains of them a few dozen).
constexpr size_t kMaxGuardInstructions = 256;

struct Step {
  uint32_t at;           // CODE offset
  bool after_exit_push;  // the previous instruction on this path pushed an exit-page address
  bool operator<(const Step& o) const {
    return at != o.at ? at < o.at : after_exit_push < o.after_exit_push;
  }
};

class Prover {
 public:
  explicit Prover(const GuardMemory& m) : m_(m) {}

  std::optional<GuardProof> prove(uint32_t payload) {
    std::vector<Step> work{{payload, false}};
    std::set<Step> seen;
    std::set<uint32_t> pushes;
    while (!work.empty()) {
      const Step s = work.back();
      work.pop_back();
      if (!seen.insert(s).second) continue;
      if (seen.size() > kMaxGuardInstructions) return std::nullopt;
      Decoded d;
      if (!decode(s.at, d)) return std::nullopt;
      proof_.ranges.emplace_back(s.at, s.at + d.size);
      const uint32_t next = s.at + d.size;
      switch (d.kind) {
        case Kind::kCompare:
          add_read(d.read);
          work.push_back({next, false});
          break;
        case Kind::kNop:
          work.push_back({next, false});
          break;
        case Kind::kPush:
          pushes.insert(s.at);
          work.push_back({next, in_exits(d.value)});
          break;
        case Kind::kBranch:
          if (!forward_inside(s.at, d.target)) return std::nullopt;
          work.push_back({static_cast<uint32_t>(d.target), false});
          work.push_back({next, false});
          break;
        case Kind::kJump:
          if (!forward_inside(s.at, d.target)) return std::nullopt;
          work.push_back({static_cast<uint32_t>(d.target), false});
          break;
        case Kind::kReturn:
          if (!s.after_exit_push) return std::nullopt;  // it could return anywhere
          break;
      }
    }
    proof_.pushes = static_cast<uint32_t>(pushes.size());
    return proof_;
  }

 private:
  enum class Kind : uint8_t { kCompare, kNop, kPush, kBranch, kJump, kReturn };
  struct Decoded {
    Kind kind = Kind::kNop;
    uint32_t size = 0;
    GuardProof::Read read;
    int64_t target = 0;  // kBranch, kJump: CODE offset
    uint32_t value = 0;  // kPush
  };

  bool have(uint32_t at, uint32_t n) const { return uint64_t{at} + n <= m_.code.size(); }
  uint8_t byte(uint32_t at) const { return m_.code[at]; }

  bool forward_inside(uint32_t at, int64_t target) const {
    return target > at && target < static_cast<int64_t>(m_.code.size());
  }
  bool in_exits(uint32_t address) const {
    return address >= m_.exits_base && address - m_.exits_base < m_.exits_size;
  }

  void add_read(const GuardProof::Read& r) {
    for (const auto& known : proof_.reads)
      if (known.address == r.address && known.width == r.width) return;
    proof_.reads.push_back(r);
  }

  // `op [disp32], imm` with ModRM `modrm` (mod 00, r/m 101): the address must be a global's.
  bool memory_immediate(uint32_t at, uint32_t prefix, uint8_t modrm, uint8_t width,
                        uint32_t imm_size, Decoded& d) const {
    const uint32_t size = prefix + 2 + 4 + imm_size;
    if (!have(at, size) || byte(at + prefix + 1) != modrm) return false;
    const uint32_t address = load_u32(m_.code.data() + at + prefix + 2);
    if (address < m_.globals_base ||
        uint64_t{address} + width > uint64_t{m_.globals_base} + m_.globals_size)
      return false;
    d.kind = Kind::kCompare;
    d.size = size;
    d.read = {address, width};
    return true;
  }

  bool decode(uint32_t at, Decoded& d) const {
    if (!have(at, 1)) return false;
    const bool word = byte(at) == 0x66;
    const uint32_t p = word ? 1 : 0;
    if (!have(at, p + 1)) return false;
    const uint8_t op = byte(at + p);
    const uint8_t wide = word ? 2 : 4;
    if (word && op != 0x81 && op != 0x83 && op != 0xF7) return false;
    switch (op) {
      case 0x80:  // cmp byte [m], imm8
        return memory_immediate(at, p, 0x3D, 1, 1, d);
      case 0x83:  // cmp word/dword [m], imm8 (sign-extended)
        return memory_immediate(at, p, 0x3D, wide, 1, d);
      case 0x81:  // cmp word/dword [m], imm16/imm32
        return memory_immediate(at, p, 0x3D, wide, wide, d);
      case 0xF6:  // test byte [m], imm8
        return memory_immediate(at, p, 0x05, 1, 1, d);
      case 0xF7:  // test word/dword [m], imm16/imm32
        return memory_immediate(at, p, 0x05, wide, wide, d);
      case 0x90:
        d.kind = Kind::kNop;
        d.size = 1;
        return true;
      case 0x68:
        if (!have(at, 5)) return false;
        d.kind = Kind::kPush;
        d.size = 5;
        d.value = load_u32(m_.code.data() + at + 1);
        return true;
      case 0x6A:
        if (!have(at, 2)) return false;
        d.kind = Kind::kPush;
        d.size = 2;
        d.value = static_cast<uint32_t>(static_cast<int8_t>(byte(at + 1)));
        return true;
      case 0xC3:
        d.kind = Kind::kReturn;
        d.size = 1;
        return true;
      case 0xEB:
        if (!have(at, 2)) return false;
        d.kind = Kind::kJump;
        d.size = 2;
        d.target = int64_t{at} + 2 + static_cast<int8_t>(byte(at + 1));
        return true;
      case 0xE9:
        if (!have(at, 5)) return false;
        d.kind = Kind::kJump;
        d.size = 5;
        d.target = int64_t{at} + 5 + load_i32(m_.code.data() + at + 1);
        return true;
      case 0x0F:
        if (!have(at, 6) || (byte(at + 1) & 0xF0) != 0x80) return false;
        d.kind = Kind::kBranch;
        d.size = 6;
        d.target = int64_t{at} + 6 + load_i32(m_.code.data() + at + 2);
        return true;
      default:
        if (op >= 0x70 && op <= 0x7F && have(at, 2)) {
          d.kind = Kind::kBranch;
          d.size = 2;
          d.target = int64_t{at} + 2 + static_cast<int8_t>(byte(at + 1));
          return true;
        }
        return false;
    }
  }

  const GuardMemory& m_;
  GuardProof proof_;
};

}  // namespace

std::optional<GuardProof> prove_pure_guard(const GuardMemory& memory, uint32_t payload) {
  return Prover(memory).prove(payload);
}

GuardMemo::Entry& GuardMemo::entry(uint32_t f0, const GuardMemory& memory) {
  auto& [recent_f0, recent] = recent_[(f0 >> 1) % recent_.size()];
  if (recent != nullptr && recent_f0 == f0 && recent->analysed) return *recent;
  Entry& e = blocks_[f0];
  recent_f0 = f0;
  recent = &e;
  if (!e.analysed) {
    e.proof = prove_pure_guard(memory, f0 + 2);
    if (e.proof) {
      size_t key_bytes = 0;
      for (const auto& r : e.proof->reads) key_bytes += r.width;
      if (key_bytes > kMaxKeyBytes) e.proof.reset();
    }
    e.analysed = true;
  }
  return e;
}

GuardMemo::Entry::Key GuardMemo::key(const GuardProof& proof, std::span<const uint8_t> globals,
                                     uint32_t globals_base) {
  // The reads' bytes in proof order; entry() refused proofs whose reads do not fit.
  Entry::Key k;
  for (const auto& r : proof.reads) {
    const uint8_t* from = globals.data() + (r.address - globals_base);
    uint8_t* to = reinterpret_cast<uint8_t*>(k.words.data()) + k.size;
    // The three widths a compare reads, each a copy of known size (no library call).
    switch (r.width) {
      case 1:
        *to = *from;
        break;
      case 2:
        std::memcpy(to, from, 2);
        break;
      case 4:
        std::memcpy(to, from, 4);
        break;
      default:
        std::memcpy(to, from, r.width);
        break;
    }
    k.size = static_cast<uint8_t>(k.size + r.width);
  }
  return k;
}

const GuardMemo::Outcome* GuardMemo::find(const Entry& entry, std::span<const uint8_t> globals,
                                          uint32_t globals_base) {
  if (!entry.proof) return nullptr;
  const Entry::Key k = key(*entry.proof, globals, globals_base);
  for (const auto& [known, outcome] : entry.outcomes)
    if (known == k) {
      ++hits_;
      return &outcome;
    }
  ++misses_;
  return nullptr;
}

void GuardMemo::record(Entry& entry, std::span<const uint8_t> globals, uint32_t globals_base,
                       Outcome outcome) {
  if (!entry.proof) return;
  auto& outcomes = entry.outcomes;
  if (outcomes.size() >= kMaxOutcomes) outcomes.erase(outcomes.begin());
  outcomes.emplace_back(key(*entry.proof, globals, globals_base), std::move(outcome));
}

void GuardMemo::invalidate(uint32_t offset, uint32_t size) {
  const uint64_t end = uint64_t{offset} + size;
  for (auto& [f0, block] : blocks_) {
    // A block without a proof is never memoised, whatever its bytes become.
    if (!block.proof) continue;
    bool hit = false;
    for (const auto& [b, e] : block.proof->ranges) hit = hit || (offset < e && end > b);
    if (hit) block = Entry{};
  }
}

}  // namespace shapevm::fa
