// What a fill's row decides once, from its first and last pixels: its attributes move by a
// constant step along the row, so each is at its smallest and largest at the two ends. Shared by
// the styled rows (polygon_fill.cpp) and the depth rows (depth_fill.cpp). Internal to raster/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "raster/fixed_point.h"

namespace shapevm::raster::span_ends {

// Rows shorter than this skip the decisions and take the general loop: for a row of a few pixels,
// deciding cost more than it saved (Starlancer's models, whose faces are small, drew 8% slower).
inline constexpr int64_t kShortestDecidedRow = 8;

// The smallest and largest of floor(first + k * step) over the row's pixels k = 0 .. last.
struct FloorRange {
  int64_t low;
  int64_t high;
};
inline FloorRange floor_range(int64_t first, int64_t step, int64_t last) {
  const int64_t at_first = fixed_floor64(first);
  const int64_t at_last = fixed_floor64(first + step * last);
  return {std::min(at_first, at_last), std::max(at_first, at_last)};
}

// The shade table row (256 entries from `rows`) every pixel uses when the shade's level, clamped
// to [0, last_level], is the same at both ends; null when it is not.
inline const uint8_t* one_shade_row(const uint8_t* rows, int64_t last_level, int64_t first,
                                    int64_t step, int64_t last) {
  const FloorRange level = floor_range(first, step, last);
  const int64_t low = std::clamp<int64_t>(level.low, 0, last_level);
  const int64_t high = std::clamp<int64_t>(level.high, 0, last_level);
  return low == high ? rows + low * 256 : nullptr;
}

// Calls write(direct, one_row) with each flag as a std::bool_constant, so the pixel loop is
// compiled for the decisions taken; a flag is only ever true where kMayDirect or kMayOneRow
// allows it (no loop is made for a decision the row's kind cannot take).
template <bool kMayDirect, bool kMayOneRow, typename Write>
void with_decisions(bool direct, bool one_row, Write&& write) {
  const auto with_row = [&](auto direct_flag) {
    if constexpr (kMayOneRow) {
      if (one_row) {
        write(direct_flag, std::true_type{});
        return;
      }
    }
    write(direct_flag, std::false_type{});
  };
  if constexpr (kMayDirect) {
    if (direct) {
      with_row(std::true_type{});
      return;
    }
  }
  with_row(std::false_type{});
}

}  // namespace shapevm::raster::span_ends
