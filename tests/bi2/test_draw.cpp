// BI-07, BI-08, BI-10: the draw program on small meshes opened through the registry: colour =
// shade + ramp centre + bias in the fight palette, two-vertex polygons drawn as lines, a part
// turned about its pivot in Z, then X, then Y order with its translation added after, only the
// part's polygons moving; the painter's order, the steps' fields, pause points and the export.
#include <doctest/doctest.h>

#include "interp/bi2/assumptions.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/transform.h"
#include "tests/bi2/bi2_fixture.h"
#include "tests/support/program_helpers.h"

namespace bi2_draw_tests {

using namespace shapevm;
using namespace shapevm::testing;

namespace {

// A fixed quad (polygon 0) and a part (polygons 1 and 2: a triangle and a line) pivoting at
// (10, 0, 0); the part's vertices are 4..7.
const char* kTurret = R"(3dob
  vertex -300 0 300
  vertex 300 0 300
  vertex 300 0 500
  vertex -300 0 500
  vertex 110 0 0
  vertex 10 -100 0
  vertex 10 0 100
  vertex 10 0 -100
  polygon shade 64 bias -3 vertices 0 1 2 3
  polygon shade 32 bias 5 vertices 4 5 6
  polygon shade 0 bias 8 vertices 6 7
  part polygons 1 2 pivot 10 0 0 vertices 4 5 6 7
end
)";

const Bi2Face& face_at(const Bi2Recorder& r, uint32_t offset) {
  for (const auto& f : r.faces)
    if (f.offset == offset) return f;
  FAIL("no face at offset " << offset);
  return r.faces.front();
}

struct Turret {
  Bi2Files files;
  Turret() { files.write("T.3DOB", bi2_bytes(kTurret)); }
  Bi2Recorder run(std::vector<std::string> sets) {
    auto p = files.open("T.3DOB");
    return bi2_run(*p, bi2_state(std::move(sets)));
  }
};

constexpr uint32_t kQuad = 0x42, kTriangle = 0x42 + 34, kLine = 0x42 + 34 + 32;

}  // namespace

TEST_CASE("BI-10: angles apply in Z, then X, then Y order (not X, Y, Z)") {
  // (100, 0, 0): Z 90 -> (0, 100, 0); X 90 -> (0, 0, 100). X then Z would give (0, 100, 0).
  CHECK(bi2::rotate_zxy({100, 0, 0}, {90, 0, 90}) == bi2::Vec3{0, 0, 100});
  // Y last: (0, 0, 100) turned 90 about Y goes to x.
  CHECK(bi2::rotate_zxy({100, 0, 0}, {90, 90, 90}) == bi2::Vec3{100, 0, 0});
  Turret t;
  const auto r = t.run({"part0=90,0,90"});
  // Vertex 4 is (110, 0, 0): 100 from the pivot along x.
  const auto& tri = face_at(r, kTriangle);
  CHECK(tri.indices[0] == 4);
  CHECK(tri.model[0] == std::array<int32_t, 3>{10, 0, 100});
}

TEST_CASE("BI-10: the translation is added after the rotation about the pivot") {
  Turret t;
  const auto r = t.run({"part0=0,0,90", "part0.t=5,6,7"});
  // (100, 0, 0) about the pivot, Z 90 -> (0, 100, 0); + pivot (10, 0, 0) + (5, 6, 7).
  CHECK(face_at(r, kTriangle).model[0] == std::array<int32_t, 3>{15, 106, 7});
}

TEST_CASE("BI-10: a part's polygons move and the rest do not") {
  Turret t;
  const auto rest = t.run({});
  const auto turned = t.run({"part0=0,90,0"});
  CHECK(face_at(rest, kQuad).model == face_at(turned, kQuad).model);
  CHECK(face_at(rest, kTriangle).model != face_at(turned, kTriangle).model);
  CHECK(face_at(rest, kLine).model != face_at(turned, kLine).model);
  // Y 90 about the pivot: (110, 0, 0) -> (10, 0, -100).
  CHECK(face_at(turned, kTriangle).model[0] == std::array<int32_t, 3>{10, 0, -100});
  // The step says which part drew it.
  for (const auto& s : turned.steps) CHECK(s.fields.at("part") == (s.offset == kQuad ? -1 : 0));
}

TEST_CASE("BI-07: colour = shade + ramp centre + bias, looked up in the fight palette") {
  Turret t;
  const auto r = t.run({});
  CHECK(face_at(r, kQuad).color == 64 + bi2::assumed::kRampCentre - 3);
  CHECK(face_at(r, kTriangle).color == 32 + bi2::assumed::kRampCentre + 5);
  CHECK(face_at(r, kLine).color == 0 + bi2::assumed::kRampCentre + 8);
  for (const auto& s : r.steps) {
    CHECK(s.fields.at("colour") ==
          s.fields.at("shade") + bi2::assumed::kRampCentre + s.fields.at("bias"));
  }
  // With a 6-bit palette from a LIB member: the quad's colour is that entry, widened.
  const size_t quad = 64 + bi2::assumed::kRampCentre - 3;
  std::vector<uint8_t> pal(768, 0), other(768, 63);
  pal[3 * quad] = 10, pal[3 * quad + 1] = 20, pal[3 * quad + 2] = 30;
  t.files.write("PAL000.LIB", bi2::write_lib({{"PAL000", other}, {"PAL001", pal}}));
  OpenOptions o;
  o.palette = t.files.path("PAL000.LIB") + ":#1";
  auto program = open_program(t.files.path("T.3DOB"), o);
  const auto frame = harness::render_program(*program, {}, 0);
  CHECK(frame.palette.colors[quad] == raster::Rgb{40, 81, 121});  // v * 4 + v / 16
  CHECK(frame.palette.colors[0] == raster::Rgb{0, 0, 0});
  bool drawn = false;
  for (uint8_t px : frame.frame.pixels()) drawn = drawn || px == quad;
  CHECK(drawn);
}

TEST_CASE("BI-08: a two-vertex polygon is a line: two corners, the step named draw_line") {
  Turret t;
  const auto r = t.run({});
  CHECK(face_at(r, kLine).model.size() == 2);
  int lines = 0;
  for (const auto& s : r.steps) {
    if (s.offset == kLine) {
      CHECK(s.name == "draw_line");
      CHECK(s.fields.at("vertices") == 2);
      ++lines;
    } else {
      CHECK(s.name == "draw_polygon");
    }
  }
  CHECK(lines == 1);
  // A lone tracer line renders pixels.
  Bi2Files f;
  f.write("AMMO.3DOB", bi2_bytes("3dob\n vertex 0 0 -160\n vertex 0 0 160\n polygon shade 0 bias "
                                 "8 vertices 0 1\nend\n"));
  auto p = f.open("AMMO.3DOB");
  const auto frame = harness::render_program(*p, {}, 0);
  CHECK(frame.faces_filled == 1);
  size_t lit = 0;
  for (uint8_t px : frame.frame.pixels()) lit += px == bi2::assumed::kRampCentre + 8 ? 1 : 0;
  CHECK(lit > 20);
}

TEST_CASE("draw: polygons are drawn farthest first (the painter's key), one step each") {
  Turret t;
  const auto r = t.run({});
  REQUIRE(r.faces.size() == 3);
  REQUIRE(r.steps.size() == 3);
  for (size_t i = 1; i < r.steps.size(); ++i)
    CHECK(r.steps[i - 1].fields.at("depth") >= r.steps[i].fields.at("depth"));
  // The quad lies beyond the part (z 300..500, the camera in front at -z): it is drawn first.
  CHECK(r.faces.front().offset == kQuad);
  CHECK(r.clean);
  CHECK(r.end == "all polygons drawn");
}

TEST_CASE("draw: a pause before each polygon and at the end; the budget stops a run") {
  Turret t;
  auto p = t.files.open("T.3DOB");
  struct Pauses : PauseHandler {
    std::vector<std::string> mnemonics;
    std::vector<int64_t> polygons;
    bool pause(const PausePoint& point) override {
      mnemonics.emplace_back(point.mnemonic());
      polygons.push_back(point.read("polygon").value_or(-99));
      if (!point.ended()) CHECK(point.read("vertices[4].x").has_value());
      return false;
    }
  } pauses;
  Bi2Recorder sink;
  p->run({}, sink, &pauses);
  CHECK(pauses.mnemonics.size() == 4);
  CHECK(pauses.mnemonics.back() == "end");
  CHECK(pauses.polygons[0] == 0);
  Bi2Recorder limited;
  const auto outcome = p->run(bi2_state({}, {{"max-steps", "2"}}), limited);
  CHECK_FALSE(outcome.clean);
  CHECK(outcome.reason == "budget: steps");
  CHECK(limited.faces.size() == 2);
}

TEST_CASE("draw: --set names are checked: an unknown part or malformed angles are errors") {
  Turret t;
  auto p = t.files.open("T.3DOB");
  Bi2Recorder sink;
  CHECK_THROWS_WITH_AS(p->run(bi2_state({"part1=0,0,0"}), sink),
                       doctest::Contains("the mesh has 1 parts"), InputError);
  CHECK_THROWS_WITH_AS(p->run(bi2_state({"part0=1,2"}), sink), doctest::Contains("three integers"),
                       InputError);
  CHECK_THROWS_AS(validate_state(*p, bi2_state({"turret=1,2,3"})), InputError);
  CHECK_THROWS_AS(validate_state(*p, bi2_state({}, {{"frame", "1"}})), InputError);
}

TEST_CASE("export: a root node for unowned polygons, a node per part, lines, palette colours") {
  Turret t;
  auto p = t.files.open("T.3DOB");
  const auto scene = p->export_scene(bi2_state({"part0=0,90,0"}));
  REQUIRE(scene.has_value());
  CHECK(scene->axis_signs == std::array<int, 3>{-1, -1, 1});
  REQUIRE(scene->nodes.size() == 2);
  const auto& root = scene->nodes[0];
  CHECK(root.parent == -1);
  REQUIRE(root.faces.size() == 1);
  CHECK(root.faces[0].color == 64 + bi2::assumed::kRampCentre - 3);
  CHECK(root.positions.size() == 4);
  const auto& part = scene->nodes[1];
  CHECK(part.name == "part0");
  CHECK(part.parent == 0);
  CHECK(part.translation == std::array<double, 3>{10, 0, 0});  // at the pivot
  REQUIRE(part.faces.size() == 2);
  CHECK_FALSE(part.faces[0].line);
  CHECK(part.faces[1].line);
  CHECK(part.faces[1].corners.size() == 2);
  // Vertex 4 (100 from the pivot along x), turned 90 about Y, in the part's frame.
  CHECK(part.positions[part.faces[0].corners[0]] == std::array<double, 3>{0, 0, -100});
}

}  // namespace bi2_draw_tests
