// The Starlancer viewer model, pause points and budgets while drawing, and render setup: LOD
// levels, the clip input played by the frame counter, caps and the LOD rule as inputs, the
// destroyed switch; a pause before every part and face; the step budget; palette and textures
// reaching the frame.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "harness/frame_renderer.h"
#include "interp/shp/draw_setup.h"
#include "interp/shp/tcache.h"
#include "interp/shp/viewer_model.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_viewer_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

std::shared_ptr<const Model> viewer_model() {
  Model m;
  Part hull = part("hull");
  hull.levels = {front_triangle(0, 1000), front_triangle(0, 2000)};
  Level cap = front_triangle();
  cap.faces[0].flags = 0x01;
  Part lid = part("lid", v3(0, 0, 50), 0);
  lid.levels = {cap};
  Clip open;
  open.name = "Open";
  open.mode = 1;
  open.length = 10;
  Keyframe k;
  k.time = 10;
  k.offset = v3(0, -100, 0);
  open.keyframes = {k};
  lid.clips = {open};
  Part wreck = part("wreck");
  wreck.flags = kPartDamagedModel;
  wreck.levels = {front_triangle()};
  m.parts = {hull, lid, wreck};
  return std::make_shared<const Model>(std::move(m));
}

class CountPauses : public PauseHandler {
 public:
  explicit CountPauses(uint64_t stop_at = UINT64_MAX) : stop_at_(stop_at) {}
  bool pause(const PausePoint& p) override {
    mnemonics.emplace_back(p.mnemonic());
    parts.push_back(p.read("part").value_or(-2));
    return mnemonics.size() >= stop_at_;
  }
  std::vector<std::string> mnemonics;
  std::vector<int64_t> parts;

 private:
  uint64_t stop_at_;
};

}  // namespace

TEST_CASE("viewer shp: capabilities: levels, clip names, 25 Hz counter, caps and LOD rule inputs") {
  ShpViewerModel viewer(viewer_model(), {}, "test.shp", request());
  const auto& caps = viewer.capabilities();
  CHECK(caps.engine == "shp");
  CHECK(caps.lod_levels == 2);
  CHECK(caps.frame_rate == 25);
  CHECK(caps.animation_frames == 20);
  REQUIRE(caps.inputs.size() == 3);
  CHECK(caps.inputs[0].name == "clip");
  CHECK(viewer.clip_names() == std::vector<std::string>{"open"});
  CHECK(caps.inputs[1].name == "caps");
  CHECK(caps.inputs[2].name == "lod_rule");
  CHECK(viewer.frame_settings(480).depth_test);
}

TEST_CASE("viewer shp: each control reaches the drawing (LOD, clip and frame, caps, destroyed)") {
  ShpViewerModel viewer(viewer_model(), {}, "test.shp", request({}, {"light=0,0,1"}));
  ViewerState s = viewer.initial_state();
  CHECK(s.camera.distance > 0);
  auto draw_state = [&](const ViewerState& v) {
    KeepSink sink;
    viewer.run(v, 480, sink);
    return sink;
  };
  const KeepSink base = draw_state(s);
  CHECK(base.faces.size() == 1);  // the hull; the lid is a cap, the wreck hidden
  ViewerState v = s;
  v.lod = 1;
  CHECK(draw_state(v).ops_named("draw_part")[0].field("level") == 1);
  v = s;
  v.inputs[1] = 1;  // caps
  CHECK(draw_state(v).faces.size() == 2);
  v.destroyed = true;
  CHECK(draw_state(v).faces.size() == 3);
  v.inputs[0] = 0;  // the clip "open"
  v.frame = 10;
  const KeepSink opened = draw_state(v);
  REQUIRE(opened.faces.size() == 3);
  CHECK(opened.faces[1].corners[0].model_wide[1] == 0);  // the lid moved up by 100
  // The opening's --set light stays; the inputs' names are the viewer's.
  const auto request_json = nlohmann::json::parse(viewer.state_json(v, 480));
  CHECK(request_json["clip"] == "open");
  CHECK(request_json["caps"] == true);
  CHECK(request_json["light"] == nlohmann::json::array({0, 0, 1}));
}

TEST_CASE("debug shp: a pause before every part and face; stopping ends the run cleanly") {
  const auto m = viewer_model();
  KeepSink sink;
  CountPauses all;
  DrawContext ctx(sink);
  ctx.pause = &all;
  ctx.max_steps = 1000;
  const RunOutcome done = draw_model(*m, request({camera_front()}, {"caps=1"}), ctx);
  CHECK(done.clean);
  // hull: part + face; lid: part + face; wreck: part only (hidden).
  CHECK(all.mnemonics.size() == 5);
  CHECK(all.mnemonics[0].rfind("draw_part 0", 0) == 0);
  CHECK(all.mnemonics[1].rfind("draw_face 0.0.0", 0) == 0);
  CHECK(all.parts == std::vector<int64_t>{0, 0, 1, 1, 2});
  KeepSink partial;
  CountPauses stop(3);
  DrawContext stopped(partial);
  stopped.pause = &stop;
  const RunOutcome out = draw_model(*m, request({camera_front()}, {"caps=1"}), stopped);
  CHECK(out.clean);
  CHECK(stopped.stopped);
  CHECK(out.reason == "stopped by the debugger");
  CHECK(partial.faces.size() == 1);
}

TEST_CASE("budget shp: drawing counts its steps against --max-steps and stops unclean") {
  const auto m = viewer_model();
  KeepSink sink;
  DrawContext ctx(sink);
  ctx.steps = 10;  // the loader's
  ctx.max_steps = 12;
  const RunOutcome out = draw_model(*m, request({camera_front()}), ctx);
  CHECK_FALSE(out.clean);
  CHECK(out.reason == "budget: steps");
  CHECK(sink.ops.size() == 2);
  REQUIRE_FALSE(sink.diagnostics.empty());
  CHECK(sink.diagnostics.back().level == DiagnosticLevel::kError);
}

TEST_CASE("render setup shp: palette.tga and the texture cache beside the input reach the frame") {
  const auto dir = std::filesystem::temp_directory_path() / "shapevm_draw_setup";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  raster::Palette p = raster::default_palette();
  p.colors[200] = {1, 2, 3};
  write_file_atomic(dir / "PALETTE.TGA", build_palette_tga(p));
  TextureSpec t;
  t.name = "skin";
  t.width = t.height = 2;
  t.pixels = {200, 200, 200, 200};
  write_file_atomic(dir / "tcachehw.dat", build_tcache({t}));
  const std::string source = (dir / "model.shp").string();
  const RenderSetup setup = shp_render_setup({}, source + ":member", 320, 240);
  CHECK(setup.palette == p);
  REQUIRE(setup.textures);
  REQUIRE(setup.textures("SKIN") != nullptr);
  CHECK(setup.frame.depth_test);
  CHECK(setup.frame.focal_pixels == 192);
  // A textured unlit face draws the texel.
  Level l = front_triangle(3);
  Material mat;
  mat.texture = "skin";
  l.materials = {mat};
  raster::Framebuffer frame(320, 240, 0);
  harness::FrameRenderer renderer(frame, setup.frame, setup.textures);
  DrawContext ctx(renderer);
  ctx.source = source;
  ctx.max_steps = 1000;
  draw_model(one_part(l), request({camera_front(600)}), ctx);
  CHECK(frame.at(160, 125) == 200);
  CHECK(renderer.missing_textures().empty());
}

}  // namespace shp_draw_viewer_tests
