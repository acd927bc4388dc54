// Random bytes for the round trips of the packers and decoders: the same size and seed give the
// same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace shapevm::testing {

inline std::vector<uint8_t> random_bytes(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out(size);
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

}  // namespace shapevm::testing
