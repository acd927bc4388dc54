// `export` of a Starlancer model (SL-21): a node per part under its parent's, translated by
// origin less the parent's origin and not turned, positions in the part's frame, normals and
// texture coordinates from the top, wire and cap faces dropped, odd strips' last two corners
// swapped, and the half turn to Y-up as axis signs.
#include <doctest/doctest.h>

#include "interp/shp/draw_assets.h"
#include "interp/shp/export.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_export_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

ExportScene export_of(const Model& m, std::vector<Setting> options = {}) {
  const auto assets = load_draw_assets("", "", "");
  return export_model(m, request(std::move(options)), "test.shp", *assets);
}

}  // namespace

TEST_CASE("SL-21: export of a known triangle: node, positions, corners, normals, texcoords") {
  Level l;
  l.vertices = {vertex(1, 2, 3, 0, 0, 1), vertex(4, 5, 6, 0, 1, 0), vertex(7, 8, 9, 1, 0, 0)};
  Face f = face(0, 1, 2, 3);
  f.u = {F32::of(0.25f), F32::of(0.5f), F32::of(0.75f)};
  f.v = {F32::of(0.0f), F32::of(0.5f), F32::of(1.0f)};
  Material mat;
  mat.texture = "hull";
  l.materials = {mat};
  l.faces = {f};
  Model m = one_part(l);
  m.parts[0].origin = v3(10, 20, 30);
  const ExportScene scene = export_of(m);
  CHECK(scene.axis_signs == std::array<int, 3>{-1, -1, 1});
  CHECK(scene.name == "test.shp");
  REQUIRE(scene.nodes.size() == 1);
  const ExportNode& node = scene.nodes[0];
  CHECK(node.name == "hull");
  CHECK(node.parent == -1);
  CHECK(node.translation == std::array<double, 3>{10, 20, 30});
  REQUIRE(node.positions.size() == 3);
  CHECK(node.positions[1] == std::array<double, 3>{4, 5, 6});  // the part's frame
  REQUIRE(node.faces.size() == 1);
  const ExportFace& face0 = node.faces[0];
  CHECK(face0.corners == std::vector<uint32_t>{0, 1, 2});
  CHECK(face0.normals[1] == std::array<double, 3>{0, 1, 0});
  CHECK(face0.texcoords[0] == std::array<double, 2>{0.25, 0.0});
  CHECK(face0.texcoords[2] == std::array<double, 2>{0.75, 1.0});
  CHECK(face0.material == "hull");
  CHECK_FALSE(face0.line);
}

TEST_CASE("SL-21: export drops wire and cap faces and swaps an odd strip's last two corners") {
  Level l = front_triangle();
  Face odd = face(0, 1, 2);
  odd.polygon = 3;
  l.faces = {face(0, 1, 2, 1), face(0, 1, 2, 0, 0x01), odd, face(0, 2, 1, 0, 0x02)};
  const ExportScene scene = export_of(one_part(l));
  REQUIRE(scene.nodes[0].faces.size() == 2);
  CHECK(scene.nodes[0].faces[0].corners == std::vector<uint32_t>{0, 2, 1});
  CHECK(scene.nodes[0].faces[1].corners == std::vector<uint32_t>{0, 2, 1});  // two-sided kept
  CHECK(scene.nodes[0].faces[0].material.empty());  // untextured mode: no material
}

TEST_CASE("SL-20: export hangs each part under its parent's node, translated, not turned") {
  Model m;
  Part child = part("child", v3(100, 10, 0), 1);  // listed before its parent
  child.levels.push_back(front_triangle());
  child.orientation = {F32::of(0), F32::of(0),  F32::of(1), F32::of(0), F32::of(1),
                       F32::of(0), F32::of(-1), F32::of(0), F32::of(0)};
  Part parent = part("parent", v3(40, 0, 0));
  parent.levels.push_back(front_triangle());
  m.parts = {child, parent};
  const ExportScene scene = export_of(m);
  REQUIRE(scene.nodes.size() == 2);
  CHECK(scene.nodes[0].name == "parent");  // parents come before their children
  CHECK(scene.nodes[1].name == "child");
  CHECK(scene.nodes[1].parent == 0);
  CHECK(scene.nodes[1].translation == std::array<double, 3>{60, 10, 0});
  CHECK(scene.nodes[1].positions[0] == std::array<double, 3>{-100, 100, 0});
}

TEST_CASE("SL-15: export writes the level --lod names (default 0)") {
  Model m = one_part(front_triangle(0, 1000));
  Level coarse = front_triangle(0, 2000);
  coarse.vertices[0].position = v3(-50, 50, 0);
  m.parts[0].levels.push_back(coarse);
  CHECK(export_of(m).nodes[0].positions[0] == std::array<double, 3>{-100, 100, 0});
  CHECK(export_of(m, {{"lod", "1"}}).nodes[0].positions[0] == std::array<double, 3>{-50, 50, 0});
}

}  // namespace shp_draw_export_tests
