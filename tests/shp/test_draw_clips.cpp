// Animation clips (SL-23; facts §9): the clip time for each playback mode, linear keyframes (from
// a zero pose at time 0 before the first, the last held), the pose's rotation O^T R O about the
// mount point with flagged axes zeroed, and the events a step fires.
#include <doctest/doctest.h>

#include <cmath>

#include "interp/shp/pose.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_clips_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

Clip clip(int16_t mode, int32_t length, std::string name = "deploy") {
  Clip c;
  c.mode = mode;
  c.length = length;
  c.name = std::move(name);
  Keyframe k1;
  k1.time = 10;
  k1.offset = v3(100, 0, 0);
  Keyframe k2;
  k2.time = 20;
  k2.offset = v3(100, 50, 0);
  c.keyframes = {k1, k2};
  return c;
}

ClipEvent event_at(int32_t time, int32_t kind) {
  ClipEvent e;
  e.time = time;
  e.kind = kind;
  return e;
}

}  // namespace

TEST_CASE("SL-23: clip time per playback mode: once stops, loop wraps, ping-pong comes back") {
  CHECK(clip_time(clip(1, 20), 5) == 5);
  CHECK(clip_time(clip(1, 20), 25) == 20);
  CHECK(clip_time(clip(0, 20), 25) == 20);  // "none" plays as once (assumed)
  CHECK(clip_time(clip(2, 20), 25) == 5);
  CHECK(clip_time(clip(2, 20), 40) == 0);
  CHECK(clip_time(clip(3, 20), 25) == 15);
  CHECK(clip_time(clip(3, 20), 45) == 5);
  CHECK(clip_time(clip(2, 0), 7) == 0);
}

TEST_CASE(
    "SL-23: keyframes interpolate linearly; before the first from zero at time 0; last held") {
  const Clip c = clip(1, 30);
  CHECK(clip_pose(c, 0).offset[0] == 0.0);
  CHECK(clip_pose(c, 5).offset[0] == doctest::Approx(50.0));
  CHECK(clip_pose(c, 10).offset[0] == doctest::Approx(100.0));
  CHECK(clip_pose(c, 15).offset[1] == doctest::Approx(25.0));
  CHECK(clip_pose(c, 29).offset[1] == doctest::Approx(50.0));
}

TEST_CASE("SL-23: a part's pose at a frame for each playback mode moves it and its children") {
  for (const auto& [mode, frame, expected_x] : std::vector<std::tuple<int16_t, uint32_t, int32_t>>{
           {1, 5, 50}, {1, 100, 100}, {2, 25, 50}, {3, 35, 50}, {3, 25, 100}}) {
    CAPTURE(mode);
    CAPTURE(frame);
    Model m;
    Part parent = part("arm");
    parent.levels.push_back(front_triangle());
    parent.clips = {clip(mode, 20, "Deploy")};
    Part child = part("hand", v3(0, 0, 0), 0);
    child.levels.push_back(front_triangle());
    m.parts = {parent, child};
    KeepSink sink;
    draw(m, request({camera_front(3000), {"frame", std::to_string(frame)}}, {"clip=deploy"}), sink);
    REQUIRE(sink.faces.size() == 2);
    CHECK(sink.faces[0].corners[0].model_wide[0] == -100 + expected_x);
    CHECK(sink.faces[1].corners[0].model_wide[0] == -100 + expected_x);  // the child follows
  }
}

TEST_CASE("SL-23: rotation O^T R O about the mount point; axes flagged at 0xC8 stay still") {
  Model m;
  Part p = part("turret", v3(0, 0, 0));
  p.levels.push_back(front_triangle());
  p.levels[0].faces[0].flags = 0x02;  // two-sided: drawn however it turns
  p.mount = v3(0, 100, 0);
  Clip c;
  c.mode = 1;
  c.length = 10;
  c.name = "spin";
  Keyframe k;
  k.time = 0;
  k.angles = v3(0, 0, 3.14159265f / 2);  // a quarter turn about Z
  c.keyframes = {k};
  p.clips = {c};
  m.parts = {p};
  KeepSink sink;
  draw(m, request({camera_front(3000)}, {"clip=spin"}), sink);
  REQUIRE(sink.faces.size() == 1);
  // Vertex (-100, 100, 0) is 100 left of the mount (0, 100): turned a quarter about Z it lies
  // 100 above or below it, x = 0.
  const auto turned = sink.faces[0].corners[0].model_wide;
  CHECK(turned[0] == 0);
  CHECK(std::abs(turned[1] - 100) == 100);
  // Flag Z as not animated: the part stays where it is.
  m.parts[0].axis_not_animated = {0, 0, 1};
  KeepSink still;
  draw(m, request({camera_front(3000)}, {"clip=spin"}), still);
  REQUIRE(still.faces.size() == 1);
  CHECK(still.faces[0].corners[0].model_wide == std::array<int32_t, 3>{-100, 100, 0});
  // The orientation conjugates the rotation: O swapping X and Z turns Rz into a turn about X,
  // which leaves a point on the X axis through the mount alone.
  m.parts[0].axis_not_animated = {0, 0, 0};
  m.parts[0].orientation = {F32::of(0), F32::of(0), F32::of(1), F32::of(0), F32::of(1),
                            F32::of(0), F32::of(1), F32::of(0), F32::of(0)};
  KeepSink conj;
  draw(m, request({camera_front(3000)}, {"clip=spin"}), conj);
  REQUIRE(conj.faces.size() == 1);
  CHECK(conj.faces[0].corners[0].model_wide == std::array<int32_t, 3>{-100, 100, 0});
}

TEST_CASE("SL-23: clip events fire for integer times in [old, new); ping-pong fires none") {
  Model m = one_part(front_triangle());
  Clip once = clip(1, 20);
  once.events = {event_at(4, 0), event_at(5, 2)};
  m.parts[0].clips = {once};
  CHECK(fired_events(m, "deploy", 4).empty());      // [3, 4)
  CHECK(fired_events(m, "deploy", 5).size() == 1);  // [4, 5)
  CHECK(fired_events(m, "DEPLOY", 6).at(0).kind == 2);
  Clip loop = clip(2, 20);
  loop.events = {event_at(19, 0), event_at(0, 2)};
  m.parts[0].clips = {loop};
  // The wrapping step 19 -> 0 covers [19, 20) and [0, 0): the event at 19 fires; the one at 0
  // fires on the next step, [0, 1).
  REQUIRE(fired_events(m, "deploy", 20).size() == 1);
  CHECK(fired_events(m, "deploy", 20)[0].time == 19);
  REQUIRE(fired_events(m, "deploy", 21).size() == 1);
  CHECK(fired_events(m, "deploy", 21)[0].time == 0);
  Clip pp = clip(3, 20);
  pp.events = {event_at(4, 0)};
  m.parts[0].clips = {pp};
  CHECK(fired_events(m, "deploy", 5).empty());
  // Drawing reports them as clip_event steps with their values.
  m.parts[0].clips = {once};
  KeepSink sink;
  draw(m, request({camera_front(), {"frame", "5"}}, {"clip=deploy"}), sink);
  const auto events = sink.ops_named("clip_event");
  REQUIRE(events.size() == 1);
  CHECK(events[0].field("time") == 4);
  CHECK(events[0].field("kind") == 0);
}

}  // namespace shp_draw_clips_tests
