// Parts, levels of detail and the model frame: the seed's reading of the level distances and the
// ported alternative (SL-15), a part's placement (SL-20), and the model frame's axes on screen
// (SL-21).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "interp/shp/pose.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_parts_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

// One part with three levels at 1000, 2000 and 3000 units, each level one triangle.
Model three_levels(uint32_t flags = 0) {
  Model m;
  Part p = part("hull");
  p.flags = flags;
  for (float d : {1000.0f, 2000.0f, 3000.0f}) p.levels.push_back(front_triangle(0, d));
  m.parts.push_back(std::move(p));
  return m;
}

int64_t level_at(const Model& m, int distance, std::vector<std::string> sets = {},
                 std::vector<Setting> extra = {}) {
  KeepSink sink;
  std::vector<Setting> options = {camera_front(distance)};
  options.insert(options.end(), extra.begin(), extra.end());
  draw(m, request(options, std::move(sets)), sink);
  return sink.ops_named("draw_part").at(0).field("level");
}

int64_t depth_units(int model_units) {
  return int64_t{model_units} * 16;
}

}  // namespace

TEST_CASE("SL-15: seed rule: a level applies beyond its distance (both sides of each threshold)") {
  const Model m = three_levels();
  CHECK(level_at(m, 500) == 0);  // before the first: level 0
  CHECK(level_at(m, 1500) == 0);
  CHECK(level_at(m, 1999) == 0);
  CHECK(level_at(m, 2001) == 1);
  CHECK(level_at(m, 2999) == 1);
  CHECK(level_at(m, 3001) == 2);
  CHECK(level_at(m, 90000) == 2);  // never cut off
}

TEST_CASE(
    "SL-15: ported rule: depth / 3 below a level's distance chooses it; past the last, none") {
  const Model m = three_levels();
  const std::vector<std::string> ported = {"lod_rule=ported"};
  CHECK(level_at(m, 2990, ported) == 0);  // 996 < 1000
  CHECK(level_at(m, 3010, ported) == 1);  // 1003
  CHECK(level_at(m, 5990, ported) == 1);
  CHECK(level_at(m, 6010, ported) == 2);
  CHECK(level_at(m, 8990, ported) == 2);
  CHECK(level_at(m, 9010, ported) == -1);  // 3003 >= 3000: not drawn
  KeepSink sink;
  draw(m, request({camera_front(9010)}, ported), sink);
  CHECK(sink.faces.empty());
}

TEST_CASE("SL-15: a single-level part always draws; --lod forces a level (clamped)") {
  const Model single = one_part(front_triangle(0, 0));
  CHECK(level_at(single, 100000, {"lod_rule=ported"}) == 0);
  const Model m = three_levels();
  CHECK(level_at(m, 500, {}, {{"lod", "2"}}) == 2);
  CHECK(level_at(m, 500, {}, {{"lod", "7"}}) == 2);
  CHECK(level_at(m, 9010, {"lod_rule=ported"}, {{"lod", "1"}}) == 1);
}

TEST_CASE("SL-15: geomorph weight 4(t - 0.75) in the last quarter of a level's band") {
  const Model m = three_levels(kPartGeomorphPositions);
  const Part& p = m.parts[0];
  // Seed band of level 0 toward level 1: beyond 1000 up to 2000.
  CHECK(choose_level(p, depth_units(1500), LodRule::kSeed, std::nullopt).morph == 0);
  CHECK(choose_level(p, depth_units(1750), LodRule::kSeed, std::nullopt).morph == 0);
  CHECK(choose_level(p, depth_units(1875), LodRule::kSeed, std::nullopt).morph == 32768);
  CHECK(choose_level(p, depth_units(1999), LodRule::kSeed, std::nullopt).morph > 64000);
  // No flags, no morph; the last level has no coarser one.
  const Model plain = three_levels();
  CHECK(choose_level(plain.parts[0], depth_units(1875), LodRule::kSeed, std::nullopt).morph == 0);
  CHECK(choose_level(p, depth_units(3500), LodRule::kSeed, std::nullopt).morph == 0);
}

TEST_CASE("SL-15: geomorph moves a vertex toward its counterpart in the next coarser level") {
  Model m = three_levels(kPartGeomorphPositions);
  Level& fine = m.parts[0].levels[0];
  Level& coarse = m.parts[0].levels[1];
  fine.vertices[2].counterpart = 2;
  coarse.vertices[2].position = v3(0, -300, 0);  // the coarse level's apex is lower
  KeepSink still, morphed;
  draw(m, request({camera_front(1500), {"lod", "0"}}), still);  // forced: no morph
  draw(m, request({camera_front(1875)}), morphed);
  REQUIRE(still.faces.size() == 1);
  REQUIRE(morphed.faces.size() == 1);
  // Corner order v0 v2 v1: the apex is corner 1; halfway toward -300 from -100 is -200.
  CHECK(still.faces[0].corners[1].model_wide[1] == -100);
  CHECK(morphed.faces[0].corners[1].model_wide[1] == -200);
}

TEST_CASE("SL-20: a child's origin is in the model frame, whatever its parent; O not applied") {
  Model m;
  Part parent = part("parent", v3(50, 0, 0));
  parent.levels.push_back(front_triangle());
  Part child = part("child", v3(100, 0, 0), 0);
  // A quarter turn about Y in the orientation: not applied to the mesh at rest.
  child.orientation = {F32::of(0), F32::of(0),  F32::of(1), F32::of(0), F32::of(1),
                       F32::of(0), F32::of(-1), F32::of(0), F32::of(0)};
  child.levels.push_back(front_triangle());
  m.parts = {parent, child};
  KeepSink sink;
  draw(m, request({camera_front(2000)}), sink);
  REQUIRE(sink.faces.size() == 2);
  // Corner 0 is vertex (-100, 100, 0): origin + vertex.
  CHECK(sink.faces[0].corners[0].model_wide == std::array<int32_t, 3>{-50, 100, 0});
  CHECK(sink.faces[1].corners[0].model_wide == std::array<int32_t, 3>{0, 100, 0});
  const auto places = place_parts(m, parse_draw_state(request()));
  CHECK(places[1].t == P3{100 * 16, 0, 0});
  CHECK(places[1].m == identity());
}

TEST_CASE("SL-20: part flag 0x04 (damaged model) is hidden while intact; --destroyed shows it") {
  Model m = one_part(front_triangle());
  m.parts[0].flags = kPartDamagedModel;
  KeepSink intact, destroyed;
  draw(m, request({camera_front()}), intact);
  draw(m, request({camera_front(), {"destroyed", "1"}}), destroyed);
  CHECK(intact.faces.empty());
  CHECK(intact.ops_named("draw_part")[0].field("hidden") == 1);
  CHECK(destroyed.faces.size() == 1);
}

TEST_CASE("SL-21: the model frame is X right, Y down, Z forward: seen from the nose") {
  // A triangle whose apex is at +Y (the belly) and whose right corner is at +X.
  Level l;
  l.vertices = {vertex(0, 0, 0), vertex(100, 0, 0), vertex(0, 100, 0)};
  l.faces = {face(0, 1, 2), face(0, 2, 1)};  // both windings, so one faces the camera
  KeepSink sink;
  draw(one_part(l), request({camera_front(1000)}), sink);
  REQUIRE(sink.faces.size() == 1);
  const auto& c = sink.faces[0].corners;
  const auto find = [&](uint32_t index) {
    for (const auto& k : c)
      if (k.index == index) return k.view;
    return ViewPoint{};
  };
  // Seen from in front of the nose the ship's right (+X) is on the viewer's left, its belly (+Y)
  // below; z toward the viewer is negative in front of the camera.
  CHECK(find(1).x < find(0).x);
  CHECK(find(2).y < find(0).y);
  CHECK(find(0).z < 0);
  // The record fronting +Z is the one drawn: (v1-v0)x(v2-v0) = (100,0,0)x(0,100,0) = +Z.
  CHECK(sink.faces[0].corners[1].index == 1);
}

TEST_CASE("SL-21: --camera distance,heading,pitch turns the view; the default fits the model") {
  const Model m = one_part(front_triangle());
  KeepSink front, side, fitted;
  draw(m, request({{"camera", "1000,0,0"}}), front);
  draw(m, request({{"camera", "1000,180,0"}}), side);
  draw(m, request(), fitted);
  CHECK(front.faces.size() == 1);
  CHECK(side.faces.empty());  // from behind, the one-sided triangle is culled
  REQUIRE(fitted.faces.size() == 1);
  // Fitted (--camera fit): every corner lies beyond the near plane (100 units) and projects inside
  // 7/8 of the 640x480 frame each way from its centre (focal 4/5 of 480 = 384 pixels); the
  // farthest reaches well out into the frame. Shares in 1/1000 of the half frame.
  int64_t widest = 0;
  for (const auto& c : fitted.faces[0].corners) {
    const int64_t depth = -int64_t{c.view.z};
    CHECK(depth >= 100 * 16);
    const int64_t across = 384 * std::abs(int64_t{c.view.x}) * 1000 / depth / 320;
    const int64_t up = 384 * std::abs(int64_t{c.view.y}) * 1000 / depth / 240;
    CHECK(across <= 875);
    CHECK(up <= 875);
    widest = std::max({widest, across, up});
  }
  CHECK(widest >= 400);
}

TEST_CASE("SL-15: a 28-byte vertex record has no counterpart: geomorph leaves it in place") {
  Model m = three_levels(kPartGeomorphPositions);
  Level& fine = m.parts[0].levels[0];
  m.parts[0].levels[1].vertices[0].position = v3(0, -300, 0);
  fine.vertices[2].counterpart = 0;  // past the record's reach: never read
  fine.vertices[2].image.reached = 28;
  KeepSink morphed;
  draw(m, request({camera_front(1875)}), morphed);
  REQUIRE(morphed.faces.size() == 1);
  CHECK(morphed.faces[0].corners[1].model_wide[1] == -100);
}

}  // namespace shp_draw_parts_tests
