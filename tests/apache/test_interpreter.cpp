// The drawing language as executed (AP-10..AP-19, AP-25, AP-29, AP-30), on small assembled
// programs. The camera looks along +z at the box's front face (heading 0, pitch 0), so the front
// face winds clockwise on screen and every other box face winds the other way.
#include <doctest/doctest.h>

#include <algorithm>

#include "interp/apache/branch_kinds.h"
#include "interp/apache/interpreter.h"
#include "tests/apache/apache_fixture.h"

using namespace shapevm;
using shapevm::testing::ApacheFixture;
using shapevm::testing::ApacheSink;
using shapevm::testing::box_vertices;
using shapevm::testing::run_apache;

namespace {

apache::RunState front_view() {
  apache::RunState s;
  s.shadows = false;
  s.camera = {5000, 0, 0};
  return s;
}

std::string box_model(const std::string& program, const std::string& extra = "") {
  return "model 0 box\n" + box_vertices() +
         "  normal 0 0 -127\n  normal 0 0 127\n  normal 127 0 0\n" + extra + "program\n" + program +
         "end\n";
}

std::vector<int> colours(const ApacheSink& sink) {
  std::vector<int> out;
  for (const auto& f : sink.model_faces()) out.push_back(f.color);
  return out;
}

}  // namespace

TEST_CASE("AP-10 AP-19 primary faces draw when their screen winding is nonnegative") {
  ApacheFixture f(box_model(R"(
  face polygon colour=10 : 3 2 1 0
  face polygon colour=11 : 6 7 4 5
  face polygon colour=12 : 2 6 5 1
  ret
)"));
  ApacheSink sink;
  auto r = run_apache(f, 0, front_view(), sink);
  CHECK(r.clean);
  CHECK(colours(sink) == std::vector<int>{10});
  // Seen from behind (heading 180) the back face is the one drawn.
  apache::RunState behind = front_view();
  behind.camera.heading = 180;
  ApacheSink back;
  run_apache(f, 0, behind, back);
  CHECK(colours(back) == std::vector<int>{11});
  // From the +x side only the right face.
  apache::RunState right = front_view();
  right.camera.heading = 270;
  ApacheSink side;
  run_apache(f, 0, right, side);
  CHECK(colours(side) == std::vector<int>{12});
}

TEST_CASE("AP-11 AP-21 secondary faces follow the preceding winding result") {
  ApacheFixture f(box_model(R"(
  face polygon colour=10 : 3 2 1 0
  face2 polygon colour=20 : 3 2 1
  face polygon colour=11 : 6 7 4 5
  face2 polygon colour=21 : 3 2 1
  face points colour=30 : 0
  face2 polyline colour=22 : 0 1
  ret
)"));
  ApacheSink sink;
  auto r = run_apache(f, 0, front_view(), sink);
  CHECK(r.clean);
  // 21 is skipped although its own polygon faces the viewer: the back face before it did not.
  CHECK(colours(sink) == std::vector<int>{10, 20, 30, 22});
  CHECK(r.ops == 7);
}

TEST_CASE("AP-12 AP-18 a winding decision draws both branches in winding order then continues") {
  ApacheFixture f(box_model(R"(
  winding 2 6 5 front=plus back=minus continue=after
plus:
  face polygon colour=40 : 3 2 1 0
  ret
minus:
  face polygon colour=41 : 3 2 1 0
  ret
after:
  face polygon colour=42 : 3 2 1 0
  ret
)"));
  // The right face (x = +50) seen from the front: negative winding, so front branch first.
  ApacheSink sink;
  run_apache(f, 0, front_view(), sink);
  CHECK(colours(sink) == std::vector<int>{40, 41, 42});
  REQUIRE(sink.branches.size() == 1);
  CHECK(sink.branches[0].kind == apache::branch_kind::kWinding);
  CHECK_FALSE(sink.branches[0].taken);
  CHECK(sink.branches[0].value < 0);
  REQUIRE(sink.calls.size() == 2);
  CHECK(sink.calls[0].target == f.label(0, "plus"));
  CHECK(sink.calls[0].resume == f.label(0, "after"));
  // Viewed from +x the plane faces the viewer: the back branch first, the front branch on top.
  apache::RunState right = front_view();
  right.camera.heading = 270;
  ApacheSink side;
  run_apache(f, 0, right, side);
  CHECK(sink.model_faces().size() == 3);
  std::vector<int> order;
  for (const auto& op : side.ops)
    if (op.op == 0) order.push_back(static_cast<int>(op.offset));
  CHECK(order == std::vector<int>{static_cast<int>(f.label(0, "minus")),
                                  static_cast<int>(f.label(0, "plus")),
                                  static_cast<int>(f.label(0, "after"))});
}

TEST_CASE("AP-13 AP-14 mask branches test the animation value") {
  ApacheFixture f(box_model(R"(
  ifmask 0x4 branch=lit continue=pick
lit:
  face polygon colour=50 : 3 2 1 0
  ret
pick:
  choose 0x1 set=on clear=off continue=end
on:
  face polygon colour=51 : 3 2 1 0
  ret
off:
  face polygon colour=52 : 3 2 1 0
  ret
end:
  ret
)"));
  auto run = [&](uint32_t anim) {
    apache::RunState s = front_view();
    s.anim = anim;
    ApacheSink sink;
    run_apache(f, 0, s, sink);
    return colours(sink);
  };
  CHECK(run(0) == std::vector<int>{52});
  CHECK(run(1) == std::vector<int>{51});
  CHECK(run(4) == std::vector<int>{50, 52});
  CHECK(run(5) == std::vector<int>{50, 51});
  CHECK(run(2) == std::vector<int>{52});
}

TEST_CASE("AP-15 select takes (anim >> shift) & mask and is restricted to the authored cases") {
  ApacheFixture f(box_model(R"(
  select shift=4 mask=3 cases=a,b,c continue=end
a:
  face polygon colour=60 : 3 2 1 0
  ret
b:
  face polygon colour=61 : 3 2 1 0
  ret
c:
  face polygon colour=62 : 3 2 1 0
  ret
end:
  face polygon colour=63 : 3 2 1 0
  ret
)"));
  auto run = [&](uint32_t anim, ApacheSink& sink) {
    apache::RunState s = front_view();
    s.anim = anim;
    return run_apache(f, 0, s, sink);
  };
  ApacheSink s0, s2, s3;
  run(0x0F, s0);  // low bits do not matter: index 0
  CHECK(colours(s0) == std::vector<int>{60, 63});
  run(0x20, s2);
  CHECK(colours(s2) == std::vector<int>{62, 63});
  // The mask allows 3, but only three cases are authored: nothing is drawn for it.
  auto r = run(0x30, s3);
  CHECK(r.clean);
  CHECK(colours(s3) == std::vector<int>{63});
  CHECK(s3.has_diagnostic("select value 3 is beyond the 3 authored cases"));
  REQUIRE(s3.branches.size() == 1);
  CHECK(s3.branches[0].value == 3);
  CHECK(s3.branches[0].limit == 3);
}

TEST_CASE("AP-16 attached models draw by slot with their transforms and ret ends a branch") {
  const std::string child = "model 1 child\n" + box_vertices() +
                            "program\n  face polygon colour=70 : 3 2 1 0\n  ret\nend\n";
  ApacheFixture f(box_model(R"(
  attached 0
  attached 1
  attached 5
  ret
  face polygon colour=99 : 3 2 1 0
)",
                            "  attach 1 160 -320 0\n  attach 0 0 0 0\n") +
                  child + "model 2 other\n" + box_vertices() +
                  "program\n  face polygon colour=71 : 3 2 1 0\n  ret\nend\n");
  ApacheSink sink;
  auto r = run_apache(f, 0, front_view(), sink);
  CHECK(r.clean);
  CHECK(colours(sink) == std::vector<int>{70});  // 99 after ret never runs
  CHECK(sink.has_diagnostic("slot 1 is filled by gameplay"));
  CHECK(sink.has_diagnostic("slot 5 is beyond the model's 2 attachment records"));
  // The attached box is the child's front face moved by (160, -320, 0) model units: the same
  // face as one authored at that place (x +10, y -20 in stored units).
  ApacheFixture moved(
      "model 0 box\n  vertex -40 -20 -50\n  vertex 60 -20 -50\n  vertex 60 80 -50\n"
      "  vertex -40 80 -50\n  vertex 0 0 50\n  vertex 0 100 50\n" +
      std::string("  bounds -800 800 0 1600 -800 800\nprogram\n  face polygon "
                  "colour=70 : 3 2 1 0\n  ret\nend\n"));
  ApacheSink reference;
  run_apache(moved, 0, front_view(), reference);
  REQUIRE(reference.faces.size() == 1);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(std::abs(sink.faces[0].view[i].x - reference.faces[0].view[i].x) <= 2);
    CHECK(std::abs(sink.faces[0].view[i].y - reference.faces[0].view[i].y) <= 2);
    CHECK(std::abs(sink.faces[0].view[i].z - reference.faces[0].view[i].z) <= 2);
  }
  // Filling the gameplay slot draws record 2 there.
  apache::RunState filled = front_view();
  filled.slots[1] = 2;
  ApacheSink with_slot;
  run_apache(f, 0, filled, with_slot);
  CHECK(colours(with_slot) == std::vector<int>{70, 71});
}

TEST_CASE("AP-25 lighting: model-space light dot normal, clamped at zero, indexes the table") {
  ApacheFixture f(box_model("  face shadedpolygon colour=150 normal=0 : 3 2 1 0\n  ret\n"));
  auto colour_with_light = [&](std::array<int32_t, 3> light) {
    apache::RunState s = front_view();
    s.light = light;
    ApacheSink sink;
    run_apache(f, 0, s, sink);
    REQUIRE(sink.faces.size() == 1);
    return sink.faces[0].color;
  };
  CHECK(colour_with_light({0, 0, -5}) == 150);  // along the normal: the last row, authored colour
  CHECK(colour_with_light({0, 3, 0}) == f.tables.shade(0, 150));  // perpendicular: row 0
  CHECK(colour_with_light({0, 0, 9}) == f.tables.shade(0, 150));  // behind: clamped to row 0
  // 45 degrees: dot = 127 * 89 -> row 15 * 11303 / 16129 = 10.
  CHECK(colour_with_light({0, 1, -1}) == f.tables.shade(10, 150));
  CHECK(f.tables.shade(0, 150) != 150);
}

TEST_CASE("AP-25 Gouraud faces carry a row per vertex and use the face normal when disabled") {
  ApacheFixture f(box_model("  face gouraud colour=150 normal=0 : 3/n0 2/n0 1/n2 0/n1\n  ret\n"));
  apache::RunState s = front_view();
  s.light = {0, 0, -1};
  ApacheSink sink;
  run_apache(f, 0, s, sink);
  REQUIRE(sink.faces.size() == 1);
  CHECK(sink.faces[0].shaded);
  CHECK(sink.faces[0].shade == std::vector<int32_t>{15, 15, 0, 0});
  s.gouraud = false;
  ApacheSink flat;
  run_apache(f, 0, s, flat);
  CHECK_FALSE(flat.faces[0].shaded);
  CHECK(flat.faces[0].color == 150);
}

TEST_CASE("AP-29 a normal index beyond the list keeps the authored colour at full intensity") {
  ApacheFixture f(box_model(R"(
  face shadedpolygon colour=150 normal=7 : 3 2 1 0
  face gouraud colour=150 normal=0 : 3/n0 2/n9 1/n0 0/n0
  ret
)"));
  apache::RunState s = front_view();
  s.light = {0, 1, 0};  // would give row 0 for a real normal
  ApacheSink sink;
  auto r = run_apache(f, 0, s, sink);
  CHECK(r.clean);
  REQUIRE(sink.faces.size() == 2);
  CHECK(sink.faces[0].color == 150);
  CHECK(sink.faces[1].shade == std::vector<int32_t>{0, 15, 0, 0});
  CHECK(sink.has_diagnostic("normal index 7 is beyond the model's 3 normals"));
  CHECK(sink.has_diagnostic("normal index 9 is beyond the model's 3 normals"));
}

TEST_CASE("AP-30 u = 64 reads the next row and v beyond the allocation is reported") {
  ApacheFixture f("texture 1 type 2 solid 5\n" + box_model(R"(
  face texture texture=1 colour=3 : 3/0/0 2/64/0 1/64/63 0/0/63
  face texture texture=1 colour=3 : 3/0/0 2/63/0 1/63/80 0/0/80
  face texture texture=9 colour=3 : 3/0/0 2/63/0 1/63/63 0/0/63
  ret
)"));
  ApacheSink sink;
  auto r = run_apache(f, 0, front_view(), sink);
  CHECK(r.clean);
  CHECK(sink.has_diagnostic("u=64 on a 64-pixel row samples the next row"));
  CHECK(sink.has_diagnostic("u=63 v=80 addresses beyond texture 1's allocation"));
  CHECK(sink.has_diagnostic("texture 9 is not in OBJTEXT.BIN"));
  REQUIRE(sink.faces.size() == 3);
  CHECK(sink.faces[0].texture == "tex1");
}

TEST_CASE("budgets stop runaway programs and bad vertex indices stop the run with the offset") {
  ApacheFixture loop(R"(
model 1 self
  vertex 0 0 0
  attach 1 0 0 0
program
  attached 0
  ret
end
)");
  ApacheSink sink;
  auto r = run_apache(loop, 1, front_view(), sink);
  CHECK_FALSE(r.clean);
  CHECK(r.reason == "budget: depth");
  apache::RunState few = front_view();
  few.step_limit = 3;
  ApacheSink steps;
  r = run_apache(loop, 1, few, steps);
  CHECK(r.reason == "budget: steps");
  CHECK(r.ops == 3);

  ApacheFixture bad(box_model("  face polygon colour=1 : 3 2 9 0\n  ret\n"));
  ApacheSink out;
  r = run_apache(bad, 0, front_view(), out);
  CHECK_FALSE(r.clean);
  const uint32_t program = bad.archive.record(0)->header.sections[apache::kProgram];
  CHECK(r.end_offset == program + 1 + 3 + 2);
  CHECK(r.reason.find("vertex index below the model's 8 vertices, found 9") != std::string::npos);
  CHECK_FALSE(out.end.clean);
}
