// The Apache golden frames live in tests/golden/manifest.json (checked by test_golden_frames.cpp
// through the regression runner, as for every engine). Here: the states those cases name really
// change the frame, so a golden case cannot pass by drawing the default twice.
#include <doctest/doctest.h>

#include "core/file_io.h"
#include "tests/apache/apache_fixture.h"
#include "tests/support/program_helpers.h"

namespace apache_golden_state_tests {

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

TEST_CASE("AP-34 the vehicle example's LOD cases, worked by hand from its header") {
  // vehicle.apa's record 0 ("tank", lod 30000 next 3). Its vertices span x -64..64, y 0..90,
  // z -100..100 stored units, x16: bounds -1024..1024, 0..1440, -1600..1600; the widest
  // horizontal vertex is (60, -100) -> (960, -1600), radius ceil(sqrt(3481600)) = 1866. The
  // default camera is the fitted one, which frames that box in 640x480 well inside the
  // threshold, so the default frame draws the tank itself; the threshold is checked at 30000
  // (not beyond it) and 30001 (beyond it).
  const std::vector<uint8_t> text = read_file(SHAPEVM_SOURCE_DIR "/examples/apache/vehicle.apa");
  testing::ApacheFixture f(std::string(text.begin(), text.end()));
  const apache::ModelRecord& tank = *f.archive.record(0);
  CHECK(tank.header.lod_distance == 30000);
  CHECK(tank.header.next_record == 3);
  CHECK(tank.header.radius == 1866);
  CHECK(tank.header.bounds == std::array<int32_t, 6>{-1024, 1024, 0, 1440, -1600, 1600});
  apache::Interpreter interp(f.archive, f.tables, nullptr);
  apache::RunState s;
  const int64_t fitted = interp.camera_distance(tank, s);
  CHECK(fitted > 1866);  // outside the model
  CHECK(fitted < 30000);
  s.camera.distance = 6093;  // an explicit distance is taken as given
  CHECK(interp.camera_distance(tank, s) == 6093);
  s.camera.distance = 0;
  auto drawn = [&](const apache::RunState& state) {
    testing::ApacheSink sink;
    return interp.run(0, state, sink).record;
  };
  CHECK(drawn(s) == 0);
  s.camera.distance = 30000;  // not beyond the threshold
  CHECK(drawn(s) == 0);
  s.camera.distance = 30001;
  CHECK(drawn(s) == 3);
  apache::RunState lod1;  // the golden case apache_vehicle_lod1: --lod 1 at the default camera
  lod1.lod = 1;
  CHECK(drawn(lod1) == 3);
}

}  // namespace apache_golden_state_tests
