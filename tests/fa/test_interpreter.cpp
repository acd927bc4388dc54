// The FA interpreter against the seed's control-flow formulas, on small assembled shapes.
// Each case cites the FACTS-CHECKLIST IDs it pins.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "interp/fa/branch_kinds.h"
#include "interp/fa/generator.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/precision_shift.h"
#include "interp/fa/program.h"
#include "tests/fa/recording_sink.h"
#include "tests/fa/shape_text.h"
#include "tests/fa/trace_text.h"

namespace fa_interpreter_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::RecordingSink;
using shapevm::testing::with_header;

namespace {

// Three vertices in slots 0..2 then `body`, ending at a top-level ShortEOF.
std::string tri(const std::string& body) {
  return with_header("VertexBuffer at=0\n v 0, 10, 0\n v 10, 10, 0\n v 0, 10, 10\n" + body +
                     "\nShortEOF\n");
}

std::string face(int color) {
  return "Face content=0 layout=0 color=" + std::to_string(color) + " shadow=0 idx=0,1,2\n";
}

RecordingSink run(const std::string& text, const RunState& state = {},
                  Dispatch d = Dispatch::kThreaded) {
  auto b = build_shape(text);
  Interpreter interp(b.shape);
  RecordingSink sink;
  interp.run(state, sink, d);
  return sink;
}

std::vector<uint8_t> colors(const std::string& text, const RunState& state = {}) {
  return run(text, state).face_colors;
}

}  // namespace

TEST_CASE(
    "FA-31: JumpToFrame takes slot _frameCounter mod nframes (counter 5, 3 frames -> slot 2)") {
  const std::string text = tri(R"(
    JumpToFrame @a, @b, @c
a:
)" + face(1) + " Jump @done\nb:\n" +
                               face(2) + " Jump @done\nc:\n" + face(3) + "done:\n");
  RunState s;
  s.frame = 5;
  CHECK(colors(text, s) == std::vector<uint8_t>{3});
  s.frame = 4;
  CHECK(colors(text, s) == std::vector<uint8_t>{2});
  s.frame = 0;
  CHECK(colors(text, s) == std::vector<uint8_t>{1});
}

TEST_CASE("FA-32: _frameCounter is 15 bits: frame 0x8005 selects like frame 5") {
  const std::string text = tri("JumpToFrame @a, @b, @c\na:\n" + face(1) + " Jump @done\nb:\n" +
                               face(2) + " Jump @done\nc:\n" + face(3) + "done:\n");
  RunState s;
  s.frame = 0x8005;
  CHECK(s.frame_counter() == 5);
  CHECK(colors(text, s) == std::vector<uint8_t>{3});
}

TEST_CASE(
    "FA-34/FA-36/FA-37: Unmask calls the body once, ShortEOF returns, then the ShortJump joins") {
  auto sink = run(
      tri("Unmask @body\n ShortJump @join\nbody:\n" + face(7) + " ShortEOF\njoin:\n" + face(8)));
  CHECK(sink.face_colors == std::vector<uint8_t>{7, 8});
  CHECK(sink.end.reason == "ShortEOF at top level");
  CHECK(sink.end.clean);
}

TEST_CASE("FA-34: a ShortEOF at top level ends the object; nothing after it runs") {
  auto sink = run(tri(face(1) + " ShortEOF\n" + face(2)));
  CHECK(sink.face_colors == std::vector<uint8_t>{1});
}

TEST_CASE("FA-35: in a run of ShortEOF only the first executes") {
  auto sink =
      run(tri("Unmask @body\n" + face(9) + " ShortEOF\nbody:\n ShortEOF\n ShortEOF\n ShortEOF\n"));
  int short_eofs = 0;
  for (const auto& e : sink.op_events) short_eofs += e.op == 0x1E;
  CHECK(short_eofs == 2);  // the body's first, then the top-level one after face 9
  CHECK(sink.face_colors == std::vector<uint8_t>{9});
}

TEST_CASE("FA-38/FA-41: OrderField draws both chains; the object field only swaps their order") {
  const std::string text = tri(R"(
    Unmask @sel
    ShortJump @join
sel:
    OrderField field=0x0e cmp=5 call=@a continue=@b then=ShortJump:@b
a:
)" + face(1) + " ShortEOF\nb:\n" +
                               face(2) + " ShortEOF\njoin:\n");
  RunState s;
  s.object_record[0x0E] = 5;  // equal: the authored order (assumptions.h)
  CHECK(colors(text, s) == std::vector<uint8_t>{1, 2});
  s.object_record[0x0E] = 6;
  CHECK(colors(text, s) == std::vector<uint8_t>{2, 1});
}

namespace {

// Viewer-relative object positions (xv, yv, zv) the Q15 camera gives at distance 200; worked out by
// hand from camera.cpp's formulas (f = forward, v = (f * 200) >> 15, cos 0 = sin 90 = 32767):
//   heading 0:    f = (0, 32766, 0)       -> v = (0, 199, 0)
//   heading 90:   f = (-32767, 0, 0)      -> v = (-200, 0, 0)
//   heading 270:  f = (32766, 0, 0)       -> v = (199, 0, 0)
//   pitch 90:     f = (0, 0, -32767)      -> v = (0, 0, -200)
const CameraSpec kViewY{200, 0, 0};        // v = (0, 199, 0)
const CameraSpec kViewMinusX{200, 90, 0};  // v = (-200, 0, 0)
const CameraSpec kViewPlusX{200, 270, 0};  // v = (199, 0, 0)
const CameraSpec kViewMinusZ{200, 0, 90};  // v = (0, 0, -200)

// Runs `op` as a selector whose call chain draws colour 1 and whose continue chain draws colour
// 2, and returns the selector's branch event and the colours in drawing order.
std::pair<BranchEvent, std::vector<uint8_t>> run_selector(const std::string& op,
                                                          const CameraSpec& camera) {
  const std::string text = tri("Unmask @sel\n ShortJump @join\nsel:\n " + op + " call=@a\n" +
                               face(2) + " ShortEOF\na:\n" + face(1) + " ShortEOF\njoin:\n");
  RunState s;
  s.camera = camera;
  auto sink = run(text, s);
  BranchEvent selector;
  for (const auto& b : sink.branches)
    if (b.kind == branch_kind::kSelector) selector = b;
  return {selector, sink.face_colors};
}

}  // namespace

TEST_CASE(
    "FA-39/FA-41: OrderPlane's test is nx(px+xv) + ny(py+yv) + nz(pz+zv); each term decides") {
  // The expected test values are the seed's formula evaluated by hand with the viewer positions
  // above. In each case one term outweighs the others, so dropping it, flipping its sign or
  // subtracting the viewer position instead of adding it gives the other order. The authored
  // order (call first) is kept for a test >= 0 (assumptions.h).
  struct Case {
    const char* plane;  // nx, ny, nz, px, py, pz
    CameraSpec camera;
    int64_t test;
  };
  const Case cases[] = {
      {"1,1,1,0,50,50", kViewMinusX, 1 * (0 - 200) + 1 * (50 + 0) + 1 * (50 + 0)},  // -100: x
      {"1,1,1,0,50,50", kViewPlusX, 1 * (0 + 199) + 1 * (50 + 0) + 1 * (50 + 0)},   // 299
      {"1,-1,1,50,0,50", kViewY, 1 * (50 + 0) - 1 * (0 + 199) + 1 * (50 + 0)},      // -99: y
      {"-1,1,-1,50,0,50", kViewY, -1 * (50 + 0) + 1 * (0 + 199) - 1 * (50 + 0)},    // 99
      {"1,1,1,50,50,0", kViewMinusZ, 1 * (50 + 0) + 1 * (50 + 0) + 1 * (0 - 200)},  // -100: z
      {"0,1,0,0,-250,0", kViewY, 1 * (-250 + 199)},                                 // -51: py
      {"0,1,0,0,-150,0", kViewY, 1 * (-150 + 199)},                                 // 49
      {"1,0,0,-30,0,0", kViewY, 1 * (-30 + 0)},                                     // -30: px
      {"0,0,-1,0,0,40", kViewY, -1 * (40 + 0)},                                     // -40: pz
      {"3,0,0,0,0,0", kViewMinusX, 3 * (0 - 200)},                                  // -600
  };
  for (const auto& c : cases) {
    INFO("plane " << c.plane << " test " << c.test);
    auto [branch, order] = run_selector(std::string("OrderPlane plane=") + c.plane, c.camera);
    CHECK(branch.value == c.test);
    CHECK(order == (c.test >= 0 ? std::vector<uint8_t>{1, 2} : std::vector<uint8_t>{2, 1}));
  }
}

TEST_CASE(
    "FA-40/FA-41: the short plane forms test y/z (0x0C), x/z (0x0E), x/y (0x10); each axis "
    "decides") {
  // plane = n_a, n_b, p_a, p_b; test = n_a(p_a + v[a]) + n_b(p_b + v[b]). Each row makes one
  // axis decide, with the other axis of the viewer position at 0, so reading the wrong pair of
  // axes gives a test >= 0 and the other order.
  struct Case {
    const char* op;
    const char* plane;
    CameraSpec camera;
    int64_t test;
  };
  const Case cases[] = {
      {"OrderPlaneYZ", "-1,1,0,50", kViewY, -1 * (0 + 199) + 1 * (50 + 0)},       // -149: y
      {"OrderPlaneYZ", "1,1,50,0", kViewMinusZ, 1 * (50 + 0) + 1 * (0 - 200)},    // -150: z
      {"OrderPlaneYZ", "1,0,-250,0", kViewY, 1 * (-250 + 199)},                   // -51
      {"OrderPlaneXZ", "1,1,0,50", kViewMinusX, 1 * (0 - 200) + 1 * (50 + 0)},    // -150: x
      {"OrderPlaneXZ", "1,1,50,0", kViewMinusZ, 1 * (50 + 0) + 1 * (0 - 200)},    // -150: z
      {"OrderPlaneXZ", "1,1,0,50", kViewPlusX, 1 * (0 + 199) + 1 * (50 + 0)},     // 249
      {"OrderPlaneXY", "1,1,0,50", kViewMinusX, 1 * (0 - 200) + 1 * (50 + 0)},    // -150: x
      {"OrderPlaneXY", "1,-1,50,0", kViewY, 1 * (50 + 0) - 1 * (0 + 199)},        // -149: y
      {"OrderPlaneXY", "-1,-1,0,-250", kViewY, -1 * (0 + 0) - 1 * (-250 + 199)},  // 51
  };
  for (const auto& c : cases) {
    INFO(c.op << " plane " << c.plane << " test " << c.test);
    auto [branch, order] = run_selector(std::string(c.op) + " plane=" + c.plane, c.camera);
    CHECK(branch.value == c.test);
    CHECK(order == (c.test >= 0 ? std::vector<uint8_t>{1, 2} : std::vector<uint8_t>{2, 1}));
  }
}

TEST_CASE("FA-36/FA-40/FA-42: call targets from hand-written bytes (not the assembler's labels)") {
  // Each selector or call below is written as raw bytes; its displacement 0x0A skips the 10 bytes
  // of "face 2, ShortEOF" so the call lands on face 1. Calls return at face 1's ShortEOF and the
  // run continues after the instruction: face 2, then the top-level ShortEOF.
  const std::string tail = face(2) + " ShortEOF\n" + face(1) + " ShortEOF\n";
  const char* const calls[] = {
      ".db 12 00 0a 00",                                            // Unmask: off + 4 + rel16
      ".db 6e 00 0a 00 00 00",                                      // UnmaskLong: off + 6 + rel32
      ".db 0c 00 00 00 00 00 00 00 00 00 02 00 0a 00",              // 0x0C: off + 14 + rel16
      ".db 0e 00 00 00 00 00 00 00 00 00 02 00 0a 00",              // 0x0E
      ".db 10 00 00 00 00 00 00 00 00 00 02 00 0a 00",              // 0x10
      ".db 06 00 00 00 00 00 00 00 00 00 00 00 00 00 02 00 0a 00",  // 0x06: off + 18 + rel16
      ".db c4 00 00 00 00 00 00 00 00 00 00 00 00 00 0a 00",        // XformUnmask: off + 16 + rel16
      ".db c6 00 00 00 00 00 00 00 00 00 00 00 00 00 0a 00 00 00",  // ...Long: off + 18 + rel32
  };
  for (const char* call : calls) {
    INFO(call);
    RunState s;
    s.camera = kViewY;  // the plane tests are 0: the authored order, call first
    auto sink = run(tri(std::string(call) + "\n" + tail), s);
    CHECK(sink.face_colors == std::vector<uint8_t>{1, 2});
    CHECK(sink.end.reason == "ShortEOF at top level");
    REQUIRE(sink.face_offsets.size() == 2);
    // The call instruction starts at 38 (14-byte header + 24-byte VertexBuffer).
    const uint32_t size = static_cast<uint32_t>((std::string(call).size() - 3) / 3);
    CHECK(sink.face_offsets[0] == 38 + size + 10);
    CHECK(sink.face_offsets[1] == 38 + size);
  }
}

TEST_CASE("FA-43/FA-44: JumpToDamage branches when _destroyed; health 0 means destroyed") {
  const std::string text =
      tri("JumpToDamage @wreck\n" + face(1) + " Jump @done\nwreck:\n" + face(2) + "done:\n");
  RunState s;
  CHECK(colors(text, s) == std::vector<uint8_t>{1});
  s.destroyed = true;
  CHECK(colors(text, s) == std::vector<uint8_t>{2});
  RunState h;
  apply_set(h, "health=0");
  CHECK(h.destroyed_flag());
  CHECK(colors(text, h) == std::vector<uint8_t>{2});
  RunState f;
  apply_set(f, "health=100");
  apply_set(f, "_forceDestroyed=1");
  CHECK(colors(text, f) == std::vector<uint8_t>{2});
}

TEST_CASE("FA-45: JumpToDetail branches to the lower-detail block when _detail < threshold") {
  const std::string text = tri("JumpToDetail @low threshold=3\n" + face(1) + " Jump @done\nlow:\n" +
                               face(2) + "done:\n");
  RunState s;
  s.detail = 2;
  CHECK(colors(text, s) == std::vector<uint8_t>{2});
  s.detail = 3;
  CHECK(colors(text, s) == std::vector<uint8_t>{1});
}

TEST_CASE(
    "FA-46..FA-49: JumpToLOD compares size*aspecty*scrh/depth/2 with (threshold*sizeAdjust)>>8") {
  const std::string text = tri("JumpToLOD @coarse size=100 threshold=50\n" + face(1) +
                               " Jump @done\ncoarse:\n" + face(2) + "done:\n");
  RunState s;
  s.camera = {400, 0, 0};  // depth 400 (in front, level)
  s.scrh = 480;
  auto sink = run(text, s);
  REQUIRE(!sink.branches.empty());
  const auto& lod = sink.branches[0];
  CHECK(lod.kind == branch_kind::kLod);
  // depth = -(xv*m3 + yv*m6 + zv*m9) >> 15 ~ 400 (Q15 rounding may take one off)
  const int64_t expected_hi = 100 * 1 * 480 / 399 / 2, expected_lo = 100 * 1 * 480 / 401 / 2;
  CHECK(lod.value >= expected_lo);
  CHECK(lod.value <= expected_hi);
  CHECK(lod.limit == 50);
  CHECK(sink.face_colors == std::vector<uint8_t>{1});  // 60 >= 50: this LOD renders
  s.size_adjust = 512;  // threshold doubles to 100 > 60: too small, next LOD
  CHECK(colors(text, s) == std::vector<uint8_t>{2});
  s.effects = 0x20000;  // forces the finest block whatever the size
  CHECK(colors(text, s) == std::vector<uint8_t>{1});
  // Depth clamps at 20: a camera 1 unit away projects as if 20 away.
  RunState near;
  near.camera = {1, 0, 0};
  near.scrh = 480;
  auto n = run(text, near);
  CHECK(n.branches[0].value == 100 * 480 / 20 / 2);
}

TEST_CASE("FA-48: aspecty multiplies the projected size; sizeAdjust scales the threshold >> 8") {
  // A camera 1 unit away clamps depth to 20 (FA-47), so the values are exact:
  //   projected = size * aspecty * scrh / depth / 2 = 100 * 3 * 480 / 20 / 2 = 3600
  //   threshold = (pixel_threshold * sizeAdjust) >> 8 = (2000 * 300) >> 8 = 2343
  // Without aspecty the size would be 1200 < 2343 and the coarser block would draw.
  const std::string text = tri("JumpToLOD @coarse size=100 threshold=2000\n" + face(1) +
                               " Jump @done\ncoarse:\n" + face(2) + "done:\n");
  RunState s;
  s.camera = {1, 0, 0};
  s.scrh = 480;
  apply_set(s, "aspecty=3");
  apply_set(s, "sizeAdjust=300");
  auto sink = run(text, s);
  REQUIRE(!sink.branches.empty());
  CHECK(sink.branches[0].value == 3600);
  CHECK(sink.branches[0].limit == 2343);
  CHECK_FALSE(sink.branches[0].taken);
  CHECK(sink.face_colors == std::vector<uint8_t>{1});
  // aspecty 1: 1200 < 2343, too small: the coarser block.
  apply_set(s, "aspecty=1");
  auto small = run(text, s);
  CHECK(small.branches[0].value == 1200);
  CHECK(small.face_colors == std::vector<uint8_t>{2});
  // sizeAdjust 512 doubles the threshold: (2000 * 512) >> 8 = 4000 > 3600.
  apply_set(s, "aspecty=3");
  apply_set(s, "sizeAdjust=512");
  auto doubled = run(text, s);
  CHECK(doubled.branches[0].limit == 4000);
  CHECK(doubled.face_colors == std::vector<uint8_t>{2});
}

TEST_CASE("FA-50: --lod k sits just below the k-th largest distinct threshold") {
  const std::string text = tri(R"(
    JumpToLOD @l1 size=100 threshold=40
)" + face(0) + " Jump @done\nl1:\n JumpToLOD @l2 size=100 threshold=10\n" +
                               face(1) + " Jump @done\nl2:\n" + face(2) + "done:\n");
  auto b = build_shape(text);
  Interpreter interp(b.shape);
  CHECK(interp.lod_thresholds() == std::vector<uint16_t>{40, 10});
  for (uint32_t level = 0; level < 3; ++level) {
    RunState s;
    s.lod = level;
    RecordingSink sink;
    interp.run(s, sink);
    INFO("level " << level);
    CHECK(sink.face_colors == std::vector<uint8_t>{static_cast<uint8_t>(level)});
  }
}

TEST_CASE("FA-10/FA-11: push_at/8 picks the pool slot; TextureFile applies to the faces after it") {
  auto sink = run(with_header(R"(
    VertexBuffer at=16
        v 1, 2, 3
        v 4, 5, 6
        v 7, 8, 9
    Face content=0 layout=0 color=1 shadow=0 idx=2,3,4
    TextureFile "_T.PIC"
    Face content=0x04 layout=0x01 color=2 shadow=0 idx=2,3,4 uv=0,0,1,0,0,1
    Face content=0 layout=0 color=3 shadow=0 idx=0,1,2
    ShortEOF
)"));
  CHECK(sink.face_colors == std::vector<uint8_t>{1, 2});  // slots 0 and 1 were never written
  CHECK(sink.face_textures[0].empty());
  CHECK(sink.face_textures[1] == "_T.PIC");
  REQUIRE(sink.diagnostics.size() == 1);
  CHECK(sink.diagnostics[0].find("slot 0") != std::string::npos);
}

TEST_CASE(
    "FA-10: the pool's last slot (push_at 65528) can be written and drawn; slots above "
    "every written one read as unwritten; a buffer running past the pool stops the run") {
  // The interpreter's pool grows to the highest slot written, so these pin the bounds it must
  // keep: slot 8191 is the last of assumed::kPoolSlots, and 8000 lies between slot 2 (the
  // highest the first buffer wrote) and 8191. Both dispatches: the pre-decoded one checks a
  // buffer's bounds when it decodes it, the switch when it executes it.
  const std::string text = with_header(R"(
    VertexBuffer at=16
        v 1, 2, 3
    Face content=0 layout=0x04 color=1 shadow=0 idx=2,2,8000
    VertexBuffer at=65528
        v 4, 5, 6
    Face content=0 layout=0x04 color=2 shadow=0 idx=2,8191,8191
    VertexBuffer at=65528
        v 7, 8, 9
        v 7, 8, 9
    Face content=0 layout=0 color=3 shadow=0 idx=2,2,2
    ShortEOF
)");
  for (const Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
    INFO("dispatch " << static_cast<int>(dispatch));
    const auto sink = run(text, {}, dispatch);
    CHECK(sink.face_colors == std::vector<uint8_t>{2});
    REQUIRE(sink.face_views.size() == 1);
    CHECK(sink.face_indices[0] == std::vector<uint32_t>{2, 8191, 8191});
    REQUIRE(sink.diagnostics.size() == 2);
    CHECK(sink.diagnostics[0].find("slot 8000") != std::string::npos);
    CHECK(sink.diagnostics[1].find(
              "VertexBuffer writes slots 8191..8192, beyond the 8192-slot pool") !=
          std::string::npos);
    CHECK_FALSE(sink.end.clean);
  }
}

TEST_CASE("FA-26/FA-33: ShortJump is 3 bytes (DEC ESI then the Jump body); LongJump takes rel32") {
  auto sink =
      run(tri("ShortJump @x\n" + face(1) + "x:\n LongJump @y\n" + face(2) + "y:\n" + face(3)));
  CHECK(sink.face_colors == std::vector<uint8_t>{3});
  REQUIRE(sink.op_events.size() >= 2);
  CHECK(sink.op_events[1].name == "ShortJump");
  CHECK(sink.op_events[1].handler_address == 0x4D30E4);
  CHECK(sink.op_events[2].offset == sink.op_events[1].offset + 3 + 9);  // past the 9-byte face
}

TEST_CASE("FA-33: LongJump's rel32 reaches past 64 KiB (a rel16 reading would land elsewhere)") {
  // LongJump at 38 (header 14 + VertexBuffer 24); 0x10000 bytes of UnkB2 (B2 00) filler, then
  // face 2 (9 bytes), then y: face 3. rel32 = 0x10000 + 9 = 0x00010009, whose low half (9) would
  // land inside the filler.
  std::string filler;
  for (int line = 0; line < 0x10000 / 64; ++line) {
    filler += " .db";
    for (int i = 0; i < 32; ++i) filler += " b2 00";
    filler += "\n";
  }
  auto sink = run(tri("LongJump @y\n" + filler + face(2) + "y:\n" + face(3)));
  CHECK(sink.face_colors == std::vector<uint8_t>{3});
  REQUIRE(!sink.branches.empty());
  CHECK(sink.branches[0].target == 38 + 6 + 0x10009);
  CHECK(sink.op_events.size() == 4);  // VertexBuffer, LongJump, face 3, ShortEOF: no filler
}

TEST_CASE(
    "FA-25/FA-27: an odd opcode (0x01 EndShape here) stops with the misaligned vector_table entry "
    "named") {
  auto sink = run(tri(face(1) + " EndShape\n" + face(2)));
  CHECK(sink.face_colors == std::vector<uint8_t>{1});
  CHECK_FALSE(sink.end.clean);
  REQUIRE(!sink.diagnostics.empty());
  CHECK(sink.diagnostics.back().find("misaligned") != std::string::npos);
  CHECK(sink.diagnostics.back().find("0x5183A2") != std::string::npos);  // vector_table + 0x01*2
}

TEST_CASE("FA-30: an unassigned slot stops with a diagnostic naming the slot") {
  auto sink = run(tri(".db 02 00\n" + face(1)));
  CHECK(sink.face_colors.empty());
  CHECK_FALSE(sink.end.clean);
  CHECK(sink.diagnostics.back().find("unassigned") != std::string::npos);
}

TEST_CASE("FA-53: untraced opcodes keep their sizes, are marked, and change no geometry") {
  auto plain = run(tri(face(1) + face(2)));
  auto with =
      run(tri("UnkB8 raw=0100\n Unk44 raw=0100\n" + face(1) + " UnkDA raw=1000\n" + face(2)));
  CHECK(with.face_colors == plain.face_colors);
  CHECK(with.face_views == plain.face_views);
  int untraced = 0;
  for (const auto& e : with.op_events) untraced += e.untraced;
  CHECK(untraced == 3);
}

TEST_CASE("FA-51: the header radius is OR-ed with the viewer offset to pick the precision shift") {
  // shift = bits of (|xv| | |yv| | |zv| | radius) beyond 14 (assumptions.h, kPrecisionBits).
  CHECK(precision_shift(100, {0, 299, 0}) == 0);     // 100 | 299 = 367: 9 bits
  CHECK(precision_shift(100, {0, 39997, 0}) == 2);   // 16 bits
  CHECK(precision_shift(100, {-19998, 0, 0}) == 1);  // magnitudes: 15 bits
  CHECK(precision_shift(0x5000, {0, 299, 0}) == 1);  // the radius decides: 15 bits
  CHECK(precision_shift(0x3FFF, {0, 0x3FFF, 0}) == 0);
  CHECK(precision_shift(0x2000, {0x1000, 0x0800, 0x0400}) == 0);  // OR: 0x3C00, 14 bits
  // Through a run: heading 0 puts the viewer offset on y, (32766 * d) >> 15.
  // Corners (0,10,0), (3,10,0), (4,10,0): view x = ((x >> s) * 32767) >> (7 - s).
  const std::string text = with_header(R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 3, 10, 0
        v 4, 10, 0
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
)");
  auto xs_at = [&](int32_t distance, int16_t radius, int expected_shift) {
    auto b = build_shape(
        std::string(text).replace(text.find("radius=100"), 10, "radius=" + std::to_string(radius)));
    Interpreter interp(b.shape);
    RecordingSink sink;
    RunState s;
    s.camera = {distance, 0, 0};
    const RunResult r = interp.run(s, sink);
    CHECK(r.precision_shift == expected_shift);
    std::vector<int32_t> xs;
    REQUIRE(sink.face_views.size() == 1);
    for (const auto& p : sink.face_views[0]) xs.push_back(p.x);
    return xs;
  };
  // d = 300: yv 299, shift 0: 3 * 32767 >> 7 = 767, 4 * 32767 >> 7 = 1023.
  CHECK(xs_at(300, 100, 0) == std::vector<int32_t>{0, 767, 1023});
  // d = 40000: yv 39997, shift 2: 3 >> 2 = 0, (1 * 32767) >> 5 = 1023.
  CHECK(xs_at(40000, 100, 2) == std::vector<int32_t>{0, 0, 1023});
  // d = 300 with radius 0x5000: shift 1 from the radius alone: (1 * 32767) >> 6 = 511,
  // (2 * 32767) >> 6 = 1023.
  CHECK(xs_at(300, 0x5000, 1) == std::vector<int32_t>{0, 511, 1023});
}

// Beyond a shift of 7 the sum keeps fewer than 8 fractional bits, and is shifted left to make up
// the difference (the far side of the same scale-back).
TEST_CASE("FA-51: past a precision shift of 7 the view is scaled back up") {
  const std::string text = with_header(R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 32767, 10, 0
        v -32768, 10, 0
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
)");
  auto b = build_shape(text);
  Interpreter interp(b.shape);
  RecordingSink sink;
  RunState s;
  // d = 2^23: yv = (32766 * d) >> 15 = 8388352, 23 bits: shift 9, so the sum is shifted left
  // by 9 - 7 = 2.
  s.camera = {8388608, 0, 0};
  const RunResult r = interp.run(s, sink);
  CHECK(r.precision_shift == 9);
  REQUIRE(sink.face_views.size() == 1);
  std::vector<int32_t> xs;
  for (const auto& p : sink.face_views[0]) xs.push_back(p.x);
  // 32767 >> 9 = 63, (63 * 32767) << 2 = 8257284; -32768 >> 9 = -64, (-64 * 32767) << 2.
  CHECK(xs == std::vector<int32_t>{0, 8257284, -8388352});
  // Depth is the viewer's offset, -(8388352 >> 9) * 32767 << 2: beyond half the 32-bit range,
  // where every view coordinate is clamped.
  for (const auto& p : sink.face_views[0]) CHECK(p.z == INT32_MIN / 2);
}

TEST_CASE("FA-52: radius_world is never read; the run is the same whatever it holds") {
  const std::string body =
      "VertexBuffer at=0\n v 0, 10, 0\n v 10, 10, 0\n v 0, 10, 10\n" + face(1) + "ShortEOF\n";
  auto a = run(".header radius_world=0 radius=100 scale=8 extents=1,1,1\n" + body);
  auto b = run(".header radius_world=12345 radius=100 scale=8 extents=1,1,1\n" + body);
  CHECK(a.face_views == b.face_views);
  CHECK(a.op_events.size() == b.op_events.size());
  REQUIRE(!a.op_events.empty());
  CHECK(a.op_events[0].offset == 14);  // GRAddBrentObj hands over header + 0x0E
}

TEST_CASE(
    "FA-42: XformUnmask(Long) calls its chain with the object moved by t; the return restores it") {
  // Camera heading 0, pitch 0, distance 300: v = (0, 299, 0) and the Q15 view matrix has
  // m7..m9 = (0, 32765, 0): view y = (z + zv) * 32765 >> 7 (8 fractional bits kept). For the
  // corner (0, 10, 0): unmoved y = 0; moved by t = (0, 0, 50): 50 * 32765 >> 7 = 12798. For the
  // corner (0, 10, 10): unmoved 10 * 32765 >> 7 = 2559; moved 60 * 32765 >> 7 = 15358.
  for (const char* xform : {"XformUnmask", "XformUnmaskLong"}) {
    INFO(xform);
    const std::string text = with_header(std::string(R"(
    Unmask @part
    )") + xform + R"( t=0,0,50 a=0,0,0 call=@part
    Unmask @part
    ShortEOF
part:
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
)");
    RunState s;
    s.camera = {300, 0, 0};
    auto sink = run(text, s);
    REQUIRE(sink.face_views.size() == 3);
    const std::vector<int32_t> unmoved = {0, 0, 2559}, moved = {12798, 12798, 15358};
    for (size_t f = 0; f < 3; ++f) {
      INFO("face " << f);
      std::vector<int32_t> ys;
      for (const auto& p : sink.face_views[f]) ys.push_back(p.y);
      // before the Xform call, inside it, and after its return (the position restored)
      CHECK(ys == (f == 1 ? moved : unmoved));
      CHECK(sink.face_views[f][0].x == 0);
    }
  }
}

TEST_CASE("budgets: an endless loop stops at the step limit, runaway recursion at the call depth") {
  RunState s;
  s.step_limit = 1000;
  auto loop = run(tri("x:\n Jump @x\n"), s);
  CHECK_FALSE(loop.end.clean);
  CHECK(loop.end.reason == "budget: steps");
  CHECK(loop.end.ops == 1000);
  auto deep = run(tri("r:\n Unmask @r\n"));
  CHECK_FALSE(deep.end.clean);
  CHECK(deep.diagnostics.back().find("call depth") != std::string::npos);
  auto off = run(tri("Jump @x\n .db 00\nx:\n .db 48 00 00 70\n"));
  CHECK_FALSE(off.end.clean);
  CHECK(off.diagnostics.back().find("outside CODE") != std::string::npos);
}

TEST_CASE("every end of a run has a typed StopReason beside its unchanged reason text") {
  struct StopAtFirstOpcode : DebugHook {
    bool pause(const DebugView& v) override { return v.end == nullptr; }
  };
  auto end = [](const std::string& text, RunState state = {}, DebugHook* hook = nullptr) {
    auto b = build_shape(text);
    Interpreter interp(b.shape);
    interp.set_debug_hook(hook);
    RecordingSink sink;
    const RunResult r = interp.run(state, sink);
    CHECK(r.reason == sink.end.reason);  // the text traces print
    CHECK(r.clean == sink.end.clean);
    return r;
  };
  RunResult r = end(tri(face(1)));
  CHECK(r.stop == StopReason::kTopLevelShortEof);
  CHECK(r.reason == "ShortEOF at top level");
  r = end(with_header("EndObject\n"));
  CHECK(r.stop == StopReason::kEndObject);
  CHECK(r.reason == "EndObject");
  RunState budget;
  budget.step_limit = 100;
  r = end(tri("x:\n Jump @x\n"), budget);
  CHECK(r.stop == StopReason::kStepBudget);
  CHECK(r.reason == "budget: steps");
  r = end(tri("r:\n Unmask @r\n"));
  CHECK(r.stop == StopReason::kCallDepthBudget);
  CHECK(r.reason.find("call depth limit") == 0);
  r = end(tri("Jump @x\n .db 00\nx:\n .db 48 00 00 70\n"));
  CHECK(r.stop == StopReason::kFault);
  CHECK_FALSE(r.clean);
  StopAtFirstOpcode hook;
  r = end(tri(face(1)), {}, &hook);
  CHECK(r.stop == StopReason::kDebugger);
  CHECK(r.reason == "stopped by the debugger");
  CHECK(r.clean);
}

TEST_CASE("threaded and switch dispatch produce the same event stream") {
  const std::string text = tri(R"(
    JumpToFrame @a, @b
a:
    Unmask @body
    ShortJump @done
b:
)" + face(5) + " Jump @done\nbody:\n" +
                               face(6) + " ShortEOF\ndone:\n" + face(7));
  for (uint32_t frame : {0u, 1u}) {
    RunState s;
    s.frame = frame;
    auto t = run(text, s, Dispatch::kThreaded);
    auto w = run(text, s, Dispatch::kSwitch);
    CHECK(t.log == w.log);
    CHECK(t.op_events.size() == w.op_events.size());
    CHECK(t.end.reason == w.end.reason);
  }
}

namespace {

// A program's run as its JSON Lines trace (every op).
std::string program_trace(FaProgram& program, const StateRequest& state) {
  return testing::written_trace(
      [&](harness::TraceWriter& writer) { program.run(state, writer, nullptr); });
}

}  // namespace

TEST_CASE("a program walks its shape whole only when described: runs before and after agree") {
  // A program run first makes its interpreter from the walk's outline (and a --merged run walks
  // whole inside it); one described first shares its whole walk with the interpreter it makes.
  StateRequest plain;
  StateRequest merged;
  merged.options.push_back({"merged", "1"});
  StateRequest skipping;
  skipping.options.push_back({"no-x86", "1"});
  size_t x86_shapes = 0, lod_shapes = 0;
  for (uint32_t i = 0; i < 60; ++i) {
    const auto assembled =
        assemble_fa(generate_fa_shape(3, i, GeneratorProfile::kStress), "gen.fas");
    FaProgram run_first(load_shape(assembled.file, "gen.SH"), {});
    FaProgram described_first(load_shape(assembled.file, "gen.SH"), {});
    const std::string info = described_first.info_text();
    for (const StateRequest* state : {&plain, &merged, &skipping}) {
      INFO("shape " << i << " state " << state->options.size());
      CHECK(program_trace(run_first, *state) == program_trace(described_first, *state));
    }
    CHECK(run_first.info_text() == info);
    const auto json = described_first.info_json();
    x86_shapes += json["x86_blocks"].get<int>() > 0;
    lod_shapes += json["lod_sites"].get<int>() > 0;
  }
  CHECK(x86_shapes > 0);
  CHECK(lod_shapes > 0);
}

TEST_CASE(
    "the fitted camera frames every VertexBuffer's vertices, and the header's extents only where "
    "an XformUnmask moves parts") {
  const auto fit = [](const std::string& extents, const std::string& body) {
    const auto b =
        build_shape(".header radius_world=0 radius=100 scale=8 extents=" + extents + "\n" + body);
    const Interpreter interp(b.shape);
    return interp.fit_distance(CameraSpec{0, 30, 20}, 640, 480);
  };
  const std::string near = "VertexBuffer at=0\n v 0, 10, 0\n v 10, 10, 0\n v 0, 10, 10\n";
  const std::string far = "VertexBuffer at=0\n v 0, 10, 0\n v 900, 10, 0\n v 0, 10, 10\n";
  const std::string face = "Face content=0 layout=0 color=1 shadow=0 idx=0,1,2\n";
  const int32_t plain = fit("10,10,10", near + face + "ShortEOF\n");
  // Without an XformUnmask the header's extents do not count.
  CHECK(fit("900,900,900", near + face + "ShortEOF\n") == plain);
  // A buffer no run reaches (after the ShortEOF) still counts: the fit takes every one the walk
  // finds.
  const int32_t wider = fit("10,10,10", near + face + "ShortEOF\n" + far + face + "ShortEOF\n");
  CHECK(wider > plain);
  // With an XformUnmask, the eight corners of the extents' box count too.
  const std::string moved =
      "XformUnmask t=0,0,50 a=0,0,0 call=@part\nShortEOF\npart:\n" + near + face + "ShortEOF\n";
  std::string box = "VertexBuffer at=0\n";
  for (const char* corner : {"-7, -8, -9", "7, -8, -9", "-7, 8, -9", "7, 8, -9", "-7, -8, 9",
                             "7, -8, 9", "-7, 8, 9", "7, 8, 9"})
    box += std::string(" v ") + corner + "\n";
  const int32_t with_box = fit("7,8,9", moved);
  CHECK(with_box > plain);
  CHECK(with_box == fit("7,8,9", near + face + box + "ShortEOF\n"));
  CHECK(fit("900,900,900", moved) > wider);
  // The long form (0xC6, a 32-bit call distance) moves parts as well.
  const std::string moved_long =
      "XformUnmaskLong t=0,0,50 a=0,0,0 call=@part\nShortEOF\npart:\n" + near + face + "ShortEOF\n";
  CHECK(fit("7,8,9", moved_long) == with_box);
}

}  // namespace fa_interpreter_tests
