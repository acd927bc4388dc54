// The Battle Isle 2 golden frames live in tests/golden/manifest.json (checked by
// tests/tools/test_golden_frames.cpp through the regression runner, as for every engine). Here:
// the states those cases name really change the frame, so a golden case cannot pass by drawing
// the default twice, and the scene case draws every used placement.
#include <doctest/doctest.h>

#include "tests/support/program_helpers.h"

namespace bi2_golden_state_tests {

using namespace shapevm;

namespace {

const std::string kUnits = SHAPEVM_SOURCE_DIR "/examples/bi2/units.bi2";
const std::string kScenery = SHAPEVM_SOURCE_DIR "/examples/bi2/scenery.bi2";

}  // namespace

TEST_CASE("BI-10 BI-08 golden frames: the turret case turns the turret and its gun line") {
  const auto rest = testing::render_spec(kUnits + ":TANK001", {}, 6);
  const auto turned =
      testing::render_spec(kUnits + ":TANK001", testing::state_with({}, {"part0=0,90,0"}), 6);
  CHECK(rest.frame != turned.frame);
  CHECK(rest.outcome.faces == 13);
  CHECK(turned.outcome.faces == 13);
  const auto tracer = testing::render_spec(kUnits + ":AMMO001A", {}, 6);
  CHECK(tracer.outcome.faces == 1);
  CHECK(tracer.faces_filled == 1);
}

TEST_CASE("BI-11 golden frames: the scenery layer draws its seven used placements") {
  const auto scene = testing::render_spec(kScenery + ":LAYR005", {}, 6);
  // Placements: LAND000 x2 (5 polygons each), LAND001 x3 (13 each), LAND002 x2 (13 each); the
  // one on unused slot 3 is skipped.
  CHECK(scene.outcome.faces == 2 * 5 + 3 * 13 + 2 * 13);
  CHECK(scene.outcome.clean);
}

}  // namespace bi2_golden_state_tests
