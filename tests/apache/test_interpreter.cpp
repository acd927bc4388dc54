// The drawing language as executed (AP-10..AP-19, AP-25, AP-29, AP-30), on small assembled
// programs. The camera looks along +z at the box's front face (heading 0, pitch 0), so the front
// face winds clockwise on screen and every other box face winds the other way.
#include <doctest/doctest.h>

#include <algorithm>

#include "interp/apache/branch_kinds.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/winding.h"
#include "tests/apache/apache_fixture.h"

namespace apache_interpreter_tests {

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

TEST_CASE("AP-10 op 0 draws every primary face and updates the winding result (cull_primaries=0)") {
  ApacheFixture f(box_model(R"(
  face polygon colour=10 : 3 2 1 0
  face polygon colour=11 : 6 7 4 5
  face2 polygon colour=21 : 3 2 1
  face polygon colour=12 : 2 6 5 1
  face2 polygon colour=22 : 3 2 1
  face polygon colour=13 : 3 2 1 0
  face2 polygon colour=23 : 3 2 1
  ret
)"));
  apache::RunState s = front_view();
  CHECK_FALSE(s.cull_primaries);  // the default follows the seed: op 0 draws its face
  ApacheSink sink;
  auto r = run_apache(f, 0, s, sink);
  CHECK(r.clean);
  // Every primary is drawn whichever way it winds; each one's winding still decides the face2
  // after it: the back (11) and right (12) faces wind away from this view, the front (13) not.
  CHECK(colours(sink) == std::vector<int>{10, 11, 12, 13, 23});
}

TEST_CASE("AP-10 with --set cull_primaries=1 primary polygons winding away are not drawn") {
  ApacheFixture f(box_model(R"(
  face polygon colour=10 : 3 2 1 0
  face polygon colour=11 : 6 7 4 5
  face polygon colour=12 : 2 6 5 1
  face polyline colour=14 : 6 7
  ret
)"));
  apache::RunState s = front_view();
  apache::apply_set(s, "cull_primaries=1");
  REQUIRE(s.cull_primaries);
  ApacheSink sink;
  auto r = run_apache(f, 0, s, sink);
  CHECK(r.clean);
  CHECK(colours(sink) == std::vector<int>{10, 14});  // lines are never culled
  // Seen from behind (heading 180) the back face is the one drawn.
  apache::RunState behind = s;
  behind.camera.heading = 180;
  ApacheSink back;
  run_apache(f, 0, behind, back);
  CHECK(colours(back) == std::vector<int>{11, 14});
  // From the +x side only the right face.
  apache::RunState right = s;
  right.camera.heading = 270;
  ApacheSink side;
  run_apache(f, 0, right, side);
  CHECK(colours(side) == std::vector<int>{12, 14});
  apache::apply_set(s, "cull_primaries=0");
  CHECK_FALSE(s.cull_primaries);
}

TEST_CASE("AP-19 the winding is the signed high word of a 32-bit cross product of three points") {
  using apache::screen_winding;
  // (x1-x0)(y2-y0) - (y1-y0)(x2-x0), worked by hand; y is down, so clockwise is positive.
  CHECK(screen_winding({0, 0}, {10, 0}, {0, 10}) == 0);       // +100: high word 0x0000
  CHECK(screen_winding({0, 0}, {0, 10}, {10, 0}) == -1);      // -100 = 0xFFFFFF9C: 0xFFFF
  CHECK(screen_winding({0, 0}, {1000, 0}, {0, 1000}) == 15);  // 1,000,000 = 0x000F4240
  CHECK(screen_winding({5, 7}, {5, 7}, {9, 9}) == 0);         // degenerate: 0
  // Beyond 32 bits the product wraps, so the high word's sign is not the full value's:
  // 46341^2 = 2,147,488,281 = 0x80001219 (positive in 64 bits), high word 0x8000 = -32768.
  CHECK(screen_winding({0, 0}, {46341, 0}, {0, 46341}) == -32768);
  // 60000^2 = 3,600,000,000 = 0xD693A400: high word 0xD693 = -10605 though the area is positive.
  CHECK(screen_winding({-30000, -30000}, {30000, -30000}, {-30000, 30000}) == -10605);
  // The mirror image: -3,600,000,000 wraps to 0x296C5C00, high word 0x296C = +10604.
  CHECK(screen_winding({-30000, -30000}, {-30000, 30000}, {30000, -30000}) == 10604);
}

TEST_CASE("AP-19 only the first three vertices decide, not the whole polygon") {
  // Vertex 8 is a notch in the top edge of the front wall: 3 8 2 1 0 is a concave polygon that
  // winds clockwise on screen as a whole (it faces this view) but turns counter-clockwise at its
  // first three vertices; 2 8 3 0 1 is its mirror: it faces away as a whole, and its first three
  // turn clockwise.
  ApacheFixture f(box_model(R"(
  face polygon colour=10 : 3 8 2 1 0
  face2 polygon colour=20 : 3 2 1
  face polygon colour=11 : 2 8 3 0 1
  face2 polygon colour=21 : 3 2 1
  winding 3 8 2 1 0 front=a back=b continue=c
a:
  ret
b:
  ret
c:
  winding 2 8 3 0 1 front=a back=b continue=d
d:
  ret
)",
                            "  vertex 0 50 -50\n"));
  apache::RunState s = front_view();
  ApacheSink sink;
  auto r = run_apache(f, 0, s, sink);
  CHECK(r.clean);
  // 20 is skipped (the first three of 3 8 2 turn away); 21 is drawn (2 8 3 turns toward).
  CHECK(colours(sink) == std::vector<int>{10, 11, 21});
  REQUIRE(sink.branches.size() == 2);
  CHECK(sink.branches[0].value < 0);
  CHECK(sink.branches[1].value >= 0);
  // With culling the same rule decides: the polygon that faces the viewer is culled.
  apache::RunState culled = s;
  culled.cull_primaries = true;
  ApacheSink c;
  run_apache(f, 0, culled, c);
  CHECK(colours(c) == std::vector<int>{11, 21});
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
  // The back face itself is drawn (op 0 draws its face whatever the winding, AP-10).
  CHECK(colours(sink) == std::vector<int>{10, 20, 11, 30, 22});
  CHECK(r.ops == 7);
}

TEST_CASE("AP-21 a skipped secondary packet resumes where its length byte says") {
  // The face2's polygon packet is 6 bytes from its type byte; with its length byte the whole
  // secondary packet is 7, which is what the assembler writes. length=8 writes a byte one too
  // large: skipping by it passes over the ret after the packet.
  const std::string program = R"(
  face polygon colour=FIRST : VERTS
  face2 polygon colour=20 length=8 : 3 2 1
  ret
  face polygon colour=40 : 3 2 1 0
  ret
)";
  auto with = [&](const std::string& first, const std::string& verts) {
    std::string p = program;
    p.replace(p.find("FIRST"), 5, first);
    p.replace(p.find("VERTS"), 5, verts);
    return ApacheFixture(box_model(p));
  };
  // The back face winds away: the face2 is skipped by its byte, landing on the colour-40 face.
  const ApacheFixture away = with("11", "6 7 4 5");
  ApacheSink skipped;
  auto r = run_apache(away, 0, front_view(), skipped);
  CHECK(r.clean);
  CHECK(colours(skipped) == std::vector<int>{11, 40});
  CHECK(
      skipped.has_diagnostic("secondary packet length byte 8 is not its polygon packet's whole "
                             "length 7 (secondary_length=whole): skipped by the byte"));
  // The front face winds toward the viewer: the packet is drawn and read to its end (the ret).
  const ApacheFixture toward = with("10", "3 2 1 0");
  ApacheSink drawn;
  r = run_apache(toward, 0, front_view(), drawn);
  CHECK(r.clean);
  CHECK(colours(drawn) == std::vector<int>{10, 20});
  CHECK(drawn.has_diagnostic("drawn, resuming after its vertices"));

  // Under the other reading (the byte counts from the type byte on) the same byte of 8 lands one
  // further still, inside the colour-40 face: the run reports where, and stops there.
  apache::RunState packet = front_view();
  apache::apply_set(packet, "secondary_length=packet");
  ApacheSink other;
  r = run_apache(away, 0, packet, other);
  CHECK_FALSE(r.clean);
  CHECK(other.has_diagnostic("type-on length 6 (secondary_length=packet)"));
  CHECK(colours(other) == std::vector<int>{11});
  // A byte of 6 is exactly right for that reading: no diagnostic, the skip lands on the ret.
  ApacheFixture exact(box_model(R"(
  face polygon colour=11 : 6 7 4 5
  face2 polygon colour=20 length=6 : 3 2 1
  ret
  face polygon colour=40 : 3 2 1 0
  ret
)"));
  ApacheSink fits;
  r = run_apache(exact, 0, packet, fits);
  CHECK(r.clean);
  CHECK(colours(fits) == std::vector<int>{11});
  CHECK(fits.diagnostics.empty());
  // ... and read by the seed's reading the same byte falls short, into the packet's vertices.
  ApacheSink seed;
  r = run_apache(exact, 0, front_view(), seed);
  CHECK(seed.has_diagnostic("length byte 6 is not its polygon packet's whole length 7"));
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

TEST_CASE("AP-25 an attached instance turned 90 degrees about y takes the light in its own axes") {
  // The child's face normal is (0, 0, -127) in the child; the attachment's rotation rows
  // (0 0 1 / 0 1 0 / -1 0 0, Q31) turn it to world (-127, 0, 0). The light's model-space
  // direction is the transpose of that rotation applied to the world light, worked by hand:
  //   world (-1, 0, 0) -> unit (-127, 0, 0) -> model (0, 0, -127): dot 16129, row 15
  //   world ( 0, 0,-1) -> unit (0, 0, -127) -> model (127, 0, 0): dot 0, row 0
  //   world (-1, 1, 0) -> unit (-89, 89, 0) -> model (0, 88, -89) -> unit (0, 89, -90):
  //                       dot 11430, row 15 * 11430 / 16129 = 10
  //   world (-3, 0,-1) -> unit (-120, 0, -40) -> model (39, 0, -120): dot 15240, row 14
  // Lighting the child with the world light unturned would give rows 0, 15, 0 and 4.
  ApacheFixture f(R"(
model 0 parent
  vertex 0 0 0
  attach 1 0 0 0 0 0 2147483647 0 2147483647 0 -2147483647 0 0
program
  attached 0
  ret
end
model 1 child
)" + box_vertices() +
                  R"(  normal 0 0 -127
program
  face shadedpolygon colour=150 normal=0 : 3 2 1 0
  ret
end
)");
  auto colour_with_light = [&](std::array<int32_t, 3> light) {
    apache::RunState s = front_view();
    s.light = light;
    ApacheSink sink;
    auto r = run_apache(f, 0, s, sink);
    CHECK(r.clean);
    REQUIRE(sink.faces.size() == 1);
    return sink.faces[0].color;
  };
  CHECK(colour_with_light({-1, 0, 0}) == f.tables.shade(15, 150));
  CHECK(f.tables.shade(15, 150) == 150);
  CHECK(colour_with_light({0, 0, -1}) == f.tables.shade(0, 150));
  CHECK(colour_with_light({-1, 1, 0}) == f.tables.shade(10, 150));
  CHECK(colour_with_light({-3, 0, -1}) == f.tables.shade(14, 150));
  // The rows differ, so the colours tell them apart.
  CHECK(f.tables.shade(14, 150) != f.tables.shade(4, 150));
  CHECK(f.tables.shade(10, 150) != f.tables.shade(0, 150));
}

TEST_CASE("AP-24 AP-25 with gouraud=0 only the second count's normals are kept") {
  // Three normals, of which the first two are the subset kept without Gouraud shading.
  ApacheFixture f(R"(
model 0 box
)" + box_vertices() +
                  R"(  normal 0 0 -127
  normal 0 127 0
  normal 0 0 -127
  flatnormals 2
program
  face shadedpolygon colour=150 normal=0 : 3 2 1 0
  face shadedpolygon colour=150 normal=2 : 3 2 1 0
  face gouraud colour=150 normal=2 : 3/n2 2/n2 1/n2 0/n2
  ret
end
)");
  apache::RunState s = front_view();
  s.light = {0, 1, 0};  // perpendicular to normals 0 and 2: row 0
  ApacheSink on;
  run_apache(f, 0, s, on);
  REQUIRE(on.faces.size() == 3);
  CHECK(on.faces[0].color == f.tables.shade(0, 150));
  CHECK(on.faces[1].color == f.tables.shade(0, 150));  // normal 2 is in the full list
  CHECK(on.faces[2].shade == std::vector<int32_t>{0, 0, 0, 0});
  CHECK_FALSE(on.has_diagnostic("beyond"));

  apache::apply_set(s, "gouraud=0");
  ApacheSink off;
  auto r = run_apache(f, 0, s, off);
  CHECK(r.clean);
  REQUIRE(off.faces.size() == 3);
  CHECK(off.faces[0].color == f.tables.shade(0, 150));  // inside the subset: lit as before
  // Normal 2 is past the two kept without Gouraud: the authored colour at full intensity.
  CHECK(off.faces[1].color == 150);
  CHECK(off.faces[2].color == 150);
  CHECK_FALSE(off.faces[2].shaded);
  CHECK(off.has_diagnostic("normal index 2 is beyond the 2 normals kept without Gouraud"));
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

TEST_CASE("AP-30 texture coordinates are reported on every run of one interpreter") {
  // The first run decodes into scratch storage, the second keeps its instructions and checks
  // them, later ones skip the check of packets that needed no message: every run reports the
  // same messages, and a clean textured face stays silent.
  ApacheFixture f("texture 1 type 2 solid 5\n" + box_model(R"(
  face texture texture=1 colour=3 : 3/0/0 2/63/0 1/63/63 0/0/63
  face texture texture=1 colour=3 : 3/0/0 2/64/0 1/64/63 0/0/63
  face texture texture=1 colour=3 : 3/0/0 2/63/0 1/63/80 0/0/80
  face texture texture=9 colour=3 : 3/0/0 2/63/0 1/63/63 0/0/63
  ret
)"));
  apache::Interpreter interp(f.archive, f.tables, &*f.textures);
  for (int run = 0; run < 4; ++run) {
    CAPTURE(run);
    ApacheSink sink;
    auto r = interp.run(0, front_view(), sink);
    CHECK(r.clean);
    REQUIRE(sink.faces.size() == 4);
    CHECK(sink.faces[0].texture == "tex1");
    // In program order: u=64 on the first row, u=64 on the last row (which runs past the
    // allocation), v=80 at two corners, the missing texture once.
    REQUIRE(sink.diagnostics.size() == 5);
    auto says = [&](size_t i, const std::string& needle) {
      return sink.diagnostics[i].message.find(needle) != std::string::npos;
    };
    CHECK(says(0, "u=64 on a 64-pixel row"));
    CHECK(says(1, "u=64 v=63 addresses beyond texture 1's allocation"));
    CHECK(says(2, "v=80 addresses beyond texture 1's allocation"));
    CHECK(says(3, "v=80 addresses beyond texture 1's allocation"));
    CHECK(says(4, "texture 9 is not in OBJTEXT.BIN"));
    // None of them comes from the first, clean face.
    for (const auto& d : sink.diagnostics) CHECK(d.offset != sink.faces[0].offset);
  }
}

TEST_CASE(
    "AP-20 each face carries only its own packet's surface, whatever the face before it set") {
  // Every material and shading in turn, each followed by a plain polygon: a field one packet sets
  // (pattern, second colour, remap table, texture, intensity rows, shape) must not reach the next.
  ApacheFixture f("texture 1 type 2 solid 5\n" + box_model(R"(
  face twocolour colour=30 colour2=31 : 3 2 1 0
  face polygon colour=40 : 3 2 1 0
  face glass : 3 2 1 0
  face polygon colour=41 : 3 2 1 0
  face shadedtexture texture=1 colour=3 normal=0 : 3/0/0 2/63/0 1/63/63 0/0/63
  face polygon colour=42 : 3 2 1 0
  face coarsemesh colour=32 : 3 2 1 0
  face polygon colour=43 : 3 2 1 0
  face gouraud colour=33 normal=0 : 3/n0 2/n0 1/n0 0/n0
  face polygon colour=44 : 3 2 1 0
  face points colour=34 : 3 2 1 0
  face polygon colour=45 : 3 2 1 0
  ret
)"));
  ApacheSink sink;
  auto r = run_apache(f, 0, front_view(), sink);
  CHECK(r.clean);
  REQUIRE(sink.faces.size() == 12);
  CHECK(sink.faces[0].alternates);
  CHECK(sink.faces[2].remap);
  CHECK(sink.faces[4].textured);
  CHECK(sink.faces[4].texture == "tex1");
  CHECK(sink.faces[6].pattern != 0xFFFF);
  CHECK(sink.faces[8].shaded);
  CHECK(sink.faces[10].shape == FaceShape::kPoints);
  for (size_t i = 1; i < sink.faces.size(); i += 2) {
    CAPTURE(i);
    const auto& plain = sink.faces[i];
    CHECK(plain.color == 40 + i / 2);
    CHECK(plain.color2 == 0);
    CHECK(plain.pattern == 0xFFFF);
    CHECK_FALSE(plain.alternates);
    CHECK_FALSE(plain.remap);
    CHECK_FALSE(plain.textured);
    CHECK(plain.texture.empty());
    CHECK_FALSE(plain.shaded);
    CHECK_FALSE(plain.shadow);
    CHECK(plain.shape == FaceShape::kPolygon);
  }
}

TEST_CASE("AP-32 a shadow face is a meshed polygon even after a run that ended on points") {
  // One interpreter, two runs: the first run's last face is points in a texture; the second
  // run's shadow pass draws first, and its faces keep no field of that face.
  ApacheFixture f("texture 1 type 2 solid 5\nmodel 0 caster\n  properties 1\n" + box_vertices() +
                  R"(program
  face polygon colour=10 : 3 2 1 0
  face texture texture=1 colour=9 : 2/0/0 6/1/0 5/1/1 1/0/1
  face points colour=11 : 0 1
  ret
end
)");
  apache::Interpreter interp(f.archive, f.tables, &*f.textures);
  apache::RunState s;
  s.camera = {6000, 0, 60};
  ApacheSink first, second;
  interp.run(0, s, first);
  REQUIRE_FALSE(first.faces.empty());
  REQUIRE(first.faces.back().shape == FaceShape::kPoints);
  interp.run(0, s, second);
  REQUIRE_FALSE(second.faces.empty());
  const auto& shadow = second.faces.front();
  CHECK(shadow.shadow);
  CHECK(shadow.pattern != 0xFFFF);
  CHECK(shadow.shape == FaceShape::kPolygon);
  CHECK_FALSE(shadow.textured);
  CHECK(shadow.texture.empty());
  CHECK_FALSE(shadow.alternates);
  CHECK_FALSE(shadow.shaded);
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

}  // namespace apache_interpreter_tests
