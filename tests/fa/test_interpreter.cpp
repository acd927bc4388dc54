// The FA interpreter against the seed's control-flow formulas, on small assembled shapes.
// Each case cites the FACTS-CHECKLIST IDs it pins.
#include <doctest/doctest.h>

#include "interp/fa/branch_kinds.h"
#include "interp/fa/interpreter.h"
#include "tests/fa/recording_sink.h"
#include "tests/fa/shape_text.h"

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

TEST_CASE("FA-39/FA-40/FA-41: plane selectors draw both chains; the plane side swaps the order") {
  struct Case {
    std::string op;
    CameraSpec one, other;  // two viewpoints on opposite sides of the plane
  };
  // Pitch +-60 flips the viewer-relative z; heading 0 vs 180 flips y.
  const Case cases[] = {
      {"OrderPlane plane=0,0,1,0,0,0", {200, 0, 60}, {200, 0, -60}},
      {"OrderPlaneYZ plane=0,1,0,0", {200, 0, 60}, {200, 0, -60}},
      {"OrderPlaneXZ plane=0,1,0,0", {200, 0, 60}, {200, 0, -60}},
      {"OrderPlaneXY plane=0,1,0,0", {200, 0, 0}, {200, 180, 0}},
  };
  for (const auto& c : cases) {
    INFO(c.op);
    const std::string text = tri("Unmask @sel\n ShortJump @join\nsel:\n " + c.op + " call=@a\n" +
                                 face(2) + " ShortEOF\na:\n" + face(1) + " ShortEOF\njoin:\n");
    RunState one, other;
    one.camera = c.one;
    other.camera = c.other;
    auto a = colors(text, one);
    auto b = colors(text, other);
    REQUIRE(a.size() == 2);
    REQUIRE(b.size() == 2);
    CHECK(a != b);
    CHECK(std::is_permutation(a.begin(), a.end(), b.begin()));
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

TEST_CASE("FA-26/FA-33: ShortJump is 3 bytes (DEC ESI then the Jump body); LongJump takes rel32") {
  auto sink =
      run(tri("ShortJump @x\n" + face(1) + "x:\n LongJump @y\n" + face(2) + "y:\n" + face(3)));
  CHECK(sink.face_colors == std::vector<uint8_t>{3});
  REQUIRE(sink.op_events.size() >= 2);
  CHECK(sink.op_events[1].name == "ShortJump");
  CHECK(sink.op_events[1].handler_address == 0x4D30E4);
  CHECK(sink.op_events[2].offset == sink.op_events[1].offset + 3 + 9);  // past the 9-byte face
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

TEST_CASE("FA-51/FA-52: radius_world is never read; the run is the same whatever it holds") {
  const std::string body =
      "VertexBuffer at=0\n v 0, 10, 0\n v 10, 10, 0\n v 0, 10, 10\n" + face(1) + "ShortEOF\n";
  auto a = run(".header radius_world=0 radius=100 scale=8 extents=1,1,1\n" + body);
  auto b = run(".header radius_world=12345 radius=100 scale=8 extents=1,1,1\n" + body);
  CHECK(a.face_views == b.face_views);
  CHECK(a.op_events.size() == b.op_events.size());
}

TEST_CASE("FA-42: XformUnmask calls its chain with the object moved by the operand translation") {
  const std::string text = with_header(R"(
    Unmask @part
    XformUnmask t=0,0,50 a=0,0,0 call=@part
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
  REQUIRE(sink.face_views.size() == 2);
  // Camera level behind the shape: view y is the shape's z; moved up 50 units = 50*256 in view.
  CHECK(sink.face_views[1][0].y - sink.face_views[0][0].y ==
        doctest::Approx(50 * 256).epsilon(0.01));
  CHECK(sink.face_views[1][0].x == sink.face_views[0][0].x);
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
