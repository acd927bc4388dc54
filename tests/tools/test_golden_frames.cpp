// Golden frames: each example rendered in a few states must match the checked-in PNG pixel for
// pixel (indices and palette). Regenerate only deliberately:
//   SHAPEVM_UPDATE_GOLDEN=1 build/tests/shapevm_tests -sf='*test_golden_frames.cpp'
// The same comparison runs in every build type (Release in CI, Debug/ASan by hand), so a frame
// that depended on the optimiser would fail one of them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "raster/png_io.h"
#include "tools/fa_shape_loader.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"

using namespace shapevm;

namespace {

struct GoldenCase {
  const char* example;
  const char* golden;
  tools::RunOptions options;
};

std::vector<GoldenCase> cases() {
  std::vector<GoldenCase> out;
  auto add = [&](const char* example, const char* golden, auto tweak) {
    tools::RunOptions o;
    tweak(o);
    out.push_back({example, golden, o});
  };
  add("jet", "jet_default", [](tools::RunOptions&) {});
  add("jet", "jet_frame2_front", [](tools::RunOptions& o) {
    o.frame = 2;
    o.camera = "260,200,10";
  });
  add("jet", "jet_lod2", [](tools::RunOptions& o) { o.lod = 2; });
  add("jet", "jet_gear_flaps_burner", [](tools::RunOptions& o) {
    o.sets = {"_PLgearDown=1", "_PLleftFlap=-1", "_PLafterBurner=1"};
    o.camera = "330,120,-15";
  });
  add("jet", "jet_merged_below", [](tools::RunOptions& o) {
    o.merged = true;
    o.camera = "330,120,-15";
  });
  add("tank", "tank_default", [](tools::RunOptions&) {});
  add("tank", "tank_destroyed", [](tools::RunOptions& o) { o.destroyed = true; });
  add("hangar", "hangar_default", [](tools::RunOptions&) {});
  add("radar", "radar_below", [](tools::RunOptions& o) { o.camera = "80,30,-35"; });
  return out;
}

}  // namespace

TEST_CASE("golden frames: examples render pixel-identical to the checked-in PNGs") {
  const bool update = std::getenv("SHAPEVM_UPDATE_GOLDEN") != nullptr;
  const std::filesystem::path dir = SHAPEVM_SOURCE_DIR "/tests/golden/fa";
  const raster::Palette palette = raster::default_palette();
  for (const auto& c : cases()) {
    INFO(c.golden);
    fa::Shape shape =
        tools::load_fa_shape(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/") + c.example + ".SH");
    tools::FaFrame frame =
        tools::render_fa_frame(shape, tools::fa_run_state(c.options, 480), 640, 480, 0, nullptr);
    CHECK(frame.result.clean);
    CHECK(frame.faces_filled > 0);
    const auto path = dir / (std::string(c.golden) + ".png");
    if (update) {
      raster::write_indexed_png(path, frame.frame, palette);
      continue;
    }
    REQUIRE_MESSAGE(std::filesystem::exists(path), "missing golden " << path.string());
    raster::IndexedImage golden = raster::read_png(path);
    CHECK(golden.frame == frame.frame);
    CHECK(golden.palette == palette);
  }
}

TEST_CASE(
    "golden frames: the state changes the frame (frames, LOD, damage differ from the default)") {
  auto render = [](const char* example, const tools::RunOptions& o) {
    fa::Shape shape =
        tools::load_fa_shape(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/") + example + ".SH");
    return tools::render_fa_frame(shape, tools::fa_run_state(o, 480), 640, 480, 0, nullptr).frame;
  };
  tools::RunOptions base;
  tools::RunOptions destroyed;
  destroyed.destroyed = true;
  CHECK(render("tank", base) != render("tank", destroyed));
  tools::RunOptions lod2;
  lod2.lod = 2;
  CHECK(render("jet", base) != render("jet", lod2));
  tools::RunOptions frame1;
  frame1.frame = 1;
  CHECK(render("jet", base) != render("jet", frame1));  // the exhaust colour cycles
  // Each x86-selected part changes the frame on its own (issue 4: gear, flaps, afterburner).
  for (const char* set : {"_PLgearDown=1", "_PLleftFlap=-1", "_PLafterBurner=1"}) {
    INFO(set);
    tools::RunOptions o;
    o.sets = {set};
    o.camera = "330,120,-15";
    tools::RunOptions plain;
    plain.camera = o.camera;
    CHECK(render("jet", plain) != render("jet", o));
  }
}
