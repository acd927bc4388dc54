// The direct-threaded dispatch over pre-decoded code against the switch twin, which decodes every
// opcode as it reaches it: every trace line agrees over the generated corpus in every
// articulation state, under step and face budgets; and an x86 block that rewrites an operand
// (in the middle of a run, and so between runs as CODE is restored) is obeyed at once.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "interp/fa/articulation.h"
#include "interp/fa/generator.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/pe_writer.h"
#include "interp/fa/predecoded_code.h"
#include "tests/fa/trace_text.h"
#include "tests/fa/x86_block_shape.h"

namespace fa_predecoded_dispatch_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::BuiltShape;
using shapevm::testing::with;

namespace {

std::string trace(Interpreter& interp, const RunState& state, Dispatch dispatch, bool ops,
                  WorkLimits limits = {}, bool control = true) {
  return testing::trace_text(interp, state, dispatch, ops, limits, control);
}

// A sink that wants neither op nor control events, as a frame renderer: only the run's result.
struct QuietSink : EventSink {
  bool wants_control() const override { return false; }
};

// Each face's corners where the view puts them, as a frame renderer receives them (no control
// events): what the trace does not show, such as the position a return restores.
std::string corners_seen(Interpreter& interp, const RunState& state, Dispatch dispatch) {
  struct Corners : EventSink {
    std::string text;
    bool wants_control() const override { return false; }
    void on_face(const FaceEvent& e) override {
      for (const FaceCorner& c : e.corners)
        text += std::to_string(c.view.x) + "," + std::to_string(c.view.y) + "," +
                std::to_string(c.view.z) + " ";
      text += "\n";
    }
  } sink;
  interp.run(state, sink, dispatch);
  return sink.text;
}

// The default state, then each articulation input through each of its values.
std::vector<RunState> articulation_states(const Shape& shape) {
  std::vector<RunState> states(1);
  const auto an = analyze_articulations(shape, walk_shape(shape));
  for (const auto& [input, values] : an.inputs)
    for (int64_t value : an.distinct_values(input)) {
      if (value == 0) continue;
      RunState s;
      s.imports[input] = value;
      states.push_back(s);
    }
  return states;
}

}  // namespace

TEST_CASE("threaded pre-decoded dispatch and the switch twin trace the generated corpus alike") {
  uint64_t runs = 0, x86_shapes = 0;
  for (uint32_t i = 0; i < 1275; ++i) {
    const BuiltShape b = build_shape(generate_fa_shape(7, i));
    // One interpreter for every state, so its decoded table carries over from run to run.
    Interpreter interp(b.shape);
    const auto states = articulation_states(b.shape);
    x86_shapes += states.size() > 1;
    for (size_t k = 0; k < states.size(); ++k) {
      const RunState& s = states[k];
      // With and without op events, and with and without control events (a frame renderer's
      // run, which takes the threaded loop's shortcuts for jumps, calls, returns and frame
      // tables), and where each face's corners lie.
      for (bool ops : {true, false})
        for (bool control : {true, false}) {
          const std::string threaded = trace(interp, s, Dispatch::kThreaded, ops, {}, control);
          const std::string reference = trace(interp, s, Dispatch::kSwitch, ops, {}, control);
          if (threaded != reference) {
            INFO("shape " << i << " state " << k << " ops " << ops << " control " << control);
            CHECK(threaded == reference);
          }
          ++runs;
        }
      if (corners_seen(interp, s, Dispatch::kThreaded) !=
          corners_seen(interp, s, Dispatch::kSwitch)) {
        INFO("shape " << i << " state " << k << ": face corners");
        CHECK(false);
      }
    }
    if (i % 25 == 0) {
      // Budgets stop both at the same opcode: steps 0..40, and the first few faces.
      for (uint64_t limit = 0; limit <= 40; ++limit) {
        RunState s = states.back();
        s.step_limit = limit;
        for (bool ops : {true, false})
          for (bool control : {true, false})
            CHECK(trace(interp, s, Dispatch::kThreaded, ops, {}, control) ==
                  trace(interp, s, Dispatch::kSwitch, ops, {}, control));
      }
      for (uint64_t faces = 1; faces <= 3; ++faces) {
        WorkLimits limits;
        limits.faces = faces;
        CHECK(trace(interp, states.back(), Dispatch::kThreaded, true, limits) ==
              trace(interp, states.back(), Dispatch::kSwitch, true, limits));
      }
    }
  }
  CHECK(runs > 2 * 1275);  // articulated shapes run in more than one state
  CHECK(x86_shapes > 100);
}

TEST_CASE("threaded dispatch agrees with the switch on faulting and odd streams") {
  // Each ends in a diagnostic the ordinary handler reports (pre-decoding leaves it kLegacy).
  std::vector<std::string> bodies = {
      "Jump @x\n .db 00\nx:\n .db 48 00 00 70\n",   // a Jump whose target is past CODE
      "Unmask @x\nx:\n .db 01 00\n",                // an odd opcode
      ".db 82 00 01 00 03 00 01 00 02 00 03 00\n",  // a misaligned VertexBuffer push_at
      ".db A6 00 00 70 05 00\n EndObject\n",        // JumpToDetail, target outside CODE
      ".db 40 00 00 00\n",                          // JumpToFrame with no frames
      ".db 48 00\n",                                // a Jump cut off by CODE's end
      "ShortJump @x\nx:\n Jump @y\ny:\n .db 38\n",  // a ShortJump on CODE's last byte
      // What the shortcuts for sinks without control events hand back to the handlers:
      "x:\n Unmask @x\n",  // a call past the call-depth budget
      // A return restores the caller's position: the triangle after it is placed as before.
      "XformUnmask t=100,0,0 a=0,0,0 call=@part\n VertexBuffer at=0\n v 0, 0, 0\n v 10, 0, 0\n"
      " v 0, 10, 0\n Face content=0 layout=0 color=5 shadow=0 idx=0,1,2\n EndObject\npart:\n"
      " VertexBuffer at=0\n v 0, 0, 0\n v 10, 0, 0\n v 0, 10, 0\n"
      " Face content=0 layout=0 color=6 shadow=0 idx=0,1,2\n ShortEOF\n",
      ".db 40 00 02 00 02 00 00 70\n ShortEOF\n",  // a frame slot outside CODE (frame 1)
      // Frame tables of two lengths, each reached again with the other's and its own last: the
      // frame chosen follows the table (each arm executes a different number of opcodes).
      "Unmask @a\n Unmask @a\n Unmask @b\n Unmask @a\n Unmask @b\n Unmask @b\n ShortEOF\n"
      "a:\n JumpToFrame @a0, @a1\na0:\n ShortEOF\na1:\n TextureIndex 1\n ShortEOF\n"
      "b:\n JumpToFrame @b0, @b1, @b2\nb0:\n ShortEOF\nb1:\n TextureIndex 1\n ShortEOF\n"
      "b2:\n TextureIndex 1\n TextureIndex 2\n ShortEOF\n",
  };
  // Calls nested 100 deep, each returning to the one before: past the call stack's first room
  // (64 frames) under a larger budget, and past the default budget.
  std::string nested = "Unmask @c0\n EndObject\n";
  for (int i = 0; i < 100; ++i)
    nested += "c" + std::to_string(i) + ":\n Unmask @c" + std::to_string(i + 1) + "\n ShortEOF\n";
  nested += "c100:\n TextureIndex 1\n ShortEOF\n";
  bodies.push_back(nested);
  {
    // Both dispatches share the call stack, so its depth is checked against the program too.
    const BuiltShape b = build_shape(testing::with_header(nested));
    Interpreter interp(b.shape);
    QuietSink quiet;
    RunState deep;
    for (Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
      for (uint32_t limit : {1000u, UINT32_MAX}) {
        // The largest budget --max-depth takes: room is made only as calls go deeper (making it
        // up front for the whole budget failed every run with bad_alloc).
        deep.call_depth_limit = limit;
        const RunResult r = interp.run(deep, quiet, dispatch);
        CHECK(r.stop == StopReason::kEndObject);
        CHECK(r.ops == 204);  // 101 calls, TextureIndex, 101 returns, EndObject
      }
      CHECK(interp.run({}, quiet, dispatch).stop == StopReason::kCallDepthBudget);
    }
  }
  for (const std::string& body : bodies) {
    INFO(body);
    const BuiltShape b = build_shape(testing::with_header(body));
    Interpreter interp(b.shape);
    // Frame counters for the tables; the last state's call-depth budget is past the stack's
    // first room (64 frames), so the deep call grows it.
    for (uint32_t frame : {0u, 1u, 5u}) {
      RunState state;
      state.frame = frame;
      if (frame == 5) state.call_depth_limit = 1000;
      for (int round = 0; round < 2; ++round)  // decoded, then from the table
        for (bool ops : {true, false})
          for (bool control : {true, false})
            CHECK(trace(interp, state, Dispatch::kThreaded, ops, {}, control) ==
                  trace(interp, state, Dispatch::kSwitch, ops, {}, control));
      CHECK(corners_seen(interp, state, Dispatch::kThreaded) ==
            corners_seen(interp, state, Dispatch::kSwitch));
    }
  }
}

TEST_CASE("an x86 store into a decoded Jump's operand redirects the next visit") {
  // `part` is called twice. Between the calls, with _PLgearDown == 1, the x86 block rewrites the
  // displacement of part's Jump (mov word [part+2], 10) from arm_a (colour 1) to arm_b
  // (colour 2). The first call decodes the Jump; the second must see the new displacement.
  const BuiltShape b = build_shape(testing::with_header(testing::kTriangleVertices + R"(
    Unmask @part
    X86Code
    x86 66 83 3d {_PLgearDown} 01
    x86 75 09
    x86 66 c7 05 {part+2} 0a 00
    x86 68 {again} 68 {do_start_interp} c3
again:
    Unmask @part
    EndObject
part:
    Jump @arm_a
arm_a:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
arm_b:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    ShortEOF
)" + testing::kX86Stubs,
                                                        testing::kX86Imports));
  const RunState rewrite = with("_PLgearDown=1");
  const RunState keep;
  Interpreter interp(b.shape);
  // Alternating, so each run starts from the table the last one left: a rewrite run decodes the
  // new bytes mid-run, and the following run must see CODE as restored.
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    for (const RunState* s : {&rewrite, &keep}) {
      const bool rewrites = s == &rewrite;
      const std::vector<uint8_t> expected =
          rewrites ? std::vector<uint8_t>{1, 2} : std::vector<uint8_t>{1, 1};
      for (Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
        testing::RecordingSink sink;
        sink.ops = false;
        const RunResult r = interp.run(*s, sink, dispatch);
        CHECK(r.clean);
        CHECK(sink.face_colors == expected);
      }
      CHECK(trace(interp, *s, Dispatch::kThreaded, true) ==
            trace(interp, *s, Dispatch::kSwitch, true));
    }
  }
  // The traced sandbox (its own engine and CODE buffer) reports its stores the same way.
  RunState traced = rewrite;
  traced.x86_trace = true;
  testing::RecordingSink sink;
  sink.ops = false;
  CHECK(interp.run(traced, sink).clean);
  CHECK(sink.face_colors == std::vector<uint8_t>{1, 2});
}

TEST_CASE(
    "an x86 store into a decoded Face's corner count, a VertexBuffer's first slot or a JumpToLOD's "
    "target is obeyed at the next visit") {
  // As above: `part` is called, the x86 block (with _PLgearDown == 1) stores into one operand of
  // part's first instruction, and part is called again. Each operand here is one the decoded
  // entry keeps (the instruction's end, the first slot written, the branch target), so the
  // entry must be decoded again from the new bytes. The colours drawn, without and with the store.
  struct Case {
    const char* what;
    const char* store;  // the x86 store, jne's distance past it first
    const char* after;  // what follows the second call
    const char* part;
    std::vector<uint8_t> kept;
    std::vector<uint8_t> rewritten;
  };
  const Case cases[] = {
      // The count 4 -> 3: the face ends a byte sooner, on its old fourth index (0: EndObject),
      // and the run ends there instead of returning to draw colour 3.
      {"Face corner count",
       "x86 75 07\n x86 c6 05 {part+5} 03\n",
       "Face content=0 layout=0 color=3 shadow=0 idx=0,1,2\n EndObject\n",
       "Face content=0 layout=0 color=1 shadow=0 idx=0,1,2,0\n ShortEOF\n",
       {1, 1, 3},
       {1, 1}},
      // push_at 24 -> 48: the second call writes slots 6..8, which the face after it names.
      {"VertexBuffer first slot",
       "x86 75 09\n x86 66 c7 05 {part+4} 30 00\n",
       "Face content=0 layout=0 color=2 shadow=0 idx=6,7,8\n EndObject\n",
       "VertexBuffer at=24\n v 0, 10, 0\n v 10, 10, 0\n v 0, 10, 10\n ShortEOF\n",
       {},
       {2}},
      // The taken branch's displacement 0 -> 10: from arm_a (colour 1) to arm_b (colour 2).
      {"JumpToLOD target",
       "x86 75 09\n x86 66 c7 05 {part+6} 0a 00\n",
       "EndObject\n",
       "JumpToLOD @arm_a size=1 threshold=60000\n"
       "arm_a:\n Face content=0 layout=0 color=1 shadow=0 idx=0,1,2\n ShortEOF\n"
       "arm_b:\n Face content=0 layout=0 color=2 shadow=0 idx=0,1,2\n ShortEOF\n",
       {1, 1},
       {1, 2}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const BuiltShape b = build_shape(testing::with_header(
        testing::kTriangleVertices + "    Unmask @part\n    X86Code\n" +
            "    x86 66 83 3d {_PLgearDown} 01\n " + c.store +
            "    x86 68 {again} 68 {do_start_interp} c3\nagain:\n    Unmask @part\n " + c.after +
            "part:\n " + c.part + testing::kX86Stubs,
        testing::kX86Imports));
    const RunState rewrite = with("_PLgearDown=1");
    const RunState keep;
    Interpreter interp(b.shape);
    for (int round = 0; round < 2; ++round) {
      for (const RunState* s : {&rewrite, &keep}) {
        INFO("round " << round << ", rewritten " << (s == &rewrite));
        for (Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
          testing::RecordingSink sink;
          sink.ops = false;
          CHECK(interp.run(*s, sink, dispatch).clean);
          CHECK(sink.face_colors == (s == &rewrite ? c.rewritten : c.kept));
        }
        CHECK(trace(interp, *s, Dispatch::kThreaded, true) ==
              trace(interp, *s, Dispatch::kSwitch, true));
      }
    }
  }
}

TEST_CASE("invalidating CODE bytes drops exactly the entries decoded from them") {
  const BuiltShape b = build_shape(testing::with_header(R"(
    Jump @a
a:
    Jump @b
b:
    TextureIndex 0
    EndObject
)"));
  const auto& code = b.shape.code();
  const uint32_t base = 14;  // after the header
  REQUIRE(code.size() >= base + 13);
  PredecodedCode table;
  table.prepare(code.data(), static_cast<uint32_t>(code.size()));
  auto decoded = [&](uint32_t off) { return table.at(off).kind != FastOp::kDecode; };
  for (uint32_t off : {base, base + 4, base + 8, base + 12}) table.decode(off);
  CHECK(table.at(base).kind == FastOp::kJump);
  CHECK(table.at(base).target() == base + 4);
  CHECK(table.at(base + 8).kind == FastOp::kNext);
  CHECK(table.at(base + 12).kind == FastOp::kEndObject);
  CHECK(table.at(static_cast<uint32_t>(code.size()) + 5).kind == FastOp::kOffEnd);
  // The second Jump's displacement (base + 6, base + 7): only that Jump depended on it.
  table.invalidate(base + 6, 2);
  CHECK(decoded(base));
  CHECK_FALSE(decoded(base + 4));
  CHECK(decoded(base + 8));
  // TextureIndex was decoded from its opcode byte alone: a write to its operand keeps it.
  table.invalidate(base + 10, 2);
  CHECK(decoded(base + 8));
  table.invalidate(base + 8, 1);
  CHECK_FALSE(decoded(base + 8));
  // A write that ends where an instruction starts leaves it; the first Jump's last byte drops it.
  table.invalidate(base + 11, 1);
  CHECK(decoded(base + 12));
  table.invalidate(base + 3, 1);
  CHECK_FALSE(decoded(base));
  CHECK(decoded(base + 12));
}

TEST_CASE("a table's storage serves the next CODE with no entry of the last one's left") {
  // 60,000 ShortJumps (38 00 00), each to the next: every third entry decoded, as a run leaves
  // them, then some invalidated (kDecode again, with the rest of the entry still written).
  std::vector<uint8_t> jumps(180'000, 0);
  for (size_t i = 0; i < jumps.size(); i += 3) jumps[i] = 0x38;
  std::vector<uint8_t> ends(140'000, 0x1E);  // ShortEOF at every offset: the same size class
  const std::vector<uint8_t> tiny(1'000, 0x1E);
  const auto size_of = [](const std::vector<uint8_t>& code) {
    return static_cast<uint32_t>(code.size());
  };
  const auto clear_entry = [](const DecodedOp& d) {
    const DecodedOp zero{};
    return std::memcmp(&d, &zero, sizeof zero) == 0;
  };
  const DecodedOp* first_storage = nullptr;
  {
    PredecodedCode table;
    table.prepare(jumps.data(), size_of(jumps));
    for (uint32_t off = 0; off < size_of(jumps); off += 3) table.decode(off);
    REQUIRE(table.at(3).kind == FastOp::kJump);
    table.invalidate(1000, 2000);
    REQUIRE(table.at(999).kind == FastOp::kDecode);
    REQUIRE_FALSE(clear_entry(table.at(999)));
    first_storage = &table.at(0);
  }
  // A table for a much smaller CODE does not take it (a small shape's table may live long).
  {
    PredecodedCode small;
    small.prepare(tiny.data(), size_of(tiny));
    CHECK(&small.at(0) != first_storage);
  }
  // The next table this thread prepares for a CODE of the same size class (2^18 entries here)
  // takes the storage the destroyed one left.
  PredecodedCode table;
  table.prepare(ends.data(), size_of(ends));
  CHECK(&table.at(0) == first_storage);
  uint32_t dirty = 0;
  for (uint32_t off = 0; off < size_of(ends); ++off) dirty += !clear_entry(table.at(off));
  CHECK(dirty == 0);
  CHECK(table.at(size_of(ends)).kind == FastOp::kOffEnd);
  CHECK(table.decode(0).kind == FastOp::kShortEof);
  // Served again whole: only the new CODE's end entry is written, and no old end entry remains.
  table.prepare(jumps.data(), size_of(jumps));
  dirty = 0;
  for (uint32_t off = 0; off < size_of(jumps); ++off) dirty += !clear_entry(table.at(off));
  CHECK(dirty == 0);
  CHECK(table.at(size_of(jumps)).kind == FastOp::kOffEnd);
  CHECK(table.decode(297).kind == FastOp::kJump);
  // clear() forgets the entries too.
  table.clear();
  table.prepare(jumps.data(), size_of(jumps));
  CHECK(clear_entry(table.at(297)));
}

TEST_CASE("tables of mixed sizes, one after another, allocate once per size class") {
  // A corpus's shapes come in every size: each fresh table takes the storage a table of its
  // size class left, whatever larger or smaller tables came between.
  const std::vector<uint8_t> large(100'000, 0x1E), small(3'000, 0x1E), smaller(2'100, 0x1E);
  const auto run_table = [](const std::vector<uint8_t>& code) {
    PredecodedCode table;
    table.prepare(code.data(), static_cast<uint32_t>(code.size()));
    for (uint32_t off = 0; off < code.size(); off += 7)
      REQUIRE(table.decode(off).kind == FastOp::kShortEof);
    return &table.at(0);
  };
  // Warm: every class these sizes fall in has had a table (2^17 entries; 2^12 for both small
  // ones, the smallest at least half of its class).
  run_table(large);
  run_table(small);
  const uint64_t before = PredecodedCode::storages_allocated();
  const DecodedOp* large_storage = run_table(large);
  const DecodedOp* small_storage = run_table(small);
  for (int i = 0; i < 20; ++i) {
    CHECK(run_table(i % 2 ? smaller : large) == (i % 2 ? small_storage : large_storage));
    CHECK(run_table(small) == small_storage);
  }
  CHECK(PredecodedCode::storages_allocated() == before);
  // One storage is kept per class: a second table of a class, while the first holds the kept
  // storage, allocates its own, and of the two only one is kept.
  const std::vector<uint8_t> middle(20'000, 0x1E);
  run_table(middle);
  const uint64_t warm = PredecodedCode::storages_allocated();
  {
    PredecodedCode held;
    held.prepare(middle.data(), static_cast<uint32_t>(middle.size()));
    CHECK(PredecodedCode::storages_allocated() == warm);
    run_table(middle);
    CHECK(PredecodedCode::storages_allocated() == warm + 1);
  }
  run_table(middle);
  run_table(middle);
  CHECK(PredecodedCode::storages_allocated() == warm + 1);
}

TEST_CASE("CODE beyond the pre-decoded table's reach runs the fetch loop, and agrees") {
  // A LongJump over more than PredecodedCode::kMaxCodeSize bytes of padding to a LongJump back.
  const BuiltShape small = build_shape(testing::with_header(R"(
    LongJump @far
back:
    TextureIndex 7
    EndObject
far:
    LongJump @back
)"));
  std::vector<uint8_t> code = small.shape.code();
  const uint32_t first = 14;  // after the header
  REQUIRE(code[first] == 0x50);
  uint32_t far = first + 6;
  while (far + 6 <= code.size() && code[far] != 0x50) ++far;
  REQUIRE(far + 6 <= code.size());
  const uint32_t pad = PredecodedCode::kMaxCodeSize;
  code.insert(code.begin() + far, pad, 0x00);
  const auto patch_rel32 = [&](uint32_t at, int64_t delta) {
    int32_t rel = 0;
    std::memcpy(&rel, &code[at + 2], 4);
    rel = static_cast<int32_t>(rel + delta);
    std::memcpy(&code[at + 2], &rel, 4);
  };
  patch_rel32(first, pad);
  patch_rel32(far + pad, -int64_t{pad});
  ImageBuildInput input;
  input.code_body = code;
  const Shape big = load_shape(build_pharlap(input), "big.SH");
  REQUIRE(big.code().size() > PredecodedCode::kMaxCodeSize);
  CHECK_FALSE(PredecodedCode::serves(static_cast<uint32_t>(big.code().size())));
  PredecodedCode table;
  CHECK_THROWS_AS(table.prepare(big.code().data(), static_cast<uint32_t>(big.code().size())),
                  std::length_error);

  Interpreter interp(big);
  for (bool ops : {true, false})
    for (bool control : {true, false})
      CHECK(trace(interp, {}, Dispatch::kThreaded, ops, {}, control) ==
            trace(interp, {}, Dispatch::kSwitch, ops, {}, control));
  QuietSink quiet;
  const RunResult r = interp.run({}, quiet, Dispatch::kThreaded);
  CHECK(r.clean);
  CHECK(r.stop == StopReason::kEndObject);
  CHECK(r.ops == 4);  // both LongJumps, TextureIndex, EndObject
}

}  // namespace fa_predecoded_dispatch_tests
