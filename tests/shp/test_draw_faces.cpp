// Drawing a Starlancer level's faces: the seed's winding and culling (SL-16), caps and two-sided
// faces, fan merging (SL-17) and what each shading mode draws (SL-18).
#include <doctest/doctest.h>

#include <cmath>

#include "interp/shp/colour_tables.h"
#include "interp/shp/faces.h"
#include "raster/palette.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_faces_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

size_t polygons_drawn(const Model& m, std::vector<std::string> sets = {}) {
  KeepSink sink;
  draw(m, request({camera_front()}, std::move(sets)), sink);
  return sink.faces.size();
}

Level with_faces(std::vector<Face> faces) {
  Level l = front_triangle();
  l.faces = std::move(faces);
  return l;
}

// A fan of `records` triangles around vertex 0 whose later normals lean `degrees` away from the
// first's.
Level fan(float degrees) {
  Level l;
  l.vertices = {vertex(0, 0, 0), vertex(100, 0, 0), vertex(100, -100, 0), vertex(0, -100, 0)};
  Face a = face(0, 2, 1), b = face(0, 3, 2);
  a.polygon = b.polygon = 1;
  a.remaining = 1;
  b.remaining = 0;
  const float r = degrees * 3.14159265f / 180.0f;
  b.normal = v3(std::sin(r), 0, std::cos(r));
  l.faces = {a, b};
  return l;
}

}  // namespace

TEST_CASE("SL-16: the front is (v1-v0)x(v2-v0); the back is culled") {
  Level front = front_triangle();
  CHECK(polygons_drawn(one_part(front)) == 1);
  Level back = front_triangle();
  back.faces = {face(0, 1, 2)};  // the other way round: its front points away from the camera
  CHECK(polygons_drawn(one_part(back)) == 0);
  KeepSink sink;
  draw(one_part(back), request({camera_front()}), sink);
  REQUIRE(sink.ops_named("draw_face").size() == 1);
  CHECK(sink.ops_named("draw_face")[0].field("culled") == 1);
}

TEST_CASE("SL-16: an odd strip record (3) fronts (v2-v0)x(v1-v0); an even one (2) does not") {
  Face odd = face(0, 1, 2);
  odd.polygon = 3;
  CHECK(polygons_drawn(one_part(with_faces({odd}))) == 1);
  Face odd_away = face(0, 2, 1);
  odd_away.polygon = 3;
  CHECK(polygons_drawn(one_part(with_faces({odd_away}))) == 0);
  Face even = face(0, 1, 2);
  even.polygon = 2;
  CHECK(polygons_drawn(one_part(with_faces({even}))) == 0);
}

TEST_CASE("SL-16: a 72-byte face record is a plain triangle whatever its polygon field holds") {
  Face short_record = face(0, 1, 2);
  short_record.polygon = 3;  // past the record: the loader never reads it
  short_record.image.reached = 72;
  CHECK_FALSE(short_record.has_polygon_fields());
  CHECK(polygons_drawn(one_part(with_faces({short_record}))) == 0);  // culled like a plain one
  const auto polys = assemble_polygons(with_faces({short_record}));
  REQUIRE(polys.size() == 1);
  CHECK_FALSE(polys[0].reversed);
}

TEST_CASE("SL-18: caps (flag bit 0) are hidden unless caps=1; two-sided (bit 1) never culled") {
  const Level cap = with_faces({face(0, 2, 1, 0, kFaceCap)});
  CHECK(polygons_drawn(one_part(cap)) == 0);
  CHECK(polygons_drawn(one_part(cap), {"caps=1"}) == 1);
  KeepSink sink;
  draw(one_part(cap), request({camera_front()}), sink);
  CHECK(sink.ops_named("draw_face")[0].field("cap_hidden") == 1);
  const Level back_two_sided = with_faces({face(0, 1, 2, 0, kFaceTwoSided)});
  CHECK(polygons_drawn(one_part(back_two_sided)) == 1);
  const Level back = with_faces({face(0, 1, 2, 0, 0)});
  CHECK(polygons_drawn(one_part(back)) == 0);
}

TEST_CASE("SL-17: a fan whose later normal is 2 degrees off merges into one polygon") {
  const auto polys = assemble_polygons(fan(2.0f));
  REQUIRE(polys.size() == 1);
  CHECK(polys[0].records == 2);
  CHECK(polys[0].vertices == std::vector<uint32_t>{0, 2, 1, 2});
  KeepSink sink;
  draw(one_part(fan(2.0f)), request({camera_front()}), sink);
  REQUIRE(sink.faces.size() == 1);
  CHECK(sink.faces[0].corners.size() == 4);
  CHECK(sink.ops_named("draw_face")[0].field("records") == 2);
}

TEST_CASE("SL-17: at 3 degrees the fan stays two triangles; strips never merge") {
  const auto polys = assemble_polygons(fan(3.0f));
  REQUIRE(polys.size() == 2);
  CHECK(polys[0].records == 1);
  CHECK(polys[1].vertices == std::vector<uint32_t>{0, 3, 2});
  Level strip = fan(0.0f);
  strip.faces[0].polygon = strip.faces[1].polygon = 2;
  CHECK(assemble_polygons(strip).size() == 2);
  // A fan record that does not start a polygon (the record before it still has records to come)
  // does not merge either.
  Level inner = fan(0.0f);
  Face lead = face(0, 2, 1);
  lead.polygon = 2;
  lead.remaining = 1;
  inner.faces.insert(inner.faces.begin(), lead);
  CHECK(assemble_polygons(inner).size() == 3);
}

TEST_CASE("SL-17: polygons assembled into a reused list are the ones a fresh list gets") {
  // The renderer refills one list part after part: a merged fan's four corners, refilled with a
  // triangle, must become three; reversed and records must not carry over; polygons past the
  // count stay for the next call.
  Level strip = fan(0.0f);
  strip.faces[0].polygon = 2;
  strip.faces[1].polygon = 3;
  const Level levels[] = {fan(2.0f), fan(3.0f), strip, fan(2.0f), with_faces({face(0, 1, 2)})};
  std::vector<FacePolygon> reused;
  for (const Level& level : levels) {
    const size_t count = assemble_polygons(level, reused);
    const std::vector<FacePolygon> fresh = assemble_polygons(level);
    REQUIRE(count == fresh.size());
    REQUIRE(reused.size() >= count);
    for (size_t i = 0; i < count; ++i) {
      CAPTURE(i);
      CHECK(reused[i].first == fresh[i].first);
      CHECK(reused[i].records == fresh[i].records);
      CHECK(reused[i].vertices == fresh[i].vertices);
      CHECK(reused[i].uv == fresh[i].uv);
      CHECK(reused[i].reversed == fresh[i].reversed);
    }
  }
  CHECK(reused.size() == 2);  // the most any level needed
  CHECK(assemble_polygons(fan(2.0f), reused) == 1);
  CHECK(reused[0].vertices.size() == 4);
  CHECK(assemble_polygons(strip, reused) == 2);
  CHECK(reused[0].vertices.size() == 3);
  CHECK(reused[1].reversed);
}

TEST_CASE("SL-18: untextured modes 0 and 2 are lit in the untextured colour; 2 adds after opaque") {
  const auto tables = colour_tables(raster::default_palette());
  Level l = with_faces({face(0, 2, 1, 2), face(0, 2, 1, 0)});
  KeepSink sink;
  draw(one_part(l), request({camera_front()}), sink);
  REQUIRE(sink.faces.size() == 2);
  // The opaque mode-0 face first, though it is the second record; then the added one.
  CHECK(sink.faces[0].blend.empty());
  CHECK(sink.faces[0].has_shade_rows);
  CHECK(sink.faces[0].event.color == tables->untextured);
  CHECK(sink.faces[0].event.depth_write);
  CHECK(sink.faces[1].blend == blend_bytes(tables->blend(Blend::kAdd)));
  CHECK_FALSE(sink.faces[1].event.depth_write);
  CHECK(sink.ops_named("draw_blended").size() == 1);
  // Lit: the shade follows the light; facing it is brighter than facing away.
  const int32_t lit = sink.faces[0].corners[0].shade;
  KeepSink dark;
  draw(one_part(l), request({camera_front()}, {"light=0,0,-1"}), dark);
  CHECK(dark.faces[0].corners[0].shade < lit);
}

TEST_CASE("SL-18: mode 1 draws lines: edge k unless edge-mask bit k, culled by the face plane") {
  Face wire = face(0, 2, 1, 1);
  wire.edge_mask = 0b010;  // edge 1 (v1-v2) left out
  KeepSink sink;
  draw(one_part(with_faces({wire})), request({camera_front()}), sink);
  REQUIRE(sink.faces.size() == 2);
  CHECK(sink.faces[0].corners.size() == 2);
  CHECK(sink.faces[0].corners[0].index == 0);
  CHECK(sink.faces[0].corners[1].index == 2);
  CHECK(sink.faces[1].corners[0].index == 1);  // edge 2: v2-v0 of the record (1 -> 0)
  CHECK(sink.faces[1].corners[1].index == 0);
  CHECK(sink.faces[0].event.color == colour_tables(raster::default_palette())->wire);
  Face back_wire = face(0, 1, 2, 1);
  KeepSink culled;
  draw(one_part(with_faces({back_wire})), request({camera_front()}), culled);
  CHECK(culled.faces.empty());
}

TEST_CASE("SL-18: the modes' texture, light and blend follow the fact sheet's table") {
  CHECK(mode_style(0).lit);
  CHECK_FALSE(mode_style(0).textured);
  CHECK(mode_style(2).blend == Blend::kAdd);
  CHECK(mode_style(3).textured);
  CHECK_FALSE(mode_style(3).lit);
  CHECK(mode_style(4).blend == Blend::kAdd);
  CHECK(mode_style(5).blend == Blend::kAlpha);
  CHECK(mode_style(6).lit);
  CHECK(mode_style(6).lightmap);
  CHECK(mode_style(7).highlight);
  CHECK(mode_style(8).blend == Blend::kAdd);
  CHECK(mode_style(8).lit);
  CHECK(mode_style(9).blend == Blend::kNone);
  CHECK_FALSE(mode_style(9).textured);
  // Unlit textured modes draw without shade rows; with no texture they draw untextured.
  KeepSink sink;
  draw(one_part(with_faces({face(0, 2, 1, 3)})), request({camera_front()}), sink);
  REQUIRE(sink.faces.size() == 1);
  CHECK_FALSE(sink.faces[0].has_shade_rows);
  CHECK_FALSE(sink.faces[0].event.textured);
}

TEST_CASE("SL-18: blended faces are drawn farthest first after the opaque ones") {
  Level l;
  l.vertices = {vertex(-100, 100, 0),   vertex(100, 100, 0),   vertex(0, -100, 0),
                vertex(-100, 100, 300), vertex(100, 100, 300), vertex(0, -100, 300)};
  l.faces = {face(3, 5, 4, 2), face(0, 2, 1, 2),
             face(0, 2, 1, 0)};  // near added, far added, opaque
  KeepSink sink;
  draw(one_part(l), request({camera_front()}), sink);
  REQUIRE(sink.faces.size() == 3);
  CHECK(sink.faces[0].blend.empty());
  CHECK(sink.faces[1].corners[0].index == 0);  // the far one (z = 0) first
  CHECK(sink.faces[2].corners[0].index == 3);
  // A sort bias moves a face in the order: bias / 3 is added to its depth.
  l.faces[0].sort_bias = F32::of(2000);
  KeepSink biased;
  draw(one_part(l), request({camera_front()}), biased);
  CHECK(biased.faces[1].corners[0].index == 3);
}

}  // namespace shp_draw_faces_tests
