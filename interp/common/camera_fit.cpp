#include "interp/common/camera_fit.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace shapevm {
namespace {

__extension__ using Wide = __int128;

// ceil(n / d) for d > 0 and any sign of n (C++ division truncates toward zero, which is the
// ceiling for a negative quotient already).
Wide ceil_div(Wide n, Wide d) {
  return n / d + (n % d > 0 ? 1 : 0);
}

// Coordinates are clamped so the products below stay far inside 128 bits.
constexpr int64_t kLimit = int64_t{1} << 40;

int64_t clamp_coordinate(int64_t v) {
  return std::clamp(v, -kLimit, kLimit);
}

// The largest numerator per axis, in T: int64_t where the products cannot leave it (nearly every
// fit), so the loop compiles to plain compares, and 128 bits otherwise.
template <typename T>
struct Extremes {
  T x = std::numeric_limits<int64_t>::min();
  T y = std::numeric_limits<int64_t>::min();
  int64_t toward = std::numeric_limits<int64_t>::min();
};

template <typename T>
Extremes<T> extremes(std::span<const FitPoint> points, T scale, T across_x, T across_y) {
  Extremes<T> most;
  for (const FitPoint& point : points) {
    const int64_t toward = clamp_coordinate(point.toward);
    most.x = std::max(most.x, scale * std::abs(clamp_coordinate(point.x)) + T{toward} * across_x);
    most.y = std::max(most.y, scale * std::abs(clamp_coordinate(point.y)) + T{toward} * across_y);
    most.toward = std::max(most.toward, toward);
  }
  return most;
}

}  // namespace

int64_t fit_distance(std::span<const FitPoint> points, const FitProjection& p) {
  // A point at x, seen from distance d, is drawn focal * x / (d - toward) pixels from the centre.
  // It stays inside the fitted half width w = width/2 * 7/8 when
  //   d >= focal * |x| / w + toward = focal * |x| * 2 * 8 / (width * 7) + toward,
  // and likewise for y and the height; and it stays in front of the near plane when
  //   d >= near + toward.
  // The distance is the largest of ceil(a_i / b) + toward_i over the points. That equals
  // ceil((a_i + toward_i * b) / b), and the ceiling grows with its numerator, so the largest
  // numerator is found first and divided once per axis.
  const Wide focal = std::max<int64_t>(1, p.focal_pixels);
  const Wide across_x = std::max<int64_t>(1, int64_t{p.width} * kFitNumerator);
  const Wide across_y = std::max<int64_t>(1, int64_t{p.height} * kFitNumerator);
  const Wide scale = focal * 2 * kFitDenominator;
  // With no points the extremes stay at their lowest and the minimum is the answer.
  Wide distance = std::max<int64_t>(1, p.minimum);
  // |scale * x| + |toward * across| < 2^62 when each factor beside a 2^40 coordinate is below 2^21.
  constexpr Wide kNarrow = Wide{1} << 21;
  Extremes<Wide> most;
  if (scale < kNarrow && across_x < kNarrow && across_y < kNarrow) {
    const auto narrow =
        extremes<int64_t>(points, static_cast<int64_t>(scale), static_cast<int64_t>(across_x),
                          static_cast<int64_t>(across_y));
    most = {narrow.x, narrow.y, narrow.toward};
  } else {
    most = extremes<Wide>(points, scale, across_x, across_y);
  }
  distance = std::max({distance, ceil_div(most.x, across_x), ceil_div(most.y, across_y),
                       Wide{p.near} + most.toward});
  return static_cast<int64_t>(std::min<Wide>(distance, std::numeric_limits<int64_t>::max()));
}

}  // namespace shapevm
