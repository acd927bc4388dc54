// Embedded x86 in the Unicorn sandbox: the facts' idioms resume where the input says, and
// hostile blocks stop cleanly with the right diagnostic while the host (and the engine) survive.
// FA-18 (entry: push esi; ret), FA-19 (trampolines, do_start_interp re-entry).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "interp/fa/interpreter.h"
#include "interp/fa/x86_runner.h"
#include "tests/fa/x86_block_shape.h"

namespace fa_x86_sandbox_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::run;
using shapevm::testing::run_text;
using shapevm::testing::shape_with_block;
using shapevm::testing::with;

TEST_CASE("FA-18/FA-19: the gear guard idiom re-enters at the arm the input selects") {
  // cmp word [_PLgearDown], 1; jne +11 (over one re-entry); re-entry arm1; re-entry arm2
  const std::string text = shape_with_block(R"(
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3)");
  CHECK(run_text(text, with("_PLgearDown=1")).sink.face_colors == std::vector<uint8_t>{1});
  CHECK(run_text(text, with("_PLgearDown=0")).sink.face_colors == std::vector<uint8_t>{2});
  CHECK(run_text(text, with("_PLgearDown=4")).sink.face_colors == std::vector<uint8_t>{2});
}

TEST_CASE("FA-19: a byte compare of _lowMemory and a fastcall import's EAX pick the arm") {
  const std::string low = shape_with_block(R"(
    x86 80 3d {_lowMemory} 00
    x86 74 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3)");
  CHECK(run_text(low).sink.face_colors == std::vector<uint8_t>{2});
  CHECK(run_text(low, with("_lowMemory=1")).sink.face_colors == std::vector<uint8_t>{1});
  // push cont; push @HARDNumLoaded@8; ret -> the host returns EAX at cont; cmp eax, 2; jne +11
  const std::string call = shape_with_block(R"(
    x86 68 {cont} 68 {@HARDNumLoaded@8} c3
cont:
    x86 83 f8 02
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3)");
  CHECK(run_text(call, with("@HARDNumLoaded@8=2")).sink.face_colors == std::vector<uint8_t>{1});
  CHECK(run_text(call).sink.face_colors == std::vector<uint8_t>{2});  // default 1
}

TEST_CASE("FA-19: _ErrorExit reports its message and stops the shape") {
  auto r = run_text(shape_with_block(R"(
    x86 68 {msg} 68 {_ErrorExit} c3
msg:
    .db 42 61 64 20 76 61 6c 75 65 00
    x86 68 {after} 68 {do_start_interp} c3)"));
  CHECK_FALSE(r.result.clean);
  REQUIRE(!r.sink.diagnostics.empty());
  CHECK(r.sink.diagnostics.back().find("_ErrorExit: \"Bad value\"") != std::string::npos);
}

TEST_CASE("sandbox: hostile blocks stop cleanly with the right diagnostic") {
  struct Hostile {
    const char* name;
    const char* x86;
    const char* expected;
  };
  const Hostile cases[] = {
      {"infinite loop", "x86 eb fe", "budget"},
      {"wild read", "x86 a1 00 00 00 40", "unmapped address 0x40000000"},
      {"write outside the image", "x86 c7 05 00 00 00 50 01 00 00 00",
       "unmapped address 0x50000000"},
      {"int3", "x86 cc", "interrupt 3"},
      {"ud2", "x86 0f 0b", "invalid instruction"},
      {"divide by zero", "x86 31 c9 f7 f1", "interrupt 0"},
      {"hlt", "x86 f4", "hlt at"},
      {"port I/O", "x86 ec", "port I/O"},
      {"never re-enters", "x86 c3", "without re-entering"},
      {"calls a data import", "x86 68 {after} 68 {_PLgearDown} c3", "protected access"},
      {"write to the exit page", "x86 c7 05 00 00 a0 00 01 00 00 00", "protected access"},
      // Unicorn 2.0.1 aborts the process translating these (x86/abort_guard.h); the CPU refuses
      // them with #UD.
      {"far call through a register", "x86 ff d8", "the emulator aborted translating"},
      {"far jump through a register, with prefixes", "x86 66 f0 ff ea",
       "the emulator aborted translating"},
  };
  for (const auto& h : cases) {
    INFO(h.name);
    auto r = run_text(shape_with_block(std::string("    ") + h.x86 +
                                       "\n    x86 68 {after} 68 {do_start_interp} c3"));
    CHECK_FALSE(r.result.clean);
    CHECK(r.result.stop == StopReason::kX86Stopped);
    REQUIRE(!r.sink.diagnostics.empty());
    CHECK(r.sink.diagnostics.back().find(h.expected) != std::string::npos);
    CHECK(r.sink.face_colors.empty());
  }
}

TEST_CASE("sandbox: after a hostile run the same engine runs the next state correctly") {
  // _PLgearDown == 1 re-enters at arm1; anything else reaches the hostile tail: a loop the budget
  // ends, or FF D8, a far call through a register that Unicorn 2.0.1 cannot translate without
  // calling abort() (the sandbox then replaces the engine, with the same memory mapped again).
  struct Tail {
    const char* x86;
    const char* expected;
  };
  for (const Tail& tail : {Tail{"eb fe", "budget"}, Tail{"ff d8", "emulator aborted"}}) {
    CAPTURE(tail.x86);
    auto b = build_shape(shape_with_block(std::string(R"(
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 )") + tail.x86));
    Interpreter interp(b.shape);
    for (int round = 0; round < 3; ++round) {
      CAPTURE(round);
      auto bad = run(interp, with("_PLgearDown=0"));
      CHECK_FALSE(bad.result.clean);
      REQUIRE(!bad.sink.diagnostics.empty());
      CHECK(bad.sink.diagnostics.back().find(tail.expected) != std::string::npos);
      auto good = run(interp, with("_PLgearDown=1"));
      CHECK(good.result.clean);
      CHECK(good.sink.face_colors == std::vector<uint8_t>{1});
    }
  }
}

TEST_CASE("sandbox: a block that writes FF D8 into its own code and runs it stops cleanly") {
  // mov word [next], 0xD8FF writes a far call through EAX over the two NOPs that follow.
  auto b = build_shape(shape_with_block(R"(
    x86 66 c7 05 {patched} ff d8
  patched:
    x86 90 90
    x86 68 {arm1} 68 {do_start_interp} c3)"));
  Interpreter interp(b.shape);
  for (int round = 0; round < 2; ++round) {
    auto r = run(interp, {});
    CHECK_FALSE(r.result.clean);
    CHECK(r.result.stop == StopReason::kX86Stopped);
    REQUIRE(!r.sink.diagnostics.empty());
    CHECK(r.sink.diagnostics.back().find("emulator aborted") != std::string::npos);
  }
}

TEST_CASE(
    "sandbox: x86 stores into bytecode operands are what the interpreter reads; runs restore "
    "them") {
  // mov byte [face_color], 7 then re-enter: the Face's colour byte is patched by the x86.
  auto b = build_shape(shape_with_block(R"(
    x86 c6 05 {arm1+3} 07
    x86 68 {arm1} 68 {do_start_interp} c3)"));
  Interpreter interp(b.shape);
  CHECK(run(interp, {}).sink.face_colors == std::vector<uint8_t>{7});
  RunState skip;
  skip.run_x86 = false;  // the statically skipped run sees the file's bytes again
  auto s = run(interp, skip);
  CHECK(std::find(s.sink.face_colors.begin(), s.sink.face_colors.end(), uint8_t{7}) ==
        s.sink.face_colors.end());
}

TEST_CASE("the jet example's gear is x86-selected: _PLgearDown=0 and =1 draw differently") {
  auto b = build_shape([] {
    std::ifstream in(SHAPEVM_SOURCE_DIR "/examples/fa/jet.fas");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }());
  Interpreter interp(b.shape);
  RunState up = with("_PLgearDown=0"), down = with("_PLgearDown=1");
  up.lod = down.lod = 0;
  auto u = run(interp, up);
  auto d = run(interp, down);
  CHECK(u.result.clean);
  CHECK(d.result.clean);
  CHECK(d.sink.face_colors.size() == u.sink.face_colors.size() + 2);
}

// A gear guard: _PLgearDown == 1 draws colour 1 with jne (75) and colour 2 with je (74); the
// two shapes differ in that byte alone, so their CODE has one layout at one guest address.
std::string gear_guard(const std::string& jump) {
  return shape_with_block(R"(
    x86 66 83 3d {_PLgearDown} 01
    x86 )" + jump + R"( 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3)");
}

TEST_CASE("sandbox: interpreters on one thread share its engine and never see each other's image") {
  // Two shapes whose CODE sits at the same guest address with different x86: interleaved runs
  // (and a runner freed and replaced) must each see their own bytes, never a stale translation.
  const auto a = build_shape(gear_guard("75"));
  const auto b = build_shape(gear_guard("74"));
  REQUIRE(a.shape.image.image_base + a.shape.image.code_va ==
          b.shape.image.image_base + b.shape.image.code_va);
  Interpreter ia(a.shape);
  auto ib = std::make_unique<Interpreter>(b.shape);
  bool ib_inverted = true;
  for (int round = 0; round < 4; ++round) {
    INFO("round " << round);
    const uint8_t down = ib_inverted ? 2 : 1;
    const uint8_t up = ib_inverted ? 1 : 2;
    CHECK(run(ia, with("_PLgearDown=1")).sink.face_colors == std::vector<uint8_t>{1});
    CHECK(run(*ib, with("_PLgearDown=1")).sink.face_colors == std::vector<uint8_t>{down});
    CHECK(run(ia, with("_PLgearDown=0")).sink.face_colors == std::vector<uint8_t>{2});
    CHECK(run(*ib, with("_PLgearDown=0")).sink.face_colors == std::vector<uint8_t>{up});
    ib_inverted = round % 2 == 1;
    ib = std::make_unique<Interpreter>(ib_inverted ? b.shape : a.shape);  // free one, make another
  }
}

TEST_CASE("sandbox: a fresh runner after a freed one takes over its CODE pages, runs its own x86") {
  // As a corpus renders: every interpreter is freed before the next is made. The next one's CODE
  // goes into the pages the freed one had mapped (no unmapping and mapping again), and no
  // translation of the freed one's x86 may run in its place.
  const auto a = build_shape(gear_guard("75"));
  const auto b = build_shape(gear_guard("74"));
  {
    Interpreter first(a.shape);
    REQUIRE(run(first, with("_PLgearDown=1")).sink.face_colors == std::vector<uint8_t>{1});
  }
  const uint64_t maps = X86Runner::code_maps();
  int wrong = 0;
  for (int i = 0; i < 6; ++i) {
    const bool inverted = i % 2 == 0;
    Interpreter next(inverted ? b.shape : a.shape);
    const uint8_t down = inverted ? 2 : 1;
    const uint8_t up = inverted ? 1 : 2;
    if (run(next, with("_PLgearDown=1")).sink.face_colors != std::vector<uint8_t>{down}) ++wrong;
    if (run(next, with("_PLgearDown=0")).sink.face_colors != std::vector<uint8_t>{up}) ++wrong;
  }
  CHECK(wrong == 0);
  // At most one mapping: the thread's engine may be renewed once in the loop (after
  // kX86TakeOversPerEngine take-overs), which maps CODE afresh.
  CHECK(X86Runner::code_maps() - maps <= 1);
}

// At its first face, runs a second interpreter on this thread and frees it.
struct InterleavingSink : testing::RecordingSink {
  const Shape* other = nullptr;
  std::vector<uint8_t> other_colors;
  void on_face(const FaceEvent& e) override {
    RecordingSink::on_face(e);
    if (face_colors.size() == 1) {
      Interpreter second(*other);
      other_colors = run(second, RunState{}).sink.face_colors;
    }
  }
};

TEST_CASE("sandbox: a runner that loses the engine in the middle of a run keeps its own CODE") {
  // The second interpreter (of the same shape: the same layout) owns the engine when it is freed,
  // so its CODE pages are left mapped. The first one's x86 block, after that, takes the engine
  // back in the middle of a run, whose machine reads CODE where it started: that buffer must
  // stay (the pages are mapped again, not taken over). The sanitizer build sees a freed one.
  const auto a = build_shape(testing::with_header(testing::kTriangleVertices + R"(
    Face content=0 layout=0 color=5 shadow=0 idx=0,1,2
    X86Code
    x86 68 {arm1} 68 {do_start_interp} c3
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
    EndObject
)" + testing::kX86Stubs,
                                                  testing::kX86Imports));
  Interpreter first(a.shape);
  InterleavingSink sink;
  sink.other = &a.shape;
  const RunResult result = first.run(RunState{}, sink);
  CHECK(sink.face_colors == std::vector<uint8_t>{5, 1});
  CHECK(sink.other_colors == std::vector<uint8_t>{5, 1});
  CHECK(result.faces == 2);
}

// A block that keeps a marker in its own stack memory, far below ESP: it draws colour 1 when it
// finds its own marker there (left by an earlier run of the same interpreter), colour 9 when it
// finds zero (and leaves the marker), and colour 2 when it finds anything else.
std::string stack_marker_block(const std::string& marker) {
  const std::string slot = "00 01 90 00";  // kX86StackBase + 0x100, little-endian
  return shape_with_block("    x86 81 3d " + slot + " " + marker + " 00 00 00\n" +  // cmp [slot], m
                          "    x86 75 0b\n" +                                       // jne
                          "    x86 68 {arm1} 68 {do_start_interp} c3\n" +           // own marker
                          "    x86 83 3d " + slot + " 00\n" +                       // cmp [slot], 0
                          "    x86 75 15\n" +                                       // jne
                          "    x86 c7 05 " + slot + " " + marker + " 00 00 00\n" +  // mov [slot], m
                          "    x86 68 {after} 68 {do_start_interp} c3\n" +          // zero
                          "    x86 68 {arm2} 68 {do_start_interp} c3\n");           // foreign
}

TEST_CASE("sandbox: an interpreter's x86 memory survives another's turn on the thread's engine") {
  // The thread's engine keeps a region mapped when the next runner's is alike and swaps the
  // bytes instead: each runner must still find only its own stack, as with separate mappings.
  REQUIRE(fa::kX86StackBase == 0x00900000);
  const auto a = build_shape(stack_marker_block("11"));
  const auto b = build_shape(stack_marker_block("22"));
  const RunState state;
  auto ia = std::make_unique<Interpreter>(a.shape);
  Interpreter ib(b.shape);
  using Colors = std::vector<uint8_t>;
  CHECK(run(*ia, state).sink.face_colors == Colors{9});  // a's stack starts zeroed
  CHECK(run(ib, state).sink.face_colors == Colors{9});   // so does b's, not holding a's marker
  CHECK(run(*ia, state).sink.face_colors == Colors{1});  // a finds its own marker again
  CHECK(run(ib, state).sink.face_colors == Colors{1});
  CHECK(run(ib, state).sink.face_colors == Colors{1});
  // Freed while it owns the engine; the interpreter made next for the same shape starts afresh.
  CHECK(run(*ia, state).sink.face_colors == Colors{1});
  ia = std::make_unique<Interpreter>(a.shape);
  CHECK(run(*ia, state).sink.face_colors == Colors{9});
  CHECK(run(ib, state).sink.face_colors == Colors{1});
  CHECK(run(*ia, state).sink.face_colors == Colors{1});
}

TEST_CASE("sandbox: the thread's engine is renewed after many take-overs, and runs stay right") {
  // Unicorn's code buffer only grows, so the engine is replaced after kX86TakeOversPerEngine
  // runners have taken it. Interpreters alive across the renewal keep their own memory.
  const auto a = build_shape(stack_marker_block("11"));
  const auto b = build_shape(stack_marker_block("22"));
  const RunState state;
  Interpreter ia(a.shape);
  Interpreter ib(b.shape);
  using Colors = std::vector<uint8_t>;
  REQUIRE(run(ia, state).sink.face_colors == Colors{9});
  REQUIRE(run(ib, state).sink.face_colors == Colors{9});
  const uint64_t opened = fa::X86Runner::engines_opened();
  int wrong = 0;
  for (uint32_t i = 0; i < fa::kX86TakeOversPerEngine / 2 + 2; ++i) {
    // Each run takes the engine from the other interpreter: two take-overs a round.
    if (run(ia, state).sink.face_colors != Colors{1}) ++wrong;
    if (run(ib, state).sink.face_colors != Colors{1}) ++wrong;
  }
  CHECK(wrong == 0);
  // One renewal in kX86TakeOversPerEngine + 4 take-overs (two when earlier tests left the engine
  // just short of it).
  const uint64_t renewals = fa::X86Runner::engines_opened() - opened;
  CHECK(renewals >= 1);
  CHECK(renewals <= 2);
  // A new interpreter after the renewal starts from a zeroed stack, as always.
  Interpreter fresh(a.shape);
  CHECK(run(fresh, state).sink.face_colors == Colors{9});
}

}  // namespace fa_x86_sandbox_tests
