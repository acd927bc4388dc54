// Shadows (AP-31, AP-32, AP-33): projection along the sun onto a horizontal plane, the face
// styles that cast, and receivers with property bit 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "interp/apache/shadow.h"
#include "tests/apache/apache_fixture.h"

namespace apache_shadows_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;
using shapevm::testing::ApacheSink;
using shapevm::testing::box_vertices;
using shapevm::testing::run_apache;

TEST_CASE("AP-31 vertices are projected along the sun onto the plane") {
  // Sun up and toward +x at 45 degrees: a point 50 above the plane lands 50 toward -x.
  auto p = apache::project_onto_plane({100, 50, 7}, {1, 1, 0}, 0);
  REQUIRE(p);
  CHECK(*p == std::array<int64_t, 3>{50, 0, 7});
  p = apache::project_onto_plane({0, 300, 0}, {0, 2, -1}, 100);
  REQUIRE(p);
  CHECK(*p == std::array<int64_t, 3>{0, 100, 100});
  CHECK_FALSE(apache::project_onto_plane({0, 1, 0}, {1, 0, 0}, 0));  // sun on the horizon
}

namespace {
const std::string kCaster = "model 0 caster\n  properties 1\n" + box_vertices() + R"(program
  face polygon colour=10 : 3 2 1 0
  face glass : 7 6 2 3
  face points colour=11 : 0 1
  face polyline colour=12 : 0 1 2
  face heathaze : 3 2 1 0
  face texture texture=1 colour=9 : 2/0/0 6/1/0 5/1/1 1/0/1
  ret
end
model 1 deck "carrier"
  properties 2
  bounds -1000 1000 0 300 -4000 4000
  height 300
  vertex 0 0 0
program
  ret
end
model 2 noshadow
)" + box_vertices() + "program\n  face polygon colour=10 : 3 2 1 0\n  ret\nend\n";

std::vector<uint16_t> shadow_patterns(const ApacheSink& sink) {
  std::vector<uint16_t> out;
  for (const auto& f : sink.faces)
    if (f.shadow) out.push_back(f.pattern);
  return out;
}
}  // namespace

TEST_CASE("AP-32 faces cast a fine black mesh, glass a medium mesh, points lines and haze none") {
  ApacheFixture f(kCaster);
  apache::RunState s;
  s.camera = {6000, 0, 60};  // from above, so the top and the flattened faces face the viewer
  s.light = {0, 1, 0};       // sun overhead: the shadow is the footprint
  ApacheSink sink;
  auto r = run_apache(f, 0, s, sink);
  CHECK(r.clean);
  CHECK(r.shadow_faces > 0);
  // The shadow pass runs first and every shadow face is black.
  REQUIRE_FALSE(sink.faces.empty());
  CHECK(sink.faces.front().shadow);
  for (const auto& face : sink.faces) {
    if (!face.shadow) continue;
    CHECK(face.color == apache::assumed::kShadowColour);
    CHECK_FALSE(face.textured);
    CHECK(face.shape == FaceShape::kPolygon);
  }
  const auto patterns = shadow_patterns(sink);
  // Every polygon casts whichever way its flattened outline winds (primaries are not culled):
  // the polygon and the texture a fine mesh, the glass a medium one.
  CHECK(std::count(patterns.begin(), patterns.end(), apache::assumed::kFineMesh) == 2);
  CHECK(std::count(patterns.begin(), patterns.end(), apache::assumed::kMediumMesh) == 1);
  CHECK(patterns.size() == r.shadow_faces);
  CHECK(apache::shadow_style(*apache::packet_type(0)) == apache::ShadowStyle::kNone);
  CHECK(apache::shadow_style(*apache::packet_type(10)) == apache::ShadowStyle::kNone);
  CHECK(apache::shadow_style(*apache::packet_type(21)) == apache::ShadowStyle::kNone);
  CHECK(apache::shadow_style(*apache::packet_type(6)) == apache::ShadowStyle::kMediumMesh);
  CHECK(apache::shadow_style(*apache::packet_type(19)) == apache::ShadowStyle::kFineMesh);
  // Property bit 0 off: no shadow pass. --set shadows=0: none either.
  ApacheSink none;
  run_apache(f, 2, s, none);
  CHECK(shadow_patterns(none).empty());
  s.shadows = false;
  ApacheSink off;
  run_apache(f, 0, s, off);
  CHECK(shadow_patterns(off).empty());
}

TEST_CASE("AP-31 the shadow lies on the terrain plane or the cloud layer") {
  ApacheFixture f(kCaster);
  apache::RunState s;
  s.camera = {6000, 0, 60};
  s.light = {0, 1, 0};
  // With the sun overhead every shadow corner has the same view position as the model's footprint
  // at the plane height: compare against the ground vertices' views (y = 0 is the model's base).
  ApacheSink ground;
  run_apache(f, 0, s, ground);
  std::set<std::pair<int32_t, int32_t>> footprint;
  for (const auto& face : ground.faces)
    if (face.shadow)
      for (const auto& v : face.view) footprint.insert({v.x, v.z});
  s.ground = -400;  // a lower plane: the shadow moves
  ApacheSink lower;
  run_apache(f, 0, s, lower);
  std::set<std::pair<int32_t, int32_t>> moved;
  for (const auto& face : lower.faces)
    if (face.shadow)
      for (const auto& v : face.view) moved.insert({v.x, v.z});
  CHECK_FALSE(footprint.empty());
  CHECK(footprint != moved);
  // A cloud layer below the model (which sits at height 0) takes over from the ground.
  s.ground.reset();
  s.cloud = -400;
  ApacheSink cloud;
  run_apache(f, 0, s, cloud);
  std::set<std::pair<int32_t, int32_t>> on_cloud;
  for (const auto& face : cloud.faces)
    if (face.shadow)
      for (const auto& v : face.view) on_cloud.insert({v.x, v.z});
  CHECK(on_cloud == moved);
}

TEST_CASE(
    "AP-33 property bit 1 raises the plane to the receiver's height inside its rotated bounds") {
  ApacheFixture f(kCaster);
  const apache::ModelHeader& deck = f.archive.record(1)->header;
  CHECK(deck.receives_shadows());
  CHECK(apache::receiver_plane(deck, 0, 500, 3000) == std::optional<int32_t>(300));
  CHECK_FALSE(apache::receiver_plane(deck, 0, 3000, 500));
  // Turned 90 degrees, the long axis lies along x.
  CHECK(apache::receiver_plane(deck, 90, 3000, 500) == std::optional<int32_t>(300));
  CHECK_FALSE(apache::receiver_plane(deck, 90, 500, 3000));
  // A header without bit 1 never receives.
  CHECK_FALSE(apache::receiver_plane(f.archive.record(0)->header, 0, 0, 0));
  // In a run: over the deck the shadow moves up to the deck height.
  apache::RunState s;
  s.camera = {6000, 0, 60};
  s.light = {0, 1, 0};
  s.ground = -400;
  ApacheSink sea;
  run_apache(f, 0, s, sea);
  s.receiver = 1;
  ApacheSink on_deck;
  run_apache(f, 0, s, on_deck);
  s.ground = 300;
  s.receiver.reset();
  ApacheSink at_300;
  run_apache(f, 0, s, at_300);
  auto views = [](const ApacheSink& sink) {
    std::vector<ViewPoint> out;
    for (const auto& face : sink.faces)
      if (face.shadow) out.insert(out.end(), face.view.begin(), face.view.end());
    return out;
  };
  CHECK(views(on_deck) == views(at_300));
  CHECK(views(on_deck) != views(sea));
}

namespace {

// Records 0x40a (1034), 0x4ba (1210) and 0x4bb (1211), each with its own face program: 0x40a
// draws one polygon, the others two polygons and a glass face. `with_shared` leaves 0x40a out.
std::string shared_shadow_archive(bool with_shared) {
  std::string text = "slots 1212\n";
  if (with_shared) {
    text += "model 1034 shadowgeo\n" + box_vertices() +
            "program\nshared:\n  face polygon colour=5 : 3 2 1 0\n  ret\nend\n";
  }
  for (uint32_t record : {1209u, 1210u, 1211u}) {
    text += "model " + std::to_string(record) + " m" + std::to_string(record) +
            "\n  properties 1\n" + box_vertices() +
            "program\n  face polygon colour=10 : 3 2 1 0\n  face polygon colour=11 : 6 7 4 "
            "5\n  face glass : 7 6 2 3\n  ret\nend\n";
  }
  return text;
}

}  // namespace

TEST_CASE("AP-31 models 0x4ba and 0x4bb cast their shadow with model 0x40a's geometry") {
  ApacheFixture f(shared_shadow_archive(true));
  apache::RunState s;
  s.camera = {6000, 0, 60};
  s.light = {0, 1, 0};
  const uint32_t shared = f.label(0x40a, "shared");
  for (uint32_t record : {0x4bau, 0x4bbu}) {
    INFO("record " << record);
    ApacheSink sink;
    auto r = run_apache(f, record, s, sink);
    CHECK(r.clean);
    // One shadow face, from 0x40a's program; the model itself still draws its own three faces.
    CHECK(r.shadow_faces == 1);
    std::vector<uint32_t> shadow_offsets;
    for (const auto& face : sink.faces)
      if (face.shadow) shadow_offsets.push_back(face.offset);
    CHECK(shadow_offsets == std::vector<uint32_t>{shared});
    CHECK(sink.model_faces().size() == 3);
    CHECK(sink.has_diagnostic("casts its shadow with record 0x40a's geometry"));
  }
  // Any other record casts with its own program: two polygons (fine) and the glass (medium).
  ApacheSink own;
  auto r = run_apache(f, 1209, s, own);
  CHECK(r.shadow_faces == 3);
  CHECK_FALSE(own.has_diagnostic("0x40a"));
}

TEST_CASE("AP-31 without model 0x40a in the archive, 0x4ba casts its own shadow and says so") {
  ApacheFixture f(shared_shadow_archive(false));
  apache::RunState s;
  s.camera = {6000, 0, 60};
  s.light = {0, 1, 0};
  ApacheSink sink;
  auto r = run_apache(f, 0x4ba, s, sink);
  CHECK(r.clean);
  CHECK(r.shadow_faces == 3);
  CHECK(
      sink.has_diagnostic("record 0x4ba takes its shadow geometry from record 0x40a, which this "
                          "archive does not hold: its own geometry casts the shadow"));
  CHECK(apache::shadow_geometry_record(0x4ba) == std::optional<uint32_t>(0x40a));
  CHECK(apache::shadow_geometry_record(0x4bb) == std::optional<uint32_t>(0x40a));
  CHECK_FALSE(apache::shadow_geometry_record(0x4bc));
  CHECK_FALSE(apache::shadow_geometry_record(0x40a));
}

}  // namespace apache_shadows_tests
