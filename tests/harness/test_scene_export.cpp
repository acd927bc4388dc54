// The OBJ and glTF writers of an export scene (harness/scene_export.h): the part tree, the axis
// change to Y up, OBJ's bottom-up v, winding kept under the half turn and turned over under a
// mirror, lines, materials; and `export` writing glTF for an engine without parts.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "harness/scene_export.h"
#include "raster/palette.h"
#include "tests/tools/run_cli.h"

namespace harness_scene_export_tests {

using namespace shapevm;
using shapevm::harness::scene_to_gltf;
using shapevm::harness::scene_to_obj;

namespace {

// A root part with one textured triangle and a child part, 10 units along +X, with a line.
ExportScene two_part_scene(std::array<int, 3> signs) {
  ExportScene s;
  s.name = "test";
  s.axis_signs = signs;
  s.palette = raster::default_palette();
  ExportNode& root = s.nodes.emplace_back();
  root.name = "hull";
  root.positions = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}};
  ExportFace& f = root.faces.emplace_back();
  f.corners = {0, 1, 2};
  f.material = "skin";
  f.texcoords = {{0, 0}, {1, 0}, {0, 0.25}};
  f.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  ExportNode& gun = s.nodes.emplace_back();
  gun.name = "gun";
  gun.parent = 0;
  gun.translation = {10, 0, 0};
  gun.positions = {{0, 0, 0}, {0, 0, 5}};
  ExportFace& l = gun.faces.emplace_back();
  l.corners = {0, 1};
  l.line = true;
  l.color = 40;
  return s;
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

nlohmann::json gltf_json(const ExportScene& s) {
  const auto bytes = scene_to_gltf(s, false);
  return nlohmann::json::parse(std::string(bytes.begin(), bytes.end()));
}

}  // namespace

TEST_CASE("scene OBJ: half turn to Y up, child placed by its parent's translation, 1 - v") {
  const std::string obj = scene_to_obj(two_part_scene({-1, -1, 1}));
  CHECK(lines_starting(obj, "o ") == std::vector<std::string>{"o hull", "o gun"});
  CHECK(lines_starting(obj, "v ") == std::vector<std::string>{"v -0 -0 0", "v -1 -0 0", "v -0 -2 0",
                                                              "v -10 -0 0", "v -10 -0 5"});
  CHECK(lines_starting(obj, "vt ") == std::vector<std::string>{"vt 0 1", "vt 1 1", "vt 0 0.75"});
  CHECK(lines_starting(obj, "vn ")[0] == "vn -0 -0 1");
  // The half turn does not mirror: the corners keep their order.
  CHECK(lines_starting(obj, "f ") == std::vector<std::string>{"f 1/1/1 2/2/2 3/3/3"});
  CHECK(lines_starting(obj, "l ") == std::vector<std::string>{"l 4 5"});
  CHECK(lines_starting(obj, "usemtl ") ==
        std::vector<std::string>{"usemtl skin", "usemtl color_40"});
}

TEST_CASE("scene OBJ: an axis change that mirrors turns the corners over") {
  const std::string obj = scene_to_obj(two_part_scene({1, -1, 1}));
  CHECK(lines_starting(obj, "f ") == std::vector<std::string>{"f 3/1/1 2/2/2 1/3/3"});
  CHECK(lines_starting(obj, "vt ")[0] == "vt 0 0.75");
}

TEST_CASE("scene glTF: a node per part under its parent's, translated, with its mesh") {
  const nlohmann::json g = gltf_json(two_part_scene({-1, -1, 1}));
  CHECK(g["asset"]["version"] == "2.0");
  REQUIRE(g["nodes"].size() == 2);
  CHECK(g["nodes"][0]["name"] == "hull");
  CHECK(g["nodes"][0]["children"] == nlohmann::json::array({1}));
  CHECK(g["nodes"][1]["translation"] == nlohmann::json::array({-10.0, -0.0, 0.0}));
  CHECK(g["scenes"][0]["nodes"] == nlohmann::json::array({0}));
  const auto& hull = g["meshes"][g["nodes"][0]["mesh"].get<int>()]["primitives"];
  REQUIRE(hull.size() == 1);
  CHECK(hull[0]["mode"] == 4);
  const auto& position = g["accessors"][hull[0]["attributes"]["POSITION"].get<int>()];
  CHECK(position["count"] == 3);
  CHECK(position["min"] == nlohmann::json::array({-1.0, -2.0, 0.0}));
  CHECK(position["max"] == nlohmann::json::array({0.0, 0.0, 0.0}));
  CHECK(hull[0]["attributes"].contains("NORMAL"));
  CHECK(hull[0]["attributes"].contains("TEXCOORD_0"));
  const auto& gun = g["meshes"][g["nodes"][1]["mesh"].get<int>()]["primitives"];
  CHECK(gun[0]["mode"] == 1);  // LINES
  // The textured material names its picture; the colour one carries the palette's colour.
  CHECK(g["images"][0]["uri"] == "skin.png");
  const auto& colour = g["materials"][gun[0]["material"].get<int>()];
  CHECK(colour["name"] == "color_40");
  const auto rgb = raster::default_palette().colors[40];
  CHECK(colour["pbrMetallicRoughness"]["baseColorFactor"][0].get<double>() > 0);
  CHECK((rgb.r > rgb.b) == (colour["pbrMetallicRoughness"]["baseColorFactor"][0].get<double>() >
                            colour["pbrMetallicRoughness"]["baseColorFactor"][2].get<double>()));
  // Every buffer is embedded.
  CHECK(g["buffers"][0]["uri"].get<std::string>().rfind("data:application/octet-stream;base64,",
                                                        0) == 0);
}

TEST_CASE("scene glTF: GLB starts with its magic") {
  const auto glb = scene_to_gltf(two_part_scene({-1, -1, 1}), true);
  REQUIRE(glb.size() > 20);
  CHECK(std::string(glb.begin(), glb.begin() + 4) == "glTF");
}

TEST_CASE("scene writers refuse a scene that breaks its own rules (an engine's bug)") {
  ExportScene s = two_part_scene({-1, -1, 1});
  s.nodes[0].faces[0].corners[2] = 3;
  CHECK_THROWS_AS(scene_to_obj(s), std::logic_error);
  ExportScene t = two_part_scene({-1, -1, 1});
  t.nodes[1].parent = 1;
  CHECK_THROWS_AS(scene_to_gltf(t, false), std::logic_error);
}

TEST_CASE("cli export: glTF for an engine without parts holds the faces one run drew") {
  const std::string tank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";
  ScratchDir dir;
  const auto out = (dir / "tank.gltf").string();
  REQUIRE(run_cli("export " + shell_quote(tank) + " -o " + shell_quote(out)).exit_code == 0);
  std::ifstream in(out);
  const nlohmann::json g = nlohmann::json::parse(in);
  REQUIRE(g["nodes"].size() == 1);
  size_t triangles_or_more = 0;
  for (const auto& prim : g["meshes"][0]["primitives"])
    triangles_or_more +=
        g["accessors"][prim["attributes"]["POSITION"].get<int>()]["count"].get<size_t>();
  CHECK(triangles_or_more >= 10 * 3);  // the intact tank's ten faces, fanned into triangles
  const auto glb = (dir / "tank.bin").string();
  REQUIRE(run_cli("export " + shell_quote(tank) + " -o " + shell_quote(glb) + " --format glb")
              .exit_code == 0);
  std::ifstream bin(glb, std::ios::binary);
  char magic[4] = {};
  bin.read(magic, 4);
  CHECK(std::string(magic, 4) == "glTF");
}

TEST_CASE("SL-21: cli export of a Starlancer model: a node per part, turned to Y up") {
  const std::string model = SHAPEVM_EXAMPLES_BUILD_DIR "/shp/drawing.SHP";
  ScratchDir dir;
  const auto gltf = (dir / "m.gltf").string();
  REQUIRE(run_cli("export " + shell_quote(model) + " -o " + shell_quote(gltf)).exit_code == 0);
  std::ifstream in(gltf);
  const nlohmann::json g = nlohmann::json::parse(in);
  REQUIRE(g["nodes"].size() == 2);
  CHECK(g["nodes"][0]["name"] == "Hull");
  CHECK(g["nodes"][0]["children"] == nlohmann::json::array({1}));
  CHECK(g["nodes"][1]["name"] == "Turret");
  // The turret's origin (0, -100, 200) in the model frame (Y down), after the half turn.
  CHECK(g["nodes"][1]["translation"] == nlohmann::json::array({-0.0, 100.0, 200.0}));
  const auto obj = (dir / "m.obj").string();
  REQUIRE(run_cli("export " + shell_quote(model) + " -o " + shell_quote(obj)).exit_code == 0);
  std::ifstream oin(obj);
  std::string text((std::istreambuf_iterator<char>(oin)), std::istreambuf_iterator<char>());
  CHECK(lines_starting(text, "o ") == std::vector<std::string>{"o Hull", "o Turret"});
  // Wire faces are left out of an export: no OBJ lines.
  CHECK(lines_starting(text, "l ").empty());
}

TEST_CASE("BI-10: cli export of a Battle Isle 2 unit: its moving part is a node of its own") {
  const std::string unit = SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB:TANK001";
  ScratchDir dir;
  const auto gltf = (dir / "t.gltf").string();
  REQUIRE(run_cli("export " + shell_quote(unit) + " -o " + shell_quote(gltf)).exit_code == 0);
  std::ifstream in(gltf);
  const nlohmann::json g = nlohmann::json::parse(in);
  REQUIRE(g["nodes"].size() == 2);
  CHECK(g["nodes"][0]["children"] == nlohmann::json::array({1}));
  // The gun line is a LINES primitive of the part's mesh.
  bool lines = false;
  for (const auto& prim : g["meshes"][g["nodes"][1]["mesh"].get<int>()]["primitives"])
    lines = lines || prim["mode"] == 1;
  CHECK(lines);
}

}  // namespace harness_scene_export_tests
