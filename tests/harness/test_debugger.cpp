// The debugger core (harness/debugger.h) driven through the FA adapter on the bundled examples:
// breakpoints stop at the right offsets, next steps over a call, finish returns to the caller,
// reverse moves reproduce earlier states exactly, x86 single-stepping shows the block's
// instructions (FA-18/FA-19: the gear guard re-enters the bytecode at the arm the input selects),
// and the partial frame at the end is the frame `render` draws. The same core drives an Apache
// program, whose memory view is "vertices" and which has no native code.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <sstream>

#include "core/input_error.h"
#include "harness/debug_repl.h"
#include "harness/debugger.h"
#include "harness/program_debug_engine.h"
#include "tests/support/program_helpers.h"

namespace harness_debugger_tests {

using namespace shapevm;
using harness::BreakKind;
using harness::Breakpoint;
using harness::Debugger;
using harness::Snapshot;

namespace {

std::string example(const std::string& name) {
  return std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/") + name;
}

struct DebugOptions {
  std::string file;
  std::vector<std::string> sets;
  int width = 640, height = 480;  // the frame height is scrh, which picks the LOD
};

DebugOptions options(const std::string& name, std::vector<std::string> sets = {}) {
  return {example(name), std::move(sets)};
}

// The debugger's engine for an example, as `shapevm debug` makes it.
harness::ProgramDebugEngine debug_engine(const DebugOptions& o) {
  return harness::ProgramDebugEngine(open_program(o.file, {}),
                                     testing::state_with({}, o.sets, o.width, o.height));
}

// The rows of the snapshot's memory view `name` (empty when it has none).
std::vector<shapevm::MemoryRow> rows(const Snapshot& s, const std::string& name) {
  for (const auto& m : s.memory)
    if (m.name == name) return m.rows;
  return {};
}

Breakpoint mnemonic(const std::string& m) {
  Breakpoint b;
  b.kind = BreakKind::kMnemonic;
  b.mnemonic = m;
  return b;
}

Breakpoint at(uint32_t offset) {
  Breakpoint b;
  b.kind = BreakKind::kOffset;
  b.number = offset;
  return b;
}

// The offset of the nth listing line whose text starts with `prefix` (after indentation). In
// jet.fas the Unmask lines are, in order: @wings, @fin, and the gear arm after the first x86.
uint32_t listing_offset(const harness::DebugEngine& e, const std::string& prefix, int nth = 1) {
  for (const auto& line : e.listing()) {
    const auto start = line.text.find_first_not_of(' ');
    if (line.offset && start != std::string::npos &&
        line.text.compare(start, prefix.size(), prefix) == 0 && --nth == 0)
      return *line.offset;
  }
  FAIL("no listing line starts with " << prefix);
  return 0;
}

}  // namespace

TEST_CASE("debugger: the session starts before the first instruction and steps count bytecode") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  CHECK(d.current().tick == 0);
  CHECK(d.current().steps == 0);
  CHECK(d.current().offset == 14);  // FA: the first instruction follows the 14-byte header
  CHECK(d.current().depth == 0);
  CHECK(rows(d.current(), "pool").empty());
  d.step(3);
  CHECK(d.current().steps == 3);
  CHECK_FALSE(d.current().native);
  d.goto_tick(UINT64_MAX);  // past the end: stops at the end
  CHECK(d.current().ended);
}

TEST_CASE("debugger: step 50 then back 10 is exactly the state after step 40 on every example") {
  for (const char* name : {"jet.SH", "tank.SH", "radar.SH", "hangar.SH"}) {
    CAPTURE(name);
    // Only the jet reads _PLgearDown; the others refuse a --set name they do not know.
    const bool jet = std::string(name) == "jet.SH";
    harness::ProgramDebugEngine engine = debug_engine(options(
        name, jet ? std::vector<std::string>{"_PLgearDown=1"} : std::vector<std::string>{}));
    Debugger d(engine);
    d.restart();
    d.step(50);
    const bool ended = d.current().ended;
    const uint64_t steps = d.current().steps;
    d.back(10);
    const Snapshot after_back = d.current();
    d.restart();
    d.step(ended ? steps - 10 : 40);
    CHECK(after_back == d.current());
    if (!ended) CHECK(after_back.steps == 40);
  }
}

TEST_CASE("debugger: reverse-stepi walks every pause point back to identical snapshots") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH", {"_PLgearDown=1"}));
  Debugger d(engine);
  d.restart();
  std::vector<Snapshot> forward{d.current()};
  while (!d.current().ended) {
    d.stepi();
    forward.push_back(d.current());
  }
  REQUIRE(forward.size() > 20);
  bool saw_native = false;
  for (size_t i = forward.size() - 1; i-- > 0;) {
    d.reverse_stepi();
    REQUIRE(d.current().tick == i);
    CHECK(d.current() == forward[i]);
    saw_native = saw_native || d.current().native.has_value();
  }
  CHECK(saw_native);
}

TEST_CASE("debugger: breakpoints by offset and mnemonic stop before that instruction") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  const uint32_t unmask = listing_offset(engine, "Unmask");
  d.add_breakpoint(at(unmask));
  auto r = d.cont();
  CHECK(r.reason.find("breakpoint 1") == 0);
  CHECK(d.current().offset == unmask);
  CHECK(d.current().mnemonic == "Unmask");
  d.add_breakpoint(mnemonic("ShortEOF"));
  r = d.cont();
  CHECK(r.reason.find("breakpoint 2") == 0);
  CHECK(d.current().mnemonic == "ShortEOF");
  CHECK(d.current().depth == 2);  // the left wing, called by the OrderField inside the Unmask
}

TEST_CASE("debugger: next steps over a call and finish returns to the caller") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  const uint32_t unmask = listing_offset(engine, "Unmask");
  d.add_breakpoint(at(unmask));
  d.cont();
  REQUIRE(d.current().offset == unmask);
  const uint64_t faces_before = d.current().faces;
  // next: the whole wing fragment runs (both wings drawn), then the instruction after the call.
  d.next();
  CHECK(d.current().offset == unmask + 4);
  CHECK(d.current().depth == 0);
  CHECK(d.current().faces == faces_before + 2);
  // back goes into the fragment that just returned; reverse-next steps back over the call.
  d.back();
  CHECK(d.current().depth == 1);
  CHECK(d.current().mnemonic == "ShortEOF");
  d.step();
  d.reverse_next();
  CHECK(d.current().offset == unmask);
  d.step();
  CHECK(d.current().depth == 1);
  REQUIRE(d.current().frames.size() == 1);
  CHECK(d.current().frames[0].call == unmask);
  CHECK(d.current().frames[0].resume == unmask + 4);
  CHECK(d.current().frames[0].entry == d.current().offset);
  d.step();  // into the OrderField selector's call: depth 2
  CHECK(d.current().depth == 2);
  auto r = d.finish();
  CHECK(r.reason.find("finish") == 0);
  CHECK(d.current().depth == 1);
  d.finish();
  CHECK(d.current().depth == 0);
  CHECK(d.current().offset == unmask + 4);
  // finish at the top level has no caller
  CHECK_THROWS_AS(d.finish(), harness::DebugError);
  // reverse-finish goes back to the call that entered a fragment
  d.back();
  CHECK(d.current().depth == 1);
  d.reverse_finish();
  CHECK(d.current().offset == unmask);
  CHECK(d.current().depth == 0);
}

TEST_CASE("debugger: FA-18/FA-19 x86 single-step shows the gear guard and resumes at the arm") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH", {"_PLgearDown=1"}));
  Debugger d(engine);
  d.restart();
  Breakpoint b;
  b.kind = BreakKind::kNativeEntry;
  d.add_breakpoint(b);
  d.cont();
  REQUIRE(d.current().native);
  const uint32_t block = d.current().offset;
  CHECK(d.current().mnemonic == "X86Code");
  CHECK(d.current().native->offset == block + 2);  // the payload just past F0 00
  CHECK(d.current().native->text.find("cmp word ptr") == 0);
  CHECK(harness::snapshot_value(d.current(), "esi") ==
        harness::snapshot_value(d.current(), "eip"));  // do_start_asm: push esi; ret
  d.stepi();
  REQUIRE(d.current().native);
  CHECK(d.current().native->text.find("jne") == 0);
  d.stepi();
  REQUIRE(d.current().native);
  CHECK(d.current().native->text.find("push") == 0);
  const uint32_t gear_arm = listing_offset(engine, "Unmask", 3);
  auto r = d.native_finish();
  CHECK_FALSE(d.current().native);
  CHECK(d.current().offset == gear_arm);
  CHECK(d.current().mnemonic == "Unmask");
  // without the gear, the guard jumps over the arm: the next block resumes after it
  d.set("_PLgearDown=0");
  CHECK(d.current().tick == 0);
  CHECK(d.breakpoints().size() == 1);  // breakpoints survive the restart
  d.cont();
  REQUIRE(d.current().native);
  d.native_finish();
  // The guard's jne lands in the second block, which re-enters after the arm (after_gear).
  CHECK(d.current().offset != gear_arm);
  CHECK(d.current().mnemonic == "UnkB8");
  CHECK_THROWS_AS(d.native_finish(), harness::DebugError);
}

TEST_CASE("debugger: face, diagnostic and conditional breakpoints and watchpoints") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  Breakpoint face;
  face.kind = BreakKind::kFace;
  face.number = 3;
  d.add_breakpoint(face);
  auto r = d.cont();
  CHECK(r.reason.find("after face #3") != std::string::npos);
  CHECK(d.current().faces == 4);  // faces 0..3 drawn
  d.remove(1);

  // Conditional: the first Face instruction once pool slot 15 (the tail's last vertex) exists.
  d.restart();
  Breakpoint cond = mnemonic("Face");
  cond.condition = harness::parse_condition("pool[15].y == -85");
  d.add_breakpoint(cond);
  d.cont();
  CHECK(d.current().mnemonic == "Face");
  CHECK(harness::snapshot_value(d.current(), "pool[15].y") == -85);
  CHECK(d.current().faces == 0);  // the very first Face: the pool is written before any face
  d.remove(2);

  // Watchpoint: the VertexBuffer that writes slot 0 stops right after it.
  d.restart();
  const int w = d.add_watchpoint("pool[0]");
  r = d.cont();
  CHECK(r.reason.find("watchpoint") == 0);
  CHECK(r.reason.find("pool[0].x <none> -> 0") != std::string::npos);
  CHECK(rows(d.current(), "pool").size() == 16);
  d.remove(w);

  // A condition that never holds lets the run end; continuing past the end is refused.
  d.restart();
  Breakpoint never = mnemonic("Face");
  never.condition = harness::parse_condition("_frameCounter == 7");
  d.add_breakpoint(never);
  d.cont();
  CHECK(d.current().ended);
  CHECK(d.current().end_clean);
  CHECK_THROWS_AS(d.cont(), harness::DebugError);
  // reverse-continue with the breakpoint never hit goes to the start
  r = d.reverse_continue();
  CHECK(d.current().tick == 0);
  CHECK(r.reason.find("start of run") == 0);
  CHECK_THROWS_AS(harness::parse_condition("pool[1].x = 3"), std::invalid_argument);
  CHECK_THROWS_AS(d.set("nonsense"), InputError);
}

TEST_CASE("debugger: reverse-continue stops at the latest earlier breakpoint hit") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  d.add_breakpoint(mnemonic("Face"));
  d.cont();
  const Snapshot first = d.current();
  d.cont();
  const Snapshot second = d.current();
  d.cont();
  d.reverse_continue();
  CHECK(d.current() == second);
  d.reverse_continue();
  CHECK(d.current() == first);
}

TEST_CASE("debugger: a breakpoint and a watchpoint that hold at one pause are both reported") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  // The VertexBuffer writes pool[0]; the instruction after it is the first Face.
  const int b = d.add_breakpoint(mnemonic("Face"));
  const int w = d.add_watchpoint("pool[0]");
  auto r = d.cont();
  CHECK(d.current().mnemonic == "Face");
  REQUIRE(r.hits.size() == 2);
  CHECK(r.hits[0].id == b);
  CHECK(r.hits[0].text == "breakpoint 1 (on Face)");
  CHECK(r.hits[1].id == w);
  CHECK(r.hits[1].text == "watchpoint 2: pool[0].x <none> -> 0");
  CHECK(r.reason == "breakpoint 1 (on Face); watchpoint 2: pool[0].x <none> -> 0");
  CHECK(d.breakpoints()[0].hits == 1);
  CHECK(d.watchpoints()[0].hits == 1);
  // The next Face changes no pool row: the breakpoint alone.
  r = d.cont();
  REQUIRE(r.hits.size() == 1);
  CHECK(r.hits[0].id == b);
  CHECK(d.breakpoints()[0].hits == 2);
  // reverse-continue stops at the double stop again and reports both again.
  r = d.reverse_continue();
  CHECK(r.hits.size() == 2);
  CHECK(d.breakpoints()[0].hits == 3);
  CHECK(d.watchpoints()[0].hits == 2);
}

TEST_CASE("debugger: tbreak stops once; nexti runs calls whole; until leaves the fragment") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  const uint32_t unmask = listing_offset(engine, "Unmask");
  Breakpoint once = mnemonic("Unmask");
  once.temporary = true;
  d.add_breakpoint(once);
  auto r = d.cont();
  CHECK(r.reason == "temporary breakpoint 1 (on Unmask)");
  CHECK(d.current().offset == unmask);
  CHECK(d.breakpoints().empty());
  const uint64_t at = d.current().tick;
  d.nexti();  // over the call: back at depth 0, past the whole fragment
  CHECK(d.current().depth == 0);
  CHECK(d.current().tick > at + 1);
  d.goto_tick(at);
  d.stepi();  // into it
  CHECK(d.current().depth == 1);
  // until: each stop is further on in this fragment (calls run whole) or after its return.
  for (int guard = 0; d.current().depth == 1 && guard < 20; ++guard) {
    const uint32_t here = d.current().offset;
    r = d.until();
    if (d.current().depth == 1) {
      CHECK(r.reason == "until");
      CHECK(d.current().offset > here);
    } else {
      CHECK(r.reason == "until: the fragment returned");
    }
  }
  CHECK(d.current().depth == 0);
  CHECK(d.current().mnemonic == "ShortJump");
  // until OFFSET: to that offset at this depth (the second Unmask is at depth 0 too).
  const uint32_t fin = listing_offset(engine, "Unmask", 2);
  r = d.until(fin);
  CHECK(r.reason == "until");
  CHECK(d.current().offset == fin);
  d.cont();
  CHECK(d.current().ended);  // the temporary breakpoint is gone: nothing stops the run
}

TEST_CASE("debugger: the interrupt flag stops a move where it is and the next move goes on") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  d.step(3);
  volatile std::sig_atomic_t flag = 1;
  d.set_interrupt_flag(&flag);
  auto r = d.cont();
  CHECK(r.reason == harness::kInterruptedReason);
  CHECK(d.current().tick == 3);  // never earlier than where the move began
  CHECK_FALSE(d.current().ended);
  flag = 0;
  d.cont();
  CHECK(d.current().ended);
  flag = 1;
  r = d.reverse_continue();  // interrupted during its scan: stays where it began
  CHECK(r.reason == harness::kInterruptedReason);
  CHECK(d.current().ended);
  d.set_interrupt_flag(nullptr);
}

TEST_CASE("debugger: at a terminal an empty line repeats the last move; a script skips it") {
  harness::ProgramDebugEngine engine = debug_engine(options("jet.SH"));
  Debugger d(engine);
  d.restart();
  std::ostringstream out;
  harness::DebugRepl repl(d, out);
  std::istringstream typed("step 2\n\n\nbreak Face\n\nprint steps\n\n");
  repl.run(typed, true);
  CHECK(d.current().steps == 6);       // step 2, repeated twice
  CHECK(d.breakpoints().size() == 1);  // break is not repeated
  CHECK(repl.errors() == 0);
  const std::string text = out.str();
  size_t printed = 0;
  for (size_t at = text.find("steps = 6"); at != std::string::npos;
       at = text.find("steps = 6", at + 1))
    ++printed;
  CHECK(printed == 2);  // print repeats

  d.restart();
  std::istringstream script("step 2\n\n\n");
  harness::DebugRepl batch(d, out);
  batch.run(script, false);
  CHECK(d.current().steps == 2);
}

TEST_CASE("debugger: the partial frame grows in painter's order up to the frame render draws") {
  DebugOptions o = options("tank.SH");
  o.width = 160;
  o.height = 120;
  harness::ProgramDebugEngine engine = debug_engine(o);
  Debugger d(engine);
  d.restart();
  const raster::Framebuffer empty = d.partial_frame(0);
  for (int y = 0; y < empty.height(); ++y)
    for (int x = 0; x < empty.width(); ++x) REQUIRE(empty.at(x, y) == 0);
  Breakpoint face;
  face.kind = BreakKind::kFace;
  face.number = 0;
  d.add_breakpoint(face);
  d.cont();
  const raster::Framebuffer one = d.partial_frame(0);
  d.remove(1);
  d.cont();
  REQUIRE(d.current().ended);
  const raster::Framebuffer all = d.partial_frame(0);
  const auto rendered =
      testing::render_spec(example("tank.SH"), testing::state_with({}, {}, 160, 120));
  CHECK(all == rendered.frame);
  CHECK_FALSE(one == all);
  CHECK_FALSE(one == empty);
}

namespace {

const std::string kTank = SHAPEVM_SOURCE_DIR "/examples/apache/vehicle.apa:tank";

harness::ProgramDebugEngine apache_engine() {
  return harness::ProgramDebugEngine(shapevm::open_program(kTank, {}), shapevm::StateRequest{});
}

// Runs REPL commands; returns what they printed and counts their errors in `errors`.
std::string repl(Debugger& d, const std::vector<std::string>& commands, int* errors = nullptr) {
  std::ostringstream out;
  harness::DebugRepl r(d, out);
  for (const auto& c : commands) r.execute(c);
  if (errors) *errors = r.errors();
  return out.str();
}

}  // namespace

TEST_CASE("debugger: each engine declares its memory views and native code") {
  harness::ProgramDebugEngine fa = debug_engine(options("jet.SH"));
  const shapevm::DebugVocabulary fv = fa.vocabulary();
  CHECK(fv.native == "x86");
  REQUIRE(fv.memory.size() == 1);
  CHECK(fv.memory[0].name == "pool");
  CHECK(fv.memory[0].columns == std::vector<std::string>{"x", "y", "z", "vx", "vy", "vz"});
  CHECK(std::find(fv.register_names.begin(), fv.register_names.end(), "pos.x") !=
        fv.register_names.end());
  harness::ProgramDebugEngine apache = apache_engine();
  const shapevm::DebugVocabulary av = apache.vocabulary();
  CHECK(av.native.empty());
  REQUIRE(av.memory.size() == 1);
  CHECK(av.memory[0].name == "vertices");
  CHECK(av.memory[0].columns == fv.memory[0].columns);
  // A snapshot holds every declared view, even before anything is written.
  Debugger d(apache);
  d.restart();
  REQUIRE(d.current().memory.size() == 1);
  CHECK(d.current().memory[0].name == "vertices");
  CHECK(shapevm::parse_memory_name("vertices[12].vz")->index == 12);
  CHECK(shapevm::parse_memory_name("vertices[12].vz")->column == "vz");
  CHECK_FALSE(shapevm::parse_memory_name("vertices[12]"));
  CHECK_FALSE(shapevm::parse_memory_name("[1].x"));
  CHECK_FALSE(shapevm::resolve_memory_name("vertices[1].w", av.memory));
  CHECK(shapevm::resolve_memory_name("vertices[1].vy", av.memory)->column == 4);
}

TEST_CASE("debugger: an Apache program steps, goes back, and reads its vertices") {
  harness::ProgramDebugEngine engine = apache_engine();
  Debugger d(engine);
  d.restart();
  CHECK(d.current().tick == 0);
  CHECK(d.current().mnemonic == "winding");  // the tank places its weapon slot by a decision
  CHECK_FALSE(d.current().native);
  REQUIRE_FALSE(rows(d.current(), "vertices").empty());
  const auto v0 = harness::snapshot_value(d.current(), "vertices[0].x");
  REQUIRE(v0);
  CHECK(*v0 == -60 * 16);  // vertex 0 of the body in model units
  CHECK_FALSE(harness::snapshot_value(d.current(), "pool[0].x"));
  d.step(6);
  CHECK(d.current().steps == 6);
  const Snapshot after_six = d.current();
  d.step(4);
  CHECK(d.current().steps == 10);
  d.back(4);
  CHECK(d.current() == after_six);
  // stepi is step for an engine without native code
  d.stepi(3);
  CHECK(d.current().steps == 9);
  CHECK_THROWS_AS(d.native_finish(), harness::DebugError);
  Breakpoint native;
  native.kind = BreakKind::kNativeEntry;
  CHECK_THROWS_AS(d.add_breakpoint(native), harness::DebugError);
  d.goto_tick(UINT64_MAX);
  CHECK(d.current().ended);
}

TEST_CASE("debugger: Apache breakpoints on a mnemonic and on a face, and reverse-continue") {
  harness::ProgramDebugEngine engine = apache_engine();
  Debugger d(engine);
  d.restart();
  d.add_breakpoint(mnemonic("winding"));
  auto r = d.cont();
  CHECK(r.reason.find("breakpoint 1 (on winding)") == 0);
  CHECK(d.current().mnemonic == "winding");
  const Snapshot winding = d.current();
  d.remove(1);
  Breakpoint face;
  face.kind = BreakKind::kFace;
  face.number = 8;
  d.add_breakpoint(face);
  d.restart();
  r = d.cont();
  CHECK(r.reason.find("after face #8") != std::string::npos);
  const Snapshot after_face = d.current();
  // The shadow pass draws first: face #8 is its ninth face, the first of the attached turret
  // (depth 1), inside the turret's winding decisions.
  CHECK(harness::snapshot_value(after_face, "shadow_faces") == 9);
  CHECK(after_face.faces == 0);
  CHECK(after_face.depth == 3);
  // The attached turret runs one call deeper with its own vertices.
  d.add_breakpoint(mnemonic("attached"));
  d.restart();
  d.cont();  // the weapon slot first: empty by default, it draws nothing
  CHECK(d.current().mnemonic == "attached");
  d.cont();
  CHECK(d.current().mnemonic == "attached");
  d.step();
  CHECK(d.current().depth == 1);
  CHECK(rows(d.current(), "vertices").size() == 10);  // the turret's
  d.remove(3);
  // reverse-continue from the end visits every forward stop again, latest first, exactly.
  d.remove(2);
  d.add_breakpoint(mnemonic("winding"));
  d.add_breakpoint(face);
  d.restart();
  std::vector<Snapshot> stops;
  while (true) {
    d.cont();
    if (d.current().ended) break;
    stops.push_back(d.current());
  }
  REQUIRE(stops.size() >= 2);
  for (size_t i = stops.size(); i-- > 0;) {
    CAPTURE(i);
    r = d.reverse_continue();
    CHECK(r.reason.find("breakpoint ") == 0);
    CHECK(d.current() == stops[i]);
  }
  r = d.reverse_continue();
  CHECK(d.current().tick == 0);
  CHECK(r.reason.find("start of run") == 0);
  CHECK(winding.tick > 0);
}

TEST_CASE("debugger: the REPL shows the engine's own memory view and native commands") {
  harness::ProgramDebugEngine apache = apache_engine();
  Debugger a(apache);
  a.restart();
  int errors = 0;
  std::string out = repl(a, {"print vertices[0].x"}, &errors);
  CHECK(errors == 0);
  CHECK(out == "vertices[0].x = -960 (0xfffffffffffffc40)\n");
  out = repl(a, {"pool"}, &errors);
  CHECK(errors == 1);
  CHECK(out.find("error: unknown command \"pool\"") == 0);
  CHECK(out.find("vertices") != std::string::npos);
  out = repl(a, {"vertices 0-1"}, &errors);
  CHECK(errors == 0);
  CHECK(out.find("[   0] model (  -960,      0,  -1600)  view (") == 0);
  CHECK(out.find("[   1] model (   960,") != std::string::npos);
  CHECK(out.find("[   2]") == std::string::npos);
  out = repl(a, {"vertices 900"}, &errors);
  CHECK(out == "no vertices in that range\n");
  for (const char* native : {"native finish", "info native", "break native"}) {
    CAPTURE(native);
    out = repl(a, {native}, &errors);
    CHECK(errors == 1);
    CHECK(out == "error: this engine has no native code\n");
  }
  // FA's word for native code is only a mnemonic here, and no listed instruction has it.
  out = repl(a, {"break x86", "break winding", "delete"}, &errors);
  CHECK(errors == 0);
  CHECK(out ==
        "Breakpoint 1 on x86\n"
        "note: no instruction in the listing is x86; the breakpoint may never stop\n"
        "Breakpoint 2 on winding\n");
  out = repl(a, {"watch vertices[0]", "watch pool[0]"}, &errors);
  CHECK(errors == 1);
  CHECK(out.find("Watchpoint 3: vertices[0]") == 0);
  CHECK(out.find("no memory view \"pool\"") != std::string::npos);
  REQUIRE(a.watchpoints().size() == 1);
  CHECK(a.watchpoints()[0].names.size() == 6);
  CHECK(a.watchpoints()[0].names[5] == "vertices[0].vz");
  out = repl(a, {"help"}, &errors);
  CHECK(out.find("vertices [N|N-M]") != std::string::npos);
  CHECK(out.find("memory views vertices (x, y, z, vx, vy, vz); no native code.") !=
        std::string::npos);
  CHECK(out.find("x86") == std::string::npos);
  CHECK(out.find("pool") == std::string::npos);

  harness::ProgramDebugEngine fa = debug_engine(options("jet.SH"));
  Debugger f(fa);
  f.restart();
  out = repl(f, {"vertices"}, &errors);
  CHECK(errors == 1);
  out = repl(f, {"watch pool[0]", "continue", "pool 0"}, &errors);
  CHECK(errors == 0);
  CHECK(out.find("Stopped: watchpoint 1: pool[0].x <none> -> 0") != std::string::npos);
  CHECK(out.find("\n[   0] source (     0,    100,      0)  view (") != std::string::npos);
  out = repl(f, {"help"}, &errors);
  CHECK(out.find("x86 finish") != std::string::npos);
  CHECK(out.find("pool [N|N-M]") != std::string::npos);
  CHECK(out.find("memory views pool (x, y, z, vx, vy, vz); native code: x86.") !=
        std::string::npos);
  out = repl(f, {"info x86"}, &errors);
  CHECK(out == "error: not inside an x86 block\n");
}

}  // namespace harness_debugger_tests
