// The fitted camera distance (interp/common/camera_fit.h) against its definition: for each point
// and axis the nearest distance that keeps it inside 7/8 of the half frame, ceil(focal * |x| * 16 /
// (width * 7)) + toward, and near + toward in front of the near plane; the largest of them all.
// fit_distance finds the same largest value dividing once per axis instead of once per point.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "interp/common/camera_fit.h"

namespace common_camera_fit_tests {

namespace {

using shapevm::FitPoint;
using shapevm::FitProjection;

__extension__ using Wide = __int128;

Wide ceil_div_positive(Wide a, Wide b) {
  return (a + b - 1) / b;
}

// The definition point by point, in 128 bits, for coordinates within 2^40.
int64_t fit_by_definition(const std::vector<FitPoint>& points, const FitProjection& p) {
  const Wide across_x = int64_t{p.width} * shapevm::kFitNumerator;
  const Wide across_y = int64_t{p.height} * shapevm::kFitNumerator;
  const Wide scale = Wide{p.focal_pixels} * 2 * shapevm::kFitDenominator;
  Wide distance = std::max<int64_t>(1, p.minimum);
  for (const FitPoint& point : points) {
    distance =
        std::max({distance, ceil_div_positive(scale * std::abs(point.x), across_x) + point.toward,
                  ceil_div_positive(scale * std::abs(point.y), across_y) + point.toward,
                  Wide{p.near} + point.toward});
  }
  return static_cast<int64_t>(std::min<Wide>(distance, INT64_MAX));
}

}  // namespace

TEST_CASE("fit_distance: the largest per-point distance, for points on both sides of the target") {
  std::mt19937_64 random(17);
  for (int trial = 0; trial < 2000; ++trial) {
    FitProjection p;
    // Every third projection has a focal length or a frame too large for 64-bit products, which
    // fit_distance computes in 128 bits.
    const bool huge = trial % 3 == 0;
    p.width = 1 + static_cast<int>(random() % (huge && trial % 2 == 0 ? 1u << 30 : 2048));
    p.height = 1 + static_cast<int>(random() % 2048);
    p.focal_pixels = 1 + static_cast<int64_t>(random() % (huge ? int64_t{1} << 40 : 4096));
    p.near = static_cast<int64_t>(random() % 64);
    p.minimum = static_cast<int64_t>(random() % 3 == 0 ? random() % 100000 : 1);
    // Small models, where the remainders matter, and large ones; toward may be negative (a
    // point beyond the target), which makes the numerators of the once-per-axis form negative.
    const int64_t span = trial % 2 == 0 ? 50 : int64_t{1} << 40;
    std::vector<FitPoint> points(static_cast<size_t>(random() % 12));
    for (auto& point : points) {
      point.x = static_cast<int64_t>(random() % static_cast<uint64_t>(2 * span + 1)) - span;
      point.y = static_cast<int64_t>(random() % static_cast<uint64_t>(2 * span + 1)) - span;
      point.toward = static_cast<int64_t>(random() % static_cast<uint64_t>(2 * span + 1)) - span;
    }
    INFO("trial ", trial);
    CHECK(shapevm::fit_distance(points, p) == fit_by_definition(points, p));
  }
}

TEST_CASE("fit_distance: exact ceilings, and the minimum for no points") {
  FitProjection p;  // 640x480, focal 480, near 1
  // x = 100: 480 * 100 * 16 / (640 * 7) = 171.43 -> 172, plus toward 5.
  CHECK(shapevm::fit_distance(std::vector<FitPoint>{{100, 0, 5}}, p) == 177);
  // x = 56: 480 * 56 * 16 / 4480 = 96 exactly: no rounding up. Toward -10 puts it beyond the
  // target.
  CHECK(shapevm::fit_distance(std::vector<FitPoint>{{56, 0, -10}}, p) == 86);
  // A point wholly behind the target and on the axis needs nothing but the minimum.
  CHECK(shapevm::fit_distance(std::vector<FitPoint>{{0, 0, -1000}}, p) == 1);
  p.minimum = 40;
  CHECK(shapevm::fit_distance(std::vector<FitPoint>{}, p) == 40);
}

}  // namespace common_camera_fit_tests
