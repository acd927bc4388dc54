// The viewer's FA model (interp/fa/viewer_model.*) under the engine-neutral session: every knob
// reaches the FA run state and changes the frame the way the traced facts say.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/frame_renderer.h"
#include "harness/viewer_session.h"
#include "interp/fa/assumptions.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape_input.h"
#include "interp/fa/viewer_model.h"
#include "tests/tools/run_cli.h"

namespace tools_viewer_fa_tests {

using namespace shapevm;
using harness::ViewerAction;

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";
constexpr int kW = 320, kH = 240;

// The viewer model owns the shape it runs (the model keeps a reference to it).
struct OwnedShape {
  fa::Shape shape;
};
class TestViewer : private OwnedShape, public fa::FaViewerModel {
 public:
  TestViewer(const std::string& file, const StateRequest& opening)
      : OwnedShape{fa::load_shape_spec(file)},
        fa::FaViewerModel(shape, opening, {}, RenderSetup{raster::default_palette(), {}, {}}) {}
};

// These cases were measured with the camera 330 units away (3x the jet's radius, the default
// before --camera fit): at 320x240 that puts the jet at LOD 1, which the zoom cases start from.
StateRequest at_330() {
  StateRequest r;
  r.options = {{"camera", "330,150,20"}};
  return r;
}

TestViewer make_engine(const std::string& file, const StateRequest& opening = at_330()) {
  return TestViewer(file, opening);
}

struct CliFrame {
  raster::Framebuffer frame;
  fa::RunResult result;
  uint64_t faces_filled = 0;
};

// The same state rendered the way `shapevm render` does it.
CliFrame render_like_cli(const std::string& file, const fa::FaViewerModel& engine,
                         const harness::ViewerState& state) {
  static std::map<std::string, fa::Shape> shapes;
  auto it = shapes.find(file);
  if (it == shapes.end()) it = shapes.emplace(file, fa::load_shape_spec(file)).first;
  CliFrame out{raster::Framebuffer(kW, kH, 0), {}, 0};
  harness::FrameSettings settings;
  settings.focal_pixels = kH;
  harness::FrameRenderer renderer(out.frame, settings);
  fa::Interpreter interp(it->second);
  out.result = interp.run(engine.run_state(state, kH), renderer);
  out.faces_filled = renderer.faces_filled();
  return out;
}

}  // namespace

TEST_CASE("viewer fa: capabilities come from the static analysis of the jet") {
  auto engine = make_engine(kJet);
  const auto& caps = engine.capabilities();
  CHECK(caps.engine == "fa");
  CHECK(caps.lod_levels == 3);     // thresholds 48 and 12 (FA-50)
  CHECK(caps.detail_levels == 2);  // JumpToDetail threshold 1 (FA-45)
  CHECK(engine.detail_values() == std::vector<uint16_t>{0xFFFF, 0});
  CHECK(caps.animation_frames == 4);            // JumpToFrame with four slots (FA-31)
  CHECK(caps.frame_counter_modulus == 0x8000);  // FA-32
  CHECK(caps.frame_rate == fa::assumed::kViewerFramesPerSecond);
  // FA-20: the compared data imports, each with the values that select differently from the
  // default 0: burner on (je skips the arm at 0), gear down (jne skips unless 1), flaps down
  // (jge skips the arm while >= 0).
  REQUIRE(caps.inputs.size() == 3);
  CHECK(caps.inputs[0].name == "_PLafterBurner");
  CHECK(caps.inputs[0].values == std::vector<int64_t>{1});
  CHECK(caps.inputs[1].name == "_PLgearDown");
  CHECK(caps.inputs[1].values == std::vector<int64_t>{1});
  CHECK(caps.inputs[2].name == "_PLleftFlap");
  CHECK(caps.inputs[2].values == std::vector<int64_t>{-1});
  for (const auto& in : caps.inputs) CHECK(in.engine_default == 0);
}

TEST_CASE("viewer fa: the opening state follows the state options") {
  StateRequest o;
  o.options = {{"frame", std::to_string(0x8000 + 5)}, {"lod", "1"}};
  o.sets = {"_PLgearDown=1"};
  auto engine = make_engine(kJet, o);
  const auto s = engine.initial_state();
  CHECK(s.frame == 5);  // FA-32: 15-bit counter
  CHECK(s.lod == std::optional<uint32_t>(1));
  CHECK(s.inputs == std::vector<std::optional<size_t>>(3));  // each at its default
  // The --set value is the gear's default; the cycle offers the other outcome.
  CHECK(engine.capabilities().inputs[1].engine_default == 1);
  CHECK(engine.capabilities().inputs[1].values == std::vector<int64_t>{0});
  // No --camera: the distance that fits the jet in the opening's 640x480 frame, as render's.
  const fa::Shape jet = fa::load_shape_spec(kJet);
  CHECK(s.camera == harness::ViewerCamera{
                        fa::Interpreter(jet).fit_distance({0, fa::assumed::kDefaultCameraHeading,
                                                           fa::assumed::kDefaultCameraPitch},
                                                          640, 480),
                        fa::assumed::kDefaultCameraHeading, fa::assumed::kDefaultCameraPitch});
  CHECK(s.camera.distance > 100);
  CHECK(s.camera.distance < 330);  // nearer than 3x the radius: the jet fills the frame
}

TEST_CASE("viewer fa: zooming changes the LOD JumpToLOD picks (FA-47 FA-48 FA-49)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  // 330 units at scrh 240: projected 110*240/330/2 = 40 < 48, so the first JumpToLOD branches.
  CHECK(s.stats().faces_drawn == 4);  // LOD 1
  for (int i = 0; i < 4; ++i) s.apply(ViewerAction::kZoomIn);
  CHECK(s.state().camera.distance < 275);  // projected > 48
  CHECK(s.stats().faces_drawn == 14);      // LOD 0: nose 4, body 4, tail, wings 2, fin 2, flame
  for (int i = 0; i < 20; ++i) s.apply(ViewerAction::kZoomOut);
  CHECK(s.stats().faces_drawn == 2);  // LOD 2: the dart
  CHECK(s.frame() == render_like_cli(kJet, engine, s.state()).frame);
}

TEST_CASE("viewer fa: a forced LOD level draws what --lod draws (FA-50)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  const uint64_t expected_faces[] = {14, 4, 2};
  for (uint32_t level = 0; level < 3; ++level) {
    s.apply(ViewerAction::kLodNext);
    REQUIRE(s.state().lod == std::optional<uint32_t>(level));
    CHECK(s.stats().faces_drawn == expected_faces[level]);
    const auto cli = render_like_cli(kJet, engine, s.state());
    CHECK(s.frame() == cli.frame);
  }
}

TEST_CASE("viewer fa: the detail key reaches JumpToDetail (FA-45)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  s.apply(ViewerAction::kLodNext);  // LOD 0 forced: 14 faces at full detail
  CHECK(s.stats().faces_drawn == 14);
  s.apply(ViewerAction::kDetailNext);  // _detail = 0 < 1: branch to the dart
  CHECK(engine.run_state(s.state(), kH).detail == 0);
  CHECK(s.stats().faces_drawn == 2);
}

TEST_CASE("viewer fa: effects force the finest LOD at any distance (FA-46)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  for (int i = 0; i < 20; ++i) s.apply(ViewerAction::kZoomOut);
  CHECK(s.stats().faces_drawn == 2);
  s.apply(ViewerAction::kToggleEffects);
  CHECK((engine.run_state(s.state(), kH).effects & 0x20000) != 0);
  CHECK(s.stats().faces_drawn == 14);
  s.apply(ViewerAction::kToggleEffects);
  CHECK(engine.run_state(s.state(), kH).effects == 0);
}

TEST_CASE("viewer fa: the destroyed switch draws the wreck (FA-43 FA-44)") {
  auto engine = make_engine(kTank);
  harness::ViewerSession s(engine, kW, kH);
  const raster::Framebuffer intact = s.frame();
  s.apply(ViewerAction::kToggleDestroyed);
  CHECK(engine.run_state(s.state(), kH).destroyed_flag());
  CHECK_FALSE(s.frame() == intact);
  CHECK(s.frame() == render_like_cli(kTank, engine, s.state()).frame);
}

TEST_CASE("viewer fa: cycling each articulation input runs its x86 selector (FA-18 FA-20)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  s.apply(ViewerAction::kLodNext);  // LOD 0, where the x86 blocks are
  CHECK(s.stats().faces_drawn == 14);
  // Selected first: _PLafterBurner (four flame faces).
  s.apply(ViewerAction::kInputValueNext);
  CHECK(engine.run_state(s.state(), kH).imports.at("_PLafterBurner") == 1);
  CHECK(s.stats().faces_drawn == 18);
  s.apply(ViewerAction::kInputValueNext);  // back to the default
  CHECK(s.stats().faces_drawn == 14);
  s.apply(ViewerAction::kInputSelectNext);  // _PLgearDown: two gear legs
  s.apply(ViewerAction::kInputValueNext);
  CHECK(engine.run_state(s.state(), kH).imports.at("_PLgearDown") == 1);
  CHECK(s.stats().faces_drawn == 16);
  CHECK(s.status_line().find(">_PLgearDown=1") != std::string::npos);
  s.apply(ViewerAction::kInputSelectNext);  // _PLleftFlap = -1: two flap panels, gear still down
  s.apply(ViewerAction::kInputValueNext);
  CHECK(engine.run_state(s.state(), kH).imports.at("_PLleftFlap") == -1);
  CHECK(s.stats().faces_drawn == 18);
  s.apply(ViewerAction::kInputValuePrev);
  CHECK(s.stats().faces_drawn == 16);
}

TEST_CASE("viewer fa: frames advance the exhaust animation mod 4 (FA-31 FA-32)") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  s.apply(ViewerAction::kLodNext);
  std::vector<raster::Framebuffer> frames;
  for (int i = 0; i < 5; ++i) {
    frames.push_back(s.frame());
    s.advance_time(1'000'000 / 20);  // one frame at the assumed 20 per second
  }
  CHECK(s.state().frame == 5);
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) CHECK_FALSE(frames[a] == frames[b]);
  CHECK(frames[4] == frames[0]);
  s.set_state([&] {
    auto st = s.state();
    st.frame = 0x7FFF;
    return st;
  }());
  s.step_frames(1);
  CHECK(s.state().frame == 0);
}

TEST_CASE("viewer fa: opcodes counted from the event stream equal the interpreter's count") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  s.apply(ViewerAction::kLodNext);
  s.apply(ViewerAction::kInputValueNext);  // the afterburner
  const auto cli = render_like_cli(kJet, engine, s.state());
  CHECK(s.stats().ops == cli.result.ops);
  CHECK(s.stats().ops > 20);
  CHECK(s.stats().faces_drawn == cli.faces_filled);
}

TEST_CASE("viewer fa: the trace key writes the current frame's JSON Lines trace") {
  auto engine = make_engine(kJet);
  harness::ViewerSession s(engine, kW, kH);
  s.apply(ViewerAction::kFrameNext);
  s.apply(ViewerAction::kFrameNext);
  ScratchDir dir;
  const auto path = s.unused_path(dir.path(), "jsonl");
  CHECK(path.filename() == "jet_f2.jsonl");
  s.save_trace(path);
  std::ifstream in(path);
  std::string line;
  std::vector<nlohmann::json> lines;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  REQUIRE(lines.size() > 3);
  CHECK(lines.front()["ev"] == "start");
  CHECK(lines.front()["state"]["frame"] == 2);
  CHECK(lines.back()["ev"] == "end");
  uint64_t ops = 0;
  for (const auto& j : lines) ops += j["ev"] == "op";
  CHECK(ops == s.stats().ops);
  CHECK_THROWS(s.save_trace(path));  // never overwrites
}

}  // namespace tools_viewer_fa_tests
