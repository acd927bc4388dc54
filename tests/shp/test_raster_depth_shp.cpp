// Starlancer frames through the depth buffer (facts §6): a near face drawn first still wins over
// a farther one drawn after it, and blended faces do not hide what is behind them.
#include <doctest/doctest.h>

#include "harness/frame_renderer.h"
#include "interp/shp/colour_tables.h"
#include "interp/shp/draw_setup.h"
#include "tests/shp/draw_fixture.h"

namespace shp_raster_depth_shp_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

raster::Framebuffer render(const Model& m, std::vector<std::string> sets = {}) {
  raster::Framebuffer frame(160, 120, 0);
  harness::FrameRenderer renderer(frame, shp_frame_settings(120));
  DrawContext ctx(renderer);
  ctx.source = "test.shp";
  ctx.max_steps = 100000;
  draw_model(m, request({camera_front(600)}, std::move(sets)), ctx);
  return frame;
}

// Two parts: the first nearer the camera (z = 100) and small, the second farther (z = -100) and
// large, drawn after it.
Model near_then_far(uint32_t far_mode = 0) {
  Model m;
  Part near = part("near", v3(0, 0, 100));
  near.levels.push_back(front_triangle(0));
  Part far = part("far", v3(0, 0, -100));
  Level big = front_triangle(far_mode);
  for (auto& v : big.vertices)
    for (auto& c : v.position) c = F32::of(c.value() * 3);
  far.levels.push_back(big);
  m.parts = {near, far};
  return m;
}

}  // namespace

TEST_CASE("depth test: a near face drawn first still wins over a far one drawn later") {
  const raster::Framebuffer frame = render(near_then_far());
  const auto tables = colour_tables(raster::default_palette());
  // The middle of the screen shows the near triangle; its colour is lit untextured grey, the same
  // for both, so compare with a frame holding the near triangle alone.
  Model alone = near_then_far();
  alone.parts.pop_back();
  const raster::Framebuffer near_only = render(alone);
  CHECK(frame.at(80, 62) == near_only.at(80, 62));
  CHECK(frame.at(80, 62) != 0);
  // Where only the far one is, it is drawn.
  CHECK(near_only.at(80, 95) == 0);
  CHECK(frame.at(80, 95) != 0);
  CHECK(tables->untextured != 0);
}

TEST_CASE("depth test: an added face behind an opaque one is hidden; in front it blends") {
  // The far big triangle added (mode 2): where the near opaque one covers it nothing changes.
  Model m = near_then_far(2);
  Model alone = m;
  alone.parts.pop_back();
  const raster::Framebuffer both = render(m), near_only = render(alone);
  CHECK(both.at(80, 62) == near_only.at(80, 62));
  // Swap depths: the added face in front blends over the opaque one.
  m.parts[0].origin = v3(0, 0, -100);
  m.parts[1].origin = v3(0, 0, 100);
  alone.parts[0].origin = v3(0, 0, -100);
  const raster::Framebuffer front = render(m), opaque_only = render(alone);
  const auto tables = colour_tables(raster::default_palette());
  const uint8_t under = opaque_only.at(80, 62);
  REQUIRE(under != 0);
  CHECK(front.at(80, 62) != under);
  // Added over the opaque grey, the pixel is one of the add table's results for that grey.
  bool from_table = false;
  for (size_t source = 0; source < 256; ++source)
    from_table = from_table || tables->blend(Blend::kAdd)[source * 256 + under] == front.at(80, 62);
  CHECK(from_table);
}

}  // namespace shp_raster_depth_shp_tests
