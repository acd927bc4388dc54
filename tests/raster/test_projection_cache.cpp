// raster::ProjectionCache returns exactly what raster::project does, for positions that share a
// slot and differ in one coordinate only (the cache must compare the whole position), for points
// behind the near plane, and with each point's own texture coordinates and shade; a position
// first projected without its inv_w gets it when a later projection asks for it.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "raster/projection.h"
#include "raster/projection_cache.h"

namespace raster_projection_cache_tests {

using namespace shapevm::raster;

namespace {

bool same(const ScreenVertex& a, const ScreenVertex& b) {
  return a.x == b.x && a.y == b.y && a.u == b.u && a.v == b.v && a.shade == b.shade &&
         a.inv_w == b.inv_w;
}

// The cache projects `v` in front of the near plane, exactly as project() does.
void check_as_project(ProjectionCache& cache, const Projection& projection, const ViewVertex& v) {
  ScreenVertex expected, got;
  REQUIRE(project(projection, v, expected));
  REQUIRE(cache.project(v, got));
  CHECK(same(got, expected));
}

// A position differing from `base` only in coordinate `axis` (0 x, 1 y, 2 z) that lands in the
// same slot.
ViewVertex slot_twin(const ViewVertex& base, int axis) {
  const size_t slot = ProjectionCache::slot_of(base.x, base.y, base.z);
  ViewVertex twin = base;
  for (int32_t step = 1; step < 1'000'000; ++step) {
    int32_t& coordinate = axis == 0 ? twin.x : axis == 1 ? twin.y : twin.z;
    coordinate = (axis == 0 ? base.x : axis == 1 ? base.y : base.z) + step;
    if (ProjectionCache::slot_of(twin.x, twin.y, twin.z) == slot) return twin;
  }
  FAIL("no position shares the slot");
  return base;
}

}  // namespace

TEST_CASE("projection cache: positions sharing a slot, differing in one coordinate") {
  const Projection projection = make_projection(640, 480, 480, 256);
  ProjectionCache cache(projection);
  const ViewVertex base{120, -340, 2000, to_fixed(3), to_fixed(4), to_fixed(5)};
  for (int axis = 0; axis < 3; ++axis) {
    ViewVertex twin = slot_twin(base, axis);
    twin.u = to_fixed(7);
    twin.shade = to_fixed(9);
    CAPTURE(axis);
    // Alternating, so each projection finds the other one in the slot.
    for (int round = 0; round < 3; ++round) {
      for (const ViewVertex& v : {base, twin}) check_as_project(cache, projection, v);
    }
  }
}

TEST_CASE("projection cache: a point behind the near plane stays rejected, output untouched") {
  const Projection projection = make_projection(320, 240, 240, 256);
  ProjectionCache cache(projection);
  const ViewVertex behind{10, 10, 100};
  const ViewVertex in_front{10, 10, 1000};
  for (int round = 0; round < 2; ++round) {
    ScreenVertex out;
    out.x = 77;
    CHECK_FALSE(cache.project(behind, out));
    CHECK(out.x == 77);
    check_as_project(cache, projection, in_front);
  }
}

TEST_CASE("projection cache: a hit carries the point's own texture coordinates and shade") {
  const Projection projection = make_projection(320, 240, 240, 16);
  ProjectionCache cache(projection);
  std::vector<ViewVertex> points;
  for (int32_t i = 0; i < 8; ++i)
    points.push_back({0, 50 * i, 500, to_fixed(i), to_fixed(2 * i), to_fixed(3 * i)});
  for (int round = 0; round < 2; ++round) {
    for (ViewVertex p : points) {
      p.u += round;  // the same position with other attributes the second time
      check_as_project(cache, projection, p);
    }
  }
}

TEST_CASE("projection cache: a position projected without inv_w gets it when asked later") {
  const Projection projection = make_projection(640, 480, 480, 64);
  ProjectionCache cache(projection);
  std::vector<ViewVertex> points;
  for (int32_t i = 0; i < 6; ++i) points.push_back({-300 + 97 * i, 40 * i, 200 + 350 * i});
  points.push_back(slot_twin(points[2], 2));  // shares the slot of a point projected before it
  for (const ViewVertex& p : points) {
    ScreenVertex expected, position;
    REQUIRE(project(projection, p, expected));
    REQUIRE(cache.project_position(p, position));
    CHECK(position.x == expected.x);
    CHECK(position.y == expected.y);
  }
  // Every position is in the cache without its inv_w: asked now, each must get the projected
  // one, and again from the slot the first answer filled.
  for (int round = 0; round < 2; ++round)
    for (const ViewVertex& p : points) check_as_project(cache, projection, p);
  // A point behind the near plane is rejected either way.
  ScreenVertex out;
  CHECK_FALSE(cache.project_position({10, 10, 20}, out));
  CHECK_FALSE(cache.project({10, 10, 20}, out));
}

}  // namespace raster_projection_cache_tests
