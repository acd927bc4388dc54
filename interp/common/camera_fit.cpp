#include "interp/common/camera_fit.h"

#include <algorithm>
#include <cstdlib>

namespace shapevm {
namespace {

// ceil(a / b) for a >= 0, b > 0.
int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// Coordinates are clamped so the products below stay far inside int64.
constexpr int64_t kLimit = int64_t{1} << 40;

int64_t clamp_coordinate(int64_t v) {
  return std::clamp(v, -kLimit, kLimit);
}

}  // namespace

int64_t fit_distance(std::span<const FitPoint> points, const FitProjection& p) {
  // A point at x, seen from distance d, is drawn focal * x / (d - toward) pixels from the centre.
  // It stays inside the fitted half width w = width/2 * 7/8 when
  //   d >= focal * |x| / w + toward = focal * |x| * 2 * 8 / (width * 7) + toward,
  // and likewise for y and the height; and it stays in front of the near plane when
  //   d >= near + toward.
  const int64_t focal = std::max<int64_t>(1, p.focal_pixels);
  const int64_t across_x = std::max<int64_t>(1, int64_t{p.width} * kFitNumerator);
  const int64_t across_y = std::max<int64_t>(1, int64_t{p.height} * kFitNumerator);
  int64_t distance = std::max<int64_t>(1, p.minimum);
  for (const FitPoint& point : points) {
    const int64_t x = std::abs(clamp_coordinate(point.x));
    const int64_t y = std::abs(clamp_coordinate(point.y));
    const int64_t toward = clamp_coordinate(point.toward);
    const int64_t need_x = ceil_div(focal * x * 2 * kFitDenominator, across_x) + toward;
    const int64_t need_y = ceil_div(focal * y * 2 * kFitDenominator, across_y) + toward;
    distance = std::max({distance, need_x, need_y, p.near + toward});
  }
  return distance;
}

}  // namespace shapevm
