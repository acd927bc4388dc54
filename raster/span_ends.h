// What a fill's row decides once, from its first and last pixels: its attributes move by a
// constant step along the row, so each is at its smallest and largest at the two ends. Shared by
// the styled rows (polygon_fill.cpp) and the depth rows (depth_fill.cpp). Internal to raster/.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "raster/fixed_point.h"

namespace shapevm::raster::span_ends {

// Rows shorter than this skip the decisions and take the general loop: for a row of a few pixels,
// deciding costs about what it saves. (Before a row could decide its shade inside the table,
// Starlancer's models, whose faces are small and whose shades change along a row, drew 8% slower
// with every row deciding; since, deciding from 4 pixels on saves under 1% of their instructions.)
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

// A pixel's shade level clamped to the table's rows [0, last_level], as the reference clamps it.
// Two comparisons rather than std::clamp: through its references GCC 12 kept the bounds in
// memory and stored the zero again on every pixel of a clamped row. As comparisons they are
// conditional moves, which took a full-screen shaded, textured fill 8% less time and Starlancer's
// models 2% less.
inline int64_t clamped_level(int64_t level, int64_t last_level) {
  const int64_t above_zero = level < 0 ? 0 : level;
  return above_zero > last_level ? last_level : above_zero;
}

// How a row's pixels find their shade table row (of 256 entries), each level clamped to
// [0, last_level] as the pixel-by-pixel reference does.
enum class ShadeRows : uint8_t {
  kClamped,  // the level leaves the table somewhere along the row: clamped pixel by pixel
  kInRange,  // the level stays inside the table at both ends, so everywhere: used as it is
  kOne,      // the clamped level is the same at both ends, so throughout: `row` serves every pixel
};
struct ShadeDecision {
  ShadeRows rows = ShadeRows::kClamped;
  const uint8_t* row = nullptr;  // with kOne
};
inline ShadeDecision decide_shade_rows(const uint8_t* rows, int64_t last_level, int64_t first,
                                       int64_t step, int64_t last) {
  const FloorRange level = floor_range(first, step, last);
  const int64_t low = clamped_level(level.low, last_level);
  const int64_t high = clamped_level(level.high, last_level);
  if (low == high) return {ShadeRows::kOne, rows + low * 256};
  if (low == level.low && high == level.high) return {ShadeRows::kInRange, nullptr};
  return {};
}

// One pixel's colour through the shade table, as the row's decision lets it be found: `one_row`
// for every pixel (kOne), the level of `shade` (16.16) used as it is (kInRange), or clamped to
// the table's rows (kClamped).
template <ShadeRows kRows>
[[gnu::always_inline]] inline uint8_t shaded_colour(const uint8_t* rows, const uint8_t* one_row,
                                                    int64_t last_level, int64_t shade,
                                                    uint8_t colour) {
  if constexpr (kRows == ShadeRows::kOne) {
    return one_row[colour];
  } else if constexpr (kRows == ShadeRows::kInRange) {
    return rows[static_cast<size_t>(fixed_floor64(shade) * 256 + colour)];
  } else {
    return rows[static_cast<size_t>(clamped_level(fixed_floor64(shade), last_level) * 256 +
                                    colour)];
  }
}

// Calls write(direct, shade) with `direct` as a std::bool_constant and `shade` as a
// std::integral_constant<ShadeRows, ...>, so the pixel loop is compiled for the decisions taken;
// only kClamped is passed unless kMayDecideShade, and `direct` is only ever true where kMayDirect
// allows it (no loop is made for a decision the row's kind cannot take).
template <bool kMayDirect, bool kMayDecideShade, typename Write>
void with_decisions(bool direct, ShadeRows shade, Write&& write) {
  const auto with_shade = [&](auto direct_flag) {
    if constexpr (kMayDecideShade) {
      if (shade == ShadeRows::kOne) {
        write(direct_flag, std::integral_constant<ShadeRows, ShadeRows::kOne>{});
        return;
      }
      if (shade == ShadeRows::kInRange) {
        write(direct_flag, std::integral_constant<ShadeRows, ShadeRows::kInRange>{});
        return;
      }
    }
    write(direct_flag, std::integral_constant<ShadeRows, ShadeRows::kClamped>{});
  };
  if constexpr (kMayDirect) {
    if (direct) {
      with_shade(std::true_type{});
      return;
    }
  }
  with_shade(std::false_type{});
}

}  // namespace shapevm::raster::span_ends
