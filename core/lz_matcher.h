// A greedy LZ77 match finder for the packers of formats that copy from earlier output (RefPack,
// TPWM): used to build streams shaped like the games' own, for benchmarks and tests.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace shapevm::core {

class LzMatcher {
 public:
  struct Match {
    size_t length = 0;  // 0: none
    size_t distance = 0;
  };

  // Matches of at most `max_length` bytes from at most `max_distance` back.
  LzMatcher(std::span<const uint8_t> data, size_t max_distance, size_t max_length)
      : data_(data),
        max_distance_(max_distance),
        max_length_(max_length),
        head_(size_t{1} << kHashBits, kNone),
        previous_(data.size(), kNone) {}

  // The longest earlier match for the bytes at `at` among the last kChainDepth positions that
  // share their first three bytes, of at least shortest(distance) bytes (a format's shortest copy
  // may depend on how far back it reaches).
  template <typename Shortest>
  Match longest(size_t at, Shortest&& shortest) const {
    Match best;
    if (at + 3 > data_.size()) return best;
    uint32_t candidate = head_[hash3(at)];
    const size_t limit = std::min(max_length_, data_.size() - at);
    for (size_t depth = 0; depth < kChainDepth && candidate != kNone; ++depth) {
      const size_t distance = at - candidate;
      if (distance > max_distance_) break;
      size_t length = 0;
      while (length < limit && data_[candidate + length] == data_[at + length]) ++length;
      if (length >= shortest(distance) && length > best.length) best = {length, distance};
      candidate = previous_[candidate];
    }
    return best;
  }

  // Makes the position at `at` a candidate for later matches (every position passed, in order).
  void remember(size_t at) {
    if (at + 3 > data_.size()) return;
    uint32_t& h = head_[hash3(at)];
    previous_[at] = h;
    h = static_cast<uint32_t>(at);
  }

 private:
  static constexpr size_t kHashBits = 15;
  static constexpr size_t kChainDepth = 16;
  static constexpr uint32_t kNone = UINT32_MAX;

  uint32_t hash3(size_t at) const {
    const uint32_t v =
        uint32_t{data_[at]} | uint32_t{data_[at + 1]} << 8 | uint32_t{data_[at + 2]} << 16;
    return (v * 2654435761u) >> (32 - kHashBits);
  }

  std::span<const uint8_t> data_;
  size_t max_distance_;
  size_t max_length_;
  std::vector<uint32_t> head_;      // the last position of each hash
  std::vector<uint32_t> previous_;  // the position before it with the same hash
};

}  // namespace shapevm::core
