// The Battle Isle 2 viewer model: one input per part (its turn about Y), which draws what
// `--set partN=0,ANGLE,0` draws (BI-10 through the viewer), and the camera the viewer opens with.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "tests/bi2/bi2_fixture.h"

namespace bi2_viewer_tests {

using namespace shapevm;
using namespace shapevm::testing;

TEST_CASE("BI-10 viewer: a part input turns the part as --set partN does") {
  const std::string tank = SHAPEVM_SOURCE_DIR "/examples/bi2/units.bi2:TANK001";
  auto program = open_program(tank, {});
  auto viewer = program->viewer({}, 30);
  const auto& caps = viewer->capabilities();
  REQUIRE(caps.inputs.size() == 1);
  CHECK(caps.inputs[0].name == "part0");
  CHECK(caps.inputs[0].values == std::vector<int64_t>{0, 45, 90, 135, 180, 225, 270, 315});
  ViewerState state = viewer->initial_state();
  CHECK(state.camera.distance > 0);
  state.inputs[0] = 2;  // 90 degrees
  Bi2Recorder from_viewer;
  viewer->run(state, 480, from_viewer);
  StateRequest request;
  request.sets = {"part0=0,90,0"};
  request.options = {{"camera", fmt::format("{},{},{}", state.camera.distance, state.camera.heading,
                                            state.camera.pitch)}};
  const Bi2Recorder from_set = bi2_run(*program, request);
  REQUIRE(from_viewer.faces.size() == from_set.faces.size());
  for (size_t i = 0; i < from_set.faces.size(); ++i)
    CHECK(from_viewer.faces[i].model == from_set.faces[i].model);
  Bi2Recorder rest;
  state.inputs[0] = 0;
  viewer->run(state, 480, rest);
  // At rest the turret's faces (matched by polygon offset) are elsewhere.
  size_t moved = 0;
  for (const auto& a : rest.faces)
    for (const auto& b : from_set.faces)
      if (a.offset == b.offset && a.model != b.model) ++moved;
  CHECK(moved == 7);  // the turret's six faces and its gun line
}

}  // namespace bi2_viewer_tests
