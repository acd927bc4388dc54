// What the FA golden frames (tests/golden/manifest.json) must show, stated independently of them:
// the golden PNGs were written by shapevm itself, so they catch a change but not a formula that
// was wrong from the start. Here each state's selected branch and the palette indices it draws
// are written as literals worked out by hand from the seed's formulas and the examples' source
// (examples/fa/jet.fas, tank.fas), then checked against a run and against the rendered frame.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "interp/fa/branch_kinds.h"
#include "interp/fa/interpreter.h"
#include "tests/fa/recording_sink.h"
#include "tests/support/program_helpers.h"

namespace fa_golden_expectations_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::RecordingSink;

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";

RecordingSink run_example(const std::string& path, const RunState& state) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
  const Shape shape = load_shape(bytes, path);
  Interpreter interp(shape);
  RecordingSink sink;
  interp.run(state, sink);
  return sink;
}

std::vector<BranchEvent> branches_of(const RecordingSink& sink, std::string_view kind) {
  std::vector<BranchEvent> out;
  for (const auto& b : sink.branches)
    if (b.kind == kind) out.push_back(b);
  return out;
}

std::set<uint8_t> colors_of(const RecordingSink& sink) {
  return {sink.face_colors.begin(), sink.face_colors.end()};
}

// How many pixels of the frame `render` draws for this state hold palette index `index`.
int pixels_of(const std::string& path, std::vector<Setting> options, std::vector<std::string> sets,
              uint8_t index) {
  const auto frame =
      testing::render_spec(path, testing::state_with(std::move(options), std::move(sets))).frame;
  int n = 0;
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) n += frame.at(x, y) == index;
  return n;
}

}  // namespace

TEST_CASE("FA-31 golden jet_frame1/jet_frame2_front: the exhaust is colour 0x40 + (frame mod 4)") {
  // jet.fas: JumpToFrame @flame0..@flame3, flame k draws colour 0x40 + k (untextured).
  // idx = _frameCounter mod nframes: frame 1 -> slot 1 (0x41), frame 2 -> slot 2 (0x42),
  // frame 0x8003 -> 15-bit counter 3 -> slot 3 (0x43).
  const std::pair<uint32_t, uint8_t> cases[] = {{0, 0x40}, {1, 0x41}, {2, 0x42}, {0x8003, 0x43}};
  for (const auto& [frame, exhaust] : cases) {
    INFO("frame " << frame);
    RunState s;
    s.frame = frame;
    auto sink = run_example(kJet, s);
    const auto frames = branches_of(sink, branch_kind::kFrame);
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].value == exhaust - 0x40);
    CHECK(frames[0].limit == 4);
    for (uint8_t other = 0x40; other <= 0x43; ++other)
      CHECK(colors_of(sink).count(other) == (other == exhaust ? 1u : 0u));
  }
  // In the frame: the default camera sees the exhaust (painted after the airframe).
  CHECK(pixels_of(kJet, {{"frame", "1"}}, {}, 0x41) > 0);
  CHECK(pixels_of(kJet, {{"frame", "1"}}, {}, 0x40) == 0);
  CHECK(pixels_of(kJet, {{"frame", "2"}}, {}, 0x42) > 0);
  CHECK(pixels_of(kJet, {{"frame", "2"}}, {}, 0x41) == 0);
}

TEST_CASE("FA-18 golden jet_gear_down/jet_gear_flaps_burner: each guard's compare picks its arm") {
  // The gear block: cmp word [_PLgearDown], 1; jne over the re-entry. Equal (1) -> the gear arm
  // runs: Unmask @gear_down, two faces of colour 0x08. The flap block: cmp dword [_PLleftFlap],
  // 0; jge over the arm: -1 < 0 draws the flaps (0x09). The burner: cmp byte, 0; je over the arm:
  // 1 draws the flame (0x44, 0x45).
  RunState up;
  auto plain = run_example(kJet, up);
  for (uint8_t c : {0x08, 0x09, 0x44, 0x45}) CHECK(colors_of(plain).count(c) == 0);
  RunState down;
  apply_set(down, "_PLgearDown=1");
  auto gear = run_example(kJet, down);
  CHECK(std::count(gear.face_colors.begin(), gear.face_colors.end(), 0x08) == 2);
  CHECK(colors_of(gear).count(0x09) == 0);
  RunState all = down;
  apply_set(all, "_PLleftFlap=-1");
  apply_set(all, "_PLafterBurner=1");
  auto everything = run_example(kJet, all);
  CHECK(std::count(everything.face_colors.begin(), everything.face_colors.end(), 0x09) == 2);
  CHECK(std::count(everything.face_colors.begin(), everything.face_colors.end(), 0x44) == 2);
  CHECK(std::count(everything.face_colors.begin(), everything.face_colors.end(), 0x45) == 2);
  RunState flap_up = down;
  apply_set(flap_up, "_PLleftFlap=0");  // jge taken: no flaps
  CHECK(colors_of(run_example(kJet, flap_up)).count(0x09) == 0);
  // In the frame (the golden cases' states and cameras).
  CHECK(pixels_of(kJet, {}, {"_PLgearDown=1"}, 0x08) > 0);
  CHECK(pixels_of(kJet, {}, {}, 0x08) == 0);
  CHECK(pixels_of(kJet, {{"camera", "330,120,-15"}},
                  {"_PLgearDown=1", "_PLleftFlap=-1", "_PLafterBurner=1"}, 0x09) > 0);
}

TEST_CASE("FA-50 golden jet_lod2: --lod 2 sits below both thresholds and draws the dart") {
  // jet.fas has JumpToLOD thresholds 48 (LOD 0) and 12 (LOD 1): two distinct, so three levels.
  // Level k stands for an apparent size one below the k-th largest threshold:
  //   level 1 -> 47: 47 < 48 branches to LOD 1, 47 >= 12 stays there (colours 0x20 0x21 0x22)
  //   level 2 -> 11: 11 < 48 and 11 < 12: the dart (colours 0x1a, 0x22 only)
  RunState one;
  one.lod = 1;
  auto l1 = run_example(kJet, one);
  auto lod1 = branches_of(l1, branch_kind::kLod);
  REQUIRE(lod1.size() == 2);
  CHECK(lod1[0].value == 47);
  CHECK(lod1[0].limit == 48);
  CHECK(lod1[0].taken);
  CHECK(lod1[1].limit == 12);
  CHECK_FALSE(lod1[1].taken);
  CHECK(colors_of(l1) == std::set<uint8_t>{0x1a, 0x20, 0x21, 0x22});
  RunState two;
  two.lod = 2;
  auto l2 = run_example(kJet, two);
  auto lod2 = branches_of(l2, branch_kind::kLod);
  REQUIRE(lod2.size() == 2);
  CHECK(lod2[0].value == 11);
  CHECK(lod2[0].taken);
  CHECK(lod2[1].value == 11);
  CHECK(lod2[1].taken);
  CHECK(l2.face_colors == std::vector<uint8_t>{0x1a, 0x22});
  // The dart's faces are untextured: the frame holds their colours and no exhaust.
  CHECK(pixels_of(kJet, {{"lod", "2"}}, {}, 0x22) > 0);
  CHECK(pixels_of(kJet, {{"lod", "2"}}, {}, 0x40) == 0);
}

TEST_CASE("FA-45 golden jet_detail0: _detail 0 < threshold 1 branches to the lower-detail block") {
  RunState s;
  s.detail = 0;
  auto sink = run_example(kJet, s);
  auto detail = branches_of(sink, branch_kind::kDetail);
  REQUIRE(detail.size() == 1);
  CHECK(detail[0].taken);
  CHECK(detail[0].value == 0);
  CHECK(detail[0].limit == 1);
  CHECK(sink.face_colors == std::vector<uint8_t>{0x1a, 0x22});  // the dart, LOD 2
  s.detail = 1;                                                 // 1 < 1 is false: full detail
  CHECK(branches_of(run_example(kJet, s), branch_kind::kDetail)[0].taken == false);
  CHECK(pixels_of(kJet, {{"detail", "0"}}, {}, 0x22) > 0);
  CHECK(pixels_of(kJet, {{"detail", "0"}}, {}, 0x40) == 0);
}

TEST_CASE("FA-43 golden tank_destroyed: _destroyed takes JumpToDamage to the wreck") {
  // tank.fas: JumpToDamage @wreck; the wreck draws colours 0x02 and 0x04, the intact hull
  // 0x60..0x64 and the gun 0x08.
  RunState s;
  s.destroyed = true;
  auto sink = run_example(kTank, s);
  auto damage = branches_of(sink, branch_kind::kDamage);
  REQUIRE(damage.size() == 1);
  CHECK(damage[0].taken);
  CHECK(sink.face_colors == std::vector<uint8_t>{0x02, 0x04});
  RunState intact;
  auto hull = run_example(kTank, intact);
  CHECK_FALSE(branches_of(hull, branch_kind::kDamage)[0].taken);
  CHECK(colors_of(hull) == std::set<uint8_t>{0x08, 0x60, 0x61, 0x62, 0x63, 0x64});
  CHECK(pixels_of(kTank, {{"destroyed", "1"}}, {}, 0x02) > 0);
  CHECK(pixels_of(kTank, {{"destroyed", "1"}}, {}, 0x60) == 0);
  CHECK(pixels_of(kTank, {}, {}, 0x02) == 0);
}

}  // namespace fa_golden_expectations_tests
