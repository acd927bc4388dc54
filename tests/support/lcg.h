// A small deterministic generator for randomised tests: the same seed gives the same cases, so a
// failure names one (its seed and index) that can be run again.
#pragma once

#include <cstdint>

namespace shapevm::testing {

struct Lcg {
  uint64_t state;
  uint32_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  }
  // In [lo, hi].
  int32_t between(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(next() % static_cast<uint32_t>(hi - lo + 1));
  }
};

}  // namespace shapevm::testing
