// The Apache golden frames live in tests/golden/manifest.json (checked by test_golden_frames.cpp
// through the regression runner, as for every engine). Here: the states those cases name really
// change the frame, so a golden case cannot pass by drawing the default twice.
#include <doctest/doctest.h>

#include "tests/support/program_helpers.h"

using namespace shapevm;

namespace {

raster::Framebuffer render(const std::string& example, std::vector<Setting> options,
                           std::vector<std::string> sets = {}) {
  return testing::render_spec(SHAPEVM_SOURCE_DIR "/examples/apache/" + example,
                              testing::state_with(std::move(options), std::move(sets)), 18)
      .frame;
}

}  // namespace

TEST_CASE("golden frames: Apache state changes the frame (view side, animation, slot, LOD)") {
  CHECK(render("building.apa:citblk", {}) !=
        render("building.apa:citblk", {{"camera", "0,200,15"}}));
  const auto tank = render("vehicle.apa:tank", {});
  CHECK(tank != render("vehicle.apa:tank", {}, {"anim=0x23", "slot1=2"}));
  CHECK(tank != render("vehicle.apa:tank", {{"lod", "1"}}));
}
