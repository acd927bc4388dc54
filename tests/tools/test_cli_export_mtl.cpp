// `export` to OBJ writes the material library the OBJ names (OUT.mtl beside it), and texture
// coordinates from 0 to 1, for engines exported from a run (FA) and from a part tree alike.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/file_io.h"
#include "tests/fa/pic_builder.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_export_mtl_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

std::string text_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& head) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(head, 0) == 0) out.push_back(line.substr(head.size()));
  return out;
}

// A dense PIC of w x h texels (the layout `render --textures` reads), every texel `index`.
std::vector<uint8_t> dense_pic(uint32_t w, uint32_t h, uint8_t index) {
  return shapevm::test::build_dense_pic(w, h, std::vector<uint8_t>(w * h, index));
}

}  // namespace

TEST_CASE("export: the OBJ names OUT.mtl and the MTL defines every material it uses") {
  ScratchDir dir;
  std::filesystem::create_directories(dir / "tex");
  shapevm::write_file_atomic(dir / "tex" / "_JET.PIC", dense_pic(64, 128, 0xC8));
  auto r = run_cli("export " + q(kJet) + " --lod 0 -o " + q(dir / "jet.obj") + " --textures " +
                   q(dir / "tex"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  const std::string obj = text_of(dir / "jet.obj");
  REQUIRE(lines_starting(obj, "mtllib ") == std::vector<std::string>{"jet.mtl"});
  REQUIRE(std::filesystem::exists(dir / "jet.mtl"));
  const std::string mtl = text_of(dir / "jet.mtl");
  const auto used = lines_starting(obj, "usemtl ");
  const auto defined = lines_starting(mtl, "newmtl ");
  REQUIRE(!used.empty());
  CHECK(std::set<std::string>(used.begin(), used.end()) ==
        std::set<std::string>(defined.begin(), defined.end()));
  CHECK(defined.size() == std::set<std::string>(defined.begin(), defined.end()).size());
  CHECK(mtl.find("newmtl _JET.PIC\nKd 1 1 1\nmap_Kd _JET.PIC.png\n") != std::string::npos);
  CHECK(lines_starting(mtl, "Kd ").size() == defined.size());

  // Every texture coordinate is in 0..1, and the textured faces have them.
  const auto vts = lines_starting(obj, "vt ");
  REQUIRE(vts.size() >= 3);
  for (const auto& vt : vts) {
    std::istringstream in(vt);
    double u = -1, v = -1;
    in >> u >> v;
    CHECK(u >= 0.0);
    CHECK(u <= 1.0);
    CHECK(v >= 0.0);
    CHECK(v <= 1.0);
  }
  CHECK(obj.find("/") != std::string::npos);  // faces refer to their vt
}

TEST_CASE("export: without the texture's size no texel units are written, and it says so") {
  ScratchDir dir;
  auto r = run_cli("export " + q(kJet) + " --lod 0 -o " + q(dir / "jet.obj"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("shapevm: warning: texture _JET.PIC not found; its faces are exported without "
                   "texture coordinates") != std::string::npos);
  const std::string obj = text_of(dir / "jet.obj");
  CHECK(lines_starting(obj, "vt ").empty());
  CHECK(std::filesystem::exists(dir / "jet.mtl"));
}

TEST_CASE("export: untextured colours get their palette RGB; the MTL is refused like the OBJ") {
  ScratchDir dir;
  REQUIRE(run_cli("export " + q(kTank) + " -o " + q(dir / "tank.obj")).exit_code == 0);
  const std::string mtl = text_of(dir / "tank.mtl");
  const auto defined = lines_starting(mtl, "newmtl ");
  REQUIRE(!defined.empty());
  for (const auto& name : defined) CHECK(name.rfind("color_", 0) == 0);
  for (const auto& kd : lines_starting(mtl, "Kd ")) {
    std::istringstream in(kd);
    double r = -1, g = -1, b = -1;
    in >> r >> g >> b;
    CHECK((r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1));
  }
  // An existing MTL is not overwritten without --force, and then neither is written.
  std::filesystem::remove(dir / "tank.obj");
  auto again = run_cli("export " + q(kTank) + " -o " + q(dir / "tank.obj"));
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("tank.mtl: already exists") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "tank.obj"));
  CHECK(run_cli("export " + q(kTank) + " -o " + q(dir / "tank.obj") + " --force").exit_code == 0);
  // glTF writes no MTL.
  REQUIRE(run_cli("export " + q(kTank) + " -o " + q(dir / "t.gltf")).exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "t.mtl"));
}

TEST_CASE("export: a part tree's OBJ (Starlancer) names its MTL, and its UVs are in 0..1") {
  ScratchDir dir;
  const std::string fighter = SHAPEVM_EXAMPLES_BUILD_DIR "/shp/fighter.SHP";
  auto r = run_cli("export " + q(fighter) + " -o " + q(dir / "f.obj"));
  REQUIRE(r.exit_code == 0);
  const std::string obj = text_of(dir / "f.obj");
  CHECK(lines_starting(obj, "mtllib ") == std::vector<std::string>{"f.mtl"});
  const std::string mtl = text_of(dir / "f.mtl");
  const auto used = lines_starting(obj, "usemtl ");
  const auto defined = lines_starting(mtl, "newmtl ");
  REQUIRE(!used.empty());
  CHECK(std::set<std::string>(used.begin(), used.end()) ==
        std::set<std::string>(defined.begin(), defined.end()));
  CHECK(mtl.find("newmtl hull01\nKd 1 1 1\nmap_Kd hull01.png\n") != std::string::npos);
  for (const auto& vt : lines_starting(obj, "vt ")) {
    std::istringstream in(vt);
    double u = -1, v = -1;
    in >> u >> v;
    CHECK((u >= 0.0 && u <= 1.0 && v >= 0.0 && v <= 1.0));
  }
}

}  // namespace tools_cli_export_mtl_tests
