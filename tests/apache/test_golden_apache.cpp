// Golden frames for the Apache examples: each rendered in a few states must match the checked-in
// PNG pixel for pixel (indices and palette). Regenerate only deliberately:
//   SHAPEVM_UPDATE_GOLDEN=1 build/tests/shapevm_tests -sf='*test_golden_apache.cpp'
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "raster/png_io.h"
#include "tools/apache_session.h"

using namespace shapevm;

namespace {

struct GoldenCase {
  const char* example;
  const char* member;
  const char* golden;
  tools::RunOptions options;
};

std::vector<GoldenCase> cases() {
  std::vector<GoldenCase> out;
  auto add = [&](const char* example, const char* member, const char* golden, auto tweak) {
    tools::RunOptions o;
    tweak(o);
    out.push_back({example, member, golden, o});
  };
  add("building", "citblk", "building_default", [](tools::RunOptions&) {});
  add("building", "citblk", "building_behind", [](tools::RunOptions& o) { o.camera = "0,200,15"; });
  add("vehicle", "tank", "vehicle_default", [](tools::RunOptions&) {});
  add("vehicle", "tank", "vehicle_anim_slot", [](tools::RunOptions& o) {
    o.sets = {"anim=0x23", "slot1=2"};
  });
  add("vehicle", "tank", "vehicle_lod1", [](tools::RunOptions& o) { o.lod = 1; });
  add("tower", "#0", "tower_default", [](tools::RunOptions&) {});
  add("crate", "crate", "crate_default", [](tools::RunOptions&) {});
  return out;
}

tools::ApacheFrame render(const GoldenCase& c) {
  tools::ApacheSession session(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/apache/") + c.example +
                               "/3DOBJS.BIN:" + c.member);
  return tools::render_apache_frame(session, session.record(),
                                    tools::apache_run_state(c.options, 640, 480),
                                    tools::kApacheExampleBackground);
}

}  // namespace

TEST_CASE("golden frames: Apache examples render pixel-identical to the checked-in PNGs") {
  const bool update = std::getenv("SHAPEVM_UPDATE_GOLDEN") != nullptr;
  const std::filesystem::path dir = SHAPEVM_SOURCE_DIR "/tests/golden/apache";
  for (const auto& c : cases()) {
    INFO(c.golden);
    tools::ApacheSession session(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/apache/") + c.example +
                                 "/3DOBJS.BIN:" + c.member);
    tools::ApacheFrame frame = render(c);
    CHECK(frame.result.clean);
    CHECK(frame.faces_filled > 0);
    CHECK(frame.missing_textures.empty());
    const auto path = dir / (std::string(c.golden) + ".png");
    if (update) {
      std::filesystem::create_directories(dir);
      raster::write_indexed_png(path, frame.frame, session.tables().frame);
      continue;
    }
    REQUIRE_MESSAGE(std::filesystem::exists(path), "missing golden " << path.string());
    raster::IndexedImage golden = raster::read_png(path);
    CHECK(golden.frame == frame.frame);
    CHECK(golden.palette == session.tables().frame);
  }
}

TEST_CASE("golden frames: Apache state changes the frame (view side, animation, slot, LOD)") {
  const auto frames = [] {
    std::map<std::string, raster::Framebuffer> out;
    for (const auto& c : cases()) out.emplace(c.golden, render(c).frame);
    return out;
  }();
  CHECK(frames.at("building_default") != frames.at("building_behind"));
  CHECK(frames.at("vehicle_default") != frames.at("vehicle_anim_slot"));
  CHECK(frames.at("vehicle_default") != frames.at("vehicle_lod1"));
}
