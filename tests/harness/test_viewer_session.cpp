// The viewer's engine-neutral core (harness/viewer_session.*) driven through a scripted engine:
// what each action does to the state, the frame clock, the counts taken from the event stream.
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "harness/viewer_session.h"
#include "tests/tools/run_cli.h"

namespace harness_viewer_session_tests {

using namespace shapevm;
using namespace shapevm::harness;

namespace {

// An engine whose program executes (frame + 3) opcodes and draws one triangle whose colour is
// the frame counter + 1, so tests can see which state reached the engine.
class ScriptedEngine : public ViewerEngine {
 public:
  ScriptedEngine() {
    caps_.engine = "test";
    caps_.source = "dir/scripted.bin";
    caps_.lod_levels = 3;
    caps_.detail_levels = 2;
    caps_.animation_frames = 4;
    caps_.frame_counter_modulus = 8;
    caps_.frame_rate = 10;
    caps_.inputs = {{"gear", {0, 1}, 0}, {"flaps", {0, 10, 20}, 0}, {"ticks", {}, 0}};
  }
  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override {
    ViewerState s;
    s.camera = {100, 150, 20};
    return s;
  }
  ViewerRunResult run(const ViewerState& state, int32_t, EventSink& sink) override {
    ++runs;
    last = state;
    OpEvent op;
    op.engine = "test";
    op.name = "Op";
    for (uint32_t i = 0; i < state.frame + 3; ++i) {
      op.offset = i;
      sink.on_op(op);
    }
    FaceCorner c[3];
    c[0].view = {-256 * 40, -256 * 40, -256 * 100};
    c[1].view = {256 * 40, -256 * 40, -256 * 100};
    c[2].view = {0, 256 * 40, -256 * 100};
    FaceEvent f;
    f.engine = "test";
    f.color = static_cast<uint8_t>(state.frame + 1);
    f.corners = c;
    sink.on_face(f);
    return {state.frame != 7, state.frame == 7 ? "budget" : "end"};
  }
  std::string state_json(const ViewerState& s, int32_t) const override {
    return "{\"frame\":" + std::to_string(s.frame) + "}";
  }
  const raster::Palette& palette() const override { return palette_; }
  TextureLookup textures() override { return {}; }

  int runs = 0;
  ViewerState last;

 private:
  ViewerCapabilities caps_;
  raster::Palette palette_ = raster::default_palette();
};

}  // namespace

TEST_CASE("viewer session: the frame counter wraps at the engine's modulus both ways") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  s.step_frames(7);
  CHECK(s.state().frame == 7);
  s.step_frames(1);
  CHECK(s.state().frame == 0);
  s.step_frames(-1);
  CHECK(s.state().frame == 7);
  s.step_frames(-17);
  CHECK(s.state().frame == 6);
}

TEST_CASE(
    "viewer session: the clock advances whole frames at the engine rate and carries the rest") {
  ScriptedEngine engine;  // 10 frames per second: one frame per 100 ms
  ViewerSession s(engine, 64, 48);
  CHECK(s.advance_time(99'999) == 0);
  CHECK(s.state().frame == 0);
  CHECK(s.advance_time(1) == 1);  // the carried 99,999 us + 1 us make one frame
  CHECK(s.state().frame == 1);
  CHECK(s.advance_time(250'000) == 2);
  CHECK(s.state().frame == 3);
  CHECK(s.advance_time(50'000) == 1);  // 50 ms carried + 50 ms
  s.set_paused(true);
  CHECK(s.advance_time(1'000'000) == 0);
  CHECK(s.state().frame == 4);
}

TEST_CASE("viewer session: frame keys step and pause and the reset key returns to 0") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  CHECK_FALSE(s.paused());
  s.apply(ViewerAction::kFrameNext);
  CHECK(s.paused());
  CHECK(s.state().frame == 1);
  s.apply(ViewerAction::kFramePrev);
  s.apply(ViewerAction::kFramePrev);
  CHECK(s.state().frame == 7);
  s.apply(ViewerAction::kFrameReset);
  CHECK(s.state().frame == 0);
  s.apply(ViewerAction::kTogglePause);
  CHECK_FALSE(s.paused());
}

TEST_CASE("viewer session: LOD key cycles auto then every level then auto again") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  CHECK_FALSE(s.state().lod.has_value());
  std::vector<std::optional<uint32_t>> seen;
  for (int i = 0; i < 4; ++i) {
    s.apply(ViewerAction::kLodNext);
    seen.push_back(s.state().lod);
  }
  CHECK(seen == std::vector<std::optional<uint32_t>>{0u, 1u, 2u, std::nullopt});
  s.apply(ViewerAction::kLodNext);
  s.apply(ViewerAction::kLodAuto);
  CHECK_FALSE(s.state().lod.has_value());
}

TEST_CASE("viewer session: detail wraps and destroyed and effects toggle") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  s.apply(ViewerAction::kDetailNext);
  CHECK(s.state().detail_level == 1);
  s.apply(ViewerAction::kDetailNext);
  CHECK(s.state().detail_level == 0);
  s.apply(ViewerAction::kToggleDestroyed);
  s.apply(ViewerAction::kToggleEffects);
  CHECK(s.state().destroyed);
  CHECK(s.state().effects);
  s.apply(ViewerAction::kToggleDestroyed);
  CHECK_FALSE(s.state().destroyed);
}

TEST_CASE("viewer session: input keys cycle each input through default and every value") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  REQUIRE(s.state().inputs.size() == 3);
  // gear: default, 0, 1, default
  std::vector<std::optional<size_t>> gear;
  for (int i = 0; i < 3; ++i) {
    s.apply(ViewerAction::kInputValueNext);
    gear.push_back(s.state().inputs[0]);
  }
  CHECK(gear == std::vector<std::optional<size_t>>{0u, 1u, std::nullopt});
  s.apply(ViewerAction::kInputSelectNext);
  CHECK(s.selected_input() == 1);
  s.apply(ViewerAction::kInputValuePrev);  // backwards from default: the last value
  CHECK(s.state().inputs[1] == std::optional<size_t>(2));
  s.apply(ViewerAction::kInputSelectNext);
  s.apply(ViewerAction::kInputValueNext);  // "ticks" has no compared values: nothing to cycle
  CHECK_FALSE(s.state().inputs[2].has_value());
  s.apply(ViewerAction::kInputSelectNext);
  CHECK(s.selected_input() == 0);
  // The engine receives the choice.
  s.frame();
  CHECK(engine.last.inputs[1] == std::optional<size_t>(2));
}

TEST_CASE("viewer session: the camera orbits wrap the heading clamp the pitch and zoom by ratio") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  for (int i = 0; i < 31; ++i) s.apply(ViewerAction::kOrbitRight);  // 150 + 155
  CHECK(s.state().camera.heading == 305);
  for (int i = 0; i < 12; ++i) s.apply(ViewerAction::kOrbitRight);
  CHECK(s.state().camera.heading == 5);
  for (int i = 0; i < 40; ++i) s.apply(ViewerAction::kPitchUp);
  CHECK(s.state().camera.pitch == kMaxPitch);
  s.apply(ViewerAction::kZoomIn);
  CHECK(s.state().camera.distance == 87);  // 100 * 7 / 8
  s.apply(ViewerAction::kZoomOut);
  CHECK(s.state().camera.distance == 99);  // 87 * 8 / 7
  for (int i = 0; i < 100; ++i) s.zoom(1);
  CHECK(s.state().camera.distance == kMinDistance);
  s.apply(ViewerAction::kResetCamera);
  CHECK(s.state().camera == ViewerCamera{100, 150, 20});
  s.drag(5, -3);  // 2 degrees right, 1 down; 1 px and -1 px carried
  CHECK(s.state().camera.heading == 152);
  CHECK(s.state().camera.pitch == 19);
  s.drag(1, -1);
  CHECK(s.state().camera.heading == 153);
  CHECK(s.state().camera.pitch == 18);
}

TEST_CASE("viewer session: counts come from the event stream and runs happen only on change") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  CHECK(s.stats().ops == 3);
  CHECK(s.stats().faces_drawn == 1);
  CHECK(s.frame().at(32, 24) == 1);  // colour = frame + 1
  CHECK(engine.runs == 1);
  s.frame();
  s.status_line();
  CHECK(engine.runs == 1);
  s.step_frames(2);
  CHECK(s.stats().ops == 5);
  CHECK(s.frame().at(32, 24) == 3);
  CHECK(engine.runs == 2);
  s.step_frames(5);  // frame 7: the scripted run stops unclean
  CHECK_FALSE(s.stats().clean);
  CHECK(s.status_line().find("stopped: budget") != std::string::npos);
}

TEST_CASE("viewer session: the status line and title show the state faces and opcodes") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  s.apply(ViewerAction::kLodNext);
  s.apply(ViewerAction::kToggleDestroyed);
  s.apply(ViewerAction::kInputValueNext);
  s.apply(ViewerAction::kFrameNext);
  const std::string line = s.status_line();
  CHECK(line.find("frame 1 (anim 1/4) paused") != std::string::npos);
  CHECK(line.find("lod 0/3") != std::string::npos);
  CHECK(line.find("detail 0/2") != std::string::npos);
  CHECK(line.find("destroyed on") != std::string::npos);
  CHECK(line.find("effects off") != std::string::npos);
  CHECK(line.find(">gear=0") != std::string::npos);
  CHECK(line.find("flaps=default(0)") != std::string::npos);
  CHECK(line.find("faces 1 | ops 4") != std::string::npos);
  CHECK(s.title().find("[test] dir/scripted.bin") != std::string::npos);
}

TEST_CASE("viewer session: unused paths name the member and frame and never an existing file") {
  ScriptedEngine engine;
  ViewerSession s(engine, 64, 48);
  ScratchDir scratch;
  const auto& dir = scratch.path();
  s.step_frames(3);
  const auto first = s.unused_path(dir, "png");
  CHECK(first.filename() == "scripted_f3.png");
  s.save_png(first);
  CHECK_THROWS_AS(s.save_png(first), InputError);  // never overwrites
  CHECK(s.unused_path(dir, "png").filename() == "scripted_f3_2.png");
}

}  // namespace harness_viewer_session_tests
