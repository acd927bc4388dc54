// The Starlancer golden frames live in tests/golden/manifest.json (checked through the
// regression runner with every engine's). Here: the states those cases name really change the
// frame, so a golden case cannot pass by drawing the default twice.
#include <doctest/doctest.h>

#include "tests/support/program_helpers.h"

namespace shp_draw_golden_state_tests {

using namespace shapevm;

namespace {

raster::Framebuffer render(std::vector<Setting> options, std::vector<std::string> sets = {}) {
  return testing::render_spec(SHAPEVM_SOURCE_DIR "/examples/shp/drawing.shpt",
                              testing::state_with(std::move(options), std::move(sets)))
      .frame;
}

}  // namespace

TEST_CASE("golden frames: Starlancer state changes the frame (camera, caps, LOD, clip frame)") {
  const auto base = render({});
  CHECK(base != render({{"camera", "1800,200,25"}}));
  const auto below = render({{"camera", "1800,-30,-35"}});
  CHECK(below != render({{"camera", "1800,-30,-35"}}, {"caps=1"}));
  CHECK(base != render({{"lod", "1"}}));
  CHECK(render({}, {"clip=spin"}) != render({{"frame", "12"}}, {"clip=spin"}));
  CHECK(base == render({{"frame", "12"}}));  // without a clip the frame counter moves nothing
}

}  // namespace shp_draw_golden_state_tests
