// Huffman codes for deflate blocks (RFC 1951 3.2.2): code lengths limited to a maximum depth,
// and the canonical codes those lengths stand for. Templates over the alphabet's size, so each
// alphabet's arrays live on the stack (286 literal/length symbols, 30 distances, 19 code lengths).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace shapevm::raster::huffman {

// Huffman code lengths for `freq`, none longer than `max_bits`, which must leave room for a
// balanced code of every symbol (2^max_bits >= kSymbols; at most 15); an unused symbol gets 0. With
// two or more symbols used the code is complete; a lone symbol gets one bit. When the optimal code
// is too deep, the counts are halved (rounding up, so no used symbol drops out) and the code
// rebuilt: with every count 1 the code is balanced, at most 9 bits deep for 286 symbols.
template <std::size_t kSymbols>
std::array<uint8_t, kSymbols> code_lengths(std::array<uint32_t, kSymbols> freq, unsigned max_bits) {
  if (max_bits > 15 || (std::size_t{1} << max_bits) < kSymbols)
    throw std::invalid_argument("huffman::code_lengths: no balanced code fits in max_bits");
  std::array<uint8_t, kSymbols> lengths{};
  while (true) {
    // Leaves in ascending count (ties by symbol, so the result depends only on the counts),
    // then the internal nodes in the order the two-queue method makes them, their counts
    // ascending too.
    std::array<std::pair<uint32_t, uint16_t>, kSymbols> leaves;
    size_t used = 0;
    for (size_t s = 0; s < kSymbols; ++s)
      if (freq[s] != 0) leaves[used++] = {freq[s], static_cast<uint16_t>(s)};
    if (used < 2) {
      if (used == 1) lengths[leaves[0].second] = 1;
      return lengths;
    }
    std::sort(leaves.begin(), leaves.begin() + static_cast<std::ptrdiff_t>(used));
    std::array<uint64_t, 2 * kSymbols> weight{};
    std::array<uint16_t, 2 * kSymbols> parent{};
    for (size_t i = 0; i < used; ++i) weight[i] = leaves[i].first;
    size_t next_leaf = 0;
    size_t next_node = used;  // the oldest internal node not yet joined
    size_t made = used;
    auto take = [&] {
      if (next_leaf < used && (next_node == made || weight[next_leaf] <= weight[next_node]))
        return next_leaf++;
      return next_node++;
    };
    for (size_t joins = 0; joins + 1 < used; ++joins) {
      const size_t a = take();
      const size_t b = take();
      weight[made] = weight[a] + weight[b];
      parent[a] = parent[b] = static_cast<uint16_t>(made);
      ++made;
    }
    // A node's parent comes after it, so depths are filled from the root down.
    std::array<uint8_t, 2 * kSymbols> depth{};
    unsigned deepest = 0;
    for (size_t k = made - 1; k-- > 0;) {
      depth[k] = static_cast<uint8_t>(depth[parent[k]] + 1);
      if (k < used) deepest = std::max<unsigned>(deepest, depth[k]);
    }
    if (deepest <= max_bits) {
      for (size_t i = 0; i < used; ++i) lengths[leaves[i].second] = depth[i];
      return lengths;
    }
    for (auto& f : freq) f -= f / 2;
  }
}

// Canonical codes for `lengths` (RFC 1951 3.2.2), bit-reversed: a code goes out most
// significant bit first, and the writer sends least significant first.
template <std::size_t kSymbols>
std::array<uint16_t, kSymbols> canonical_codes(const std::array<uint8_t, kSymbols>& lengths) {
  std::array<uint16_t, 16> count{};
  for (uint8_t len : lengths) ++count[len];
  count[0] = 0;
  std::array<uint16_t, 16> next{};
  uint16_t code = 0;
  for (size_t bits = 1; bits < 16; ++bits) {
    code = static_cast<uint16_t>((code + count[bits - 1]) << 1);
    next[bits] = code;
  }
  std::array<uint16_t, kSymbols> codes{};
  for (size_t s = 0; s < kSymbols; ++s) {
    const unsigned len = lengths[s];
    if (len == 0) continue;
    const uint16_t c = next[len]++;
    uint16_t reversed = 0;
    for (unsigned b = 0; b < len; ++b)
      reversed = static_cast<uint16_t>(reversed | ((c >> b) & 1) << (len - 1 - b));
    codes[s] = reversed;
  }
  return codes;
}

// Makes sure at least two symbols are used, so that the code built is complete.
template <std::size_t kSymbols>
void use_two(std::array<uint32_t, kSymbols>& freq) {
  size_t used = static_cast<size_t>(
      std::count_if(freq.begin(), freq.end(), [](uint32_t f) { return f != 0; }));
  for (size_t s = 0; used < 2; ++s) {
    if (freq[s] == 0) {
      freq[s] = 1;
      ++used;
    }
  }
}

}  // namespace shapevm::raster::huffman
