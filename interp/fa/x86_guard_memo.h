// Memoised x86 guard blocks. Most embedded x86 in FA shapes is a selector: compare an engine
// global with a constant, branch, push a sub-stream's address and do_start_interp, return. For
// a block that provably does only that, the outcome depends on nothing but the values of the
// globals it compares, so the first run of each combination of values goes through Unicorn and
// later ones take the recorded outcome without entering it.
//
// The proof is a small static check over the block's bytes as the sandbox maps them (with the
// import rewrites), following every branch: each reachable instruction must be one of
//   cmp/test of a global's storage with an immediate (80, 81, 83 /7 and F6, F7 /0 with an
//   absolute address; 66 for the word forms), jcc and jmp forward inside CODE, push imm8/imm32,
//   nop, and ret right after a push of an exit-page address (so it leaves through an exit).
// No other memory is read, nothing but the stack is written, no loop is possible (every jump goes
// forward), and registers at block entry are the sandbox's fixed clean state. An outcome is
// recorded only when the block re-entered the bytecode through do_start_interp without any other
// host call. A store into the block's bytes (another block's self-modification, or the restore
// of CODE between runs) forgets its proof and outcomes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace shapevm::fa {

// The sandbox memory a proof may rely on: guest addresses and the live CODE bytes.
struct GuardMemory {
  uint32_t code_base = 0;
  std::span<const uint8_t> code;  // CODE as the guest sees it (with the import rewrites)
  uint32_t globals_base = 0, globals_size = 0;
  uint32_t exits_base = 0, exits_size = 0;
};

struct GuardProof {
  struct Read {
    uint32_t address = 0;  // a guest address inside the globals region
    uint8_t width = 0;     // 1, 2 or 4 bytes
  };
  std::vector<Read> reads;                            // the key, in first-visit order
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // CODE [begin, end) of the instructions
  uint32_t pushes = 0;                                // push instructions reachable
};

// The proof for the block whose x86 starts at CODE offset `payload`, or nullopt when any
// reachable instruction falls outside the list above.
std::optional<GuardProof> prove_pure_guard(const GuardMemory& memory, uint32_t payload);

class GuardMemo {
 public:
  struct Outcome {
    uint32_t resume = 0;         // CODE offset do_start_interp re-entered at
    std::vector<uint8_t> stack;  // the stack bytes the block left below its entry ESP
  };

  // The compared globals' bytes a memoised guard may read in all: a guard compares one or two
  // globals, so a longer key is refused (the block then always runs) rather than allocated.
  static constexpr size_t kMaxKeyBytes = 32;

  // One block's entry: its proof (made on first use; none: not a pure guard, or its reads are
  // longer than kMaxKeyBytes) and its recorded outcomes. An entry stays where it is for the
  // memo's life (invalidate() empties it, never removes it), so a run looks it up once.
  struct Entry {
    struct Key {
      // The bytes in words, those past `size` zero: compared word by word in place, where a
      // comparison of `size` bytes (or of a byte array) was a library call.
      std::array<uint64_t, kMaxKeyBytes / 8> words{};
      uint8_t size = 0;
      bool operator==(const Key& o) const {
        uint64_t differ = size ^ o.size;
        for (size_t i = 0; i < words.size(); ++i) differ |= words[i] ^ o.words[i];
        return differ == 0;
      }
    };
    bool analysed = false;
    std::optional<GuardProof> proof;
    std::vector<std::pair<Key, Outcome>> outcomes;
  };

  // The entry of the block at X86Code offset `f0`, analysed on first use.
  Entry& entry(uint32_t f0, const GuardMemory& memory);
  // The recorded outcome of `entry`'s guard for the globals' current values (`globals`: the
  // region's bytes), counted as a hit or a miss; nullptr without a proof.
  const Outcome* find(const Entry& entry, std::span<const uint8_t> globals, uint32_t globals_base);
  // Records an outcome for the globals' values (nothing when the entry has no proof, as after a
  // store into its bytes during the run).
  void record(Entry& entry, std::span<const uint8_t> globals, uint32_t globals_base,
              Outcome outcome);
  // CODE bytes [offset, offset + size) changed: forgets the blocks whose instructions they hit.
  void invalidate(uint32_t offset, uint32_t size);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  // Outcomes kept per block: guards compare one or two globals with a few values each.
  static constexpr size_t kMaxOutcomes = 32;
  static Entry::Key key(const GuardProof& proof, std::span<const uint8_t> globals,
                        uint32_t globals_base);
  std::unordered_map<uint32_t, Entry> blocks_;
  // The entries of blocks run lately, by f0: a direct-mapped cache in front of blocks_, whose
  // lookup (a division for the bucket) was a sixth of a memoised block's cost. Entries never
  // move, so the pointers stay valid; one emptied by invalidate() is analysed again.
  std::array<std::pair<uint32_t, Entry*>, 16> recent_{};
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace shapevm::fa
