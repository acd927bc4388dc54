// The default (fitted) camera distance of an Apache record whose header box spans the whole
// 32-bit range: the box's half extents reach 2^31 and their products overflow 64 bits if formed
// naively. The distance is computed in bounded integer arithmetic (interp/common/camera_fit), so
// it is exact, the same on every run, and UBSan finds nothing to report.
#include <doctest/doctest.h>

#include <climits>
#include <string>

#include "core/trig_q15.h"
#include "interp/common/camera_fit.h"
#include "tests/apache/apache_fixture.h"

namespace apache_camera_bounds_tests {

using namespace shapevm;

namespace {

// One record whose header box is the largest a header can hold, with and without the shadow flag
// (properties bit 0), whose shadow corners are framed too.
std::string extreme_box(int properties) {
  return "model 0 huge \"a box as wide as 32 bits\"\n"
         "  encoding short\n"
         "  properties " +
         std::to_string(properties) +
         "\n"
         "  vertex 0 0 0\n"
         "  vertex 1 0 0\n"
         "  vertex 0 1 0\n"
         "  bounds -2147483648 2147483647 -2147483648 2147483647 -2147483648 2147483647\n"
         "program\n"
         "  ret\n"
         "end\n";
}

}  // namespace

TEST_CASE("Apache: the fitted camera distance of a box spanning 2^32 is exact and deterministic") {
  testing::ApacheFixture f(extreme_box(0));
  const apache::ModelRecord& rec = *f.archive.record(0);
  REQUIRE(rec.header.bounds ==
          std::array<int32_t, 6>{INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX});
  apache::Interpreter interp(f.archive, f.tables, nullptr);
  apache::RunState s;
  s.camera = {0, 0, 0};  // fitted, looking along +z with no pitch: view axes = model axes
  s.shadows = false;
  const int64_t distance = interp.camera_distance(rec, s);

  // Worked by hand. The box's centre is (0, 0, 0) ((-2^31 + 2^31 - 1) / 2 rounds to 0). With
  // heading and pitch 0 the camera's right axis is (c, 0, 0), forward (0, 0, F) and up
  // (0, U, 0) in Q15, c = cos 0, F = c*c >> 15, U = F*c >> 15. The farthest corner each way is at
  // -2^31 on every axis: it lies 2^31 * c >> 15 = 65536 c to the side, 65536 U up and, being
  // behind the centre, 65536 F toward the camera. It must project inside 7/8 of the half frame:
  //   d >= ceil(focal * 65536 c * 2 * 8 / (640 * 7)) + 65536 F   (and the same for the height).
  const int64_t c = cos_q15(0);
  const int64_t forward = (c * c) >> 15;
  const int64_t up = (forward * c) >> 15;
  const int64_t toward = 65536 * forward;
  const int64_t focal = s.focal_pixels;
  auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t need_x =
      ceil_div(focal * 65536 * c * 16, int64_t{s.width} * kFitNumerator) + toward;
  const int64_t need_y =
      ceil_div(focal * 65536 * up * 16, int64_t{s.height} * kFitNumerator) + toward;
  CHECK(distance == std::max(need_x, need_y));
  CHECK(distance > INT32_MAX);  // farther than any 32-bit coordinate: the box is that big
  CHECK(interp.camera_distance(rec, s) == distance);

  // The engine's default view (heading and pitch from the assumptions) gives one answer too.
  apache::RunState defaults;
  defaults.shadows = false;
  const int64_t first = interp.camera_distance(rec, defaults);
  CHECK(first > 0);
  CHECK(interp.camera_distance(rec, defaults) == first);
}

TEST_CASE("Apache: the fitted camera with the shadow of a 2^32 box on an extreme ground plane") {
  // Shadows on: the corners projected along a low sun onto a ground plane at the far end of the
  // range are framed as well, the largest products this path forms.
  testing::ApacheFixture f(extreme_box(1));
  const apache::ModelRecord& rec = *f.archive.record(0);
  REQUIRE(rec.header.casts_shadow());
  apache::Interpreter interp(f.archive, f.tables, nullptr);
  apache::RunState s;
  s.shadows = true;
  s.light = {INT32_MAX, 1, INT32_MIN};  // the sun barely above the horizon
  apache::RunState unshadowed = s;
  unshadowed.shadows = false;
  const int64_t box_only = interp.camera_distance(rec, unshadowed);
  for (const int32_t ground : {INT32_MIN, INT32_MAX}) {
    CAPTURE(ground);
    s.ground = ground;
    const int64_t d = interp.camera_distance(rec, s);
    CHECK(d >= box_only);  // the shadow adds points to frame, never removes the box's
    CHECK(interp.camera_distance(rec, s) == d);
  }
}

}  // namespace apache_camera_bounds_tests
