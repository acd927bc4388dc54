// The seed's reloc-based sub-stream harvest (`--merged`, FA-24) and articulation selection on top
// of it (FA-23): relocation targets in CODE that the base run did not reach are walked too,
// walking on through top-level ShortEOFs, with vertices append-only above the base pool and the
// faces after a skipped VertexBuffer dropped; an input the state sets keeps only what it selects.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "interp/fa/branch_kinds.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape_input.h"
#include "tests/fa/recording_sink.h"
#include "tests/fa/shape_text.h"

namespace fa_merged_harvest_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::RecordingSink;
using shapevm::testing::with_header;

namespace {

// Base: face 0x10, then the x86 picks `far` (gear down) or `cont` (face 0x11) and the base ends
// at a top-level ShortEOF. `far` (face 0x20) is reached only through the x86; after its ShortEOF
// the harvest walks on into `low`, whose VertexBuffer rewrites base slots: it is skipped and its
// face 0x30 dropped. `mov ecx, low` pins `low` by a relocation as well.
const char* kHarvestShape = R"(
    JumpToDamage @damaged
    VertexBuffer at=0
        v 0, 0, 0
        v 10, 0, 0
        v 0, 10, 0
        v 10, 10, 0
    Face content=0x00 layout=0x00 color=0x10 shadow=0 idx=0,1,2
    X86Code
    x86 b9 {low}
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {far} 68 {do_start_interp} c3
    x86 68 {cont} 68 {do_start_interp} c3
cont:
    Face content=0x00 layout=0x00 color=0x11 shadow=0 idx=1,2,3
    ShortEOF
far:
    VertexBuffer at=64
        v 0, 0, 5
        v 10, 0, 5
        v 0, 10, 5
    Face content=0x00 layout=0x00 color=0x20 shadow=0 idx=8,9,10
    ShortEOF
low:
    VertexBuffer at=0
        v 0, 0, 9
        v 10, 0, 9
        v 0, 10, 9
    Face content=0x00 layout=0x00 color=0x30 shadow=0 idx=0,1,2
    ShortEOF
damaged:
    VertexBuffer at=0
        v 0, 0, 0
        v 10, 0, 0
        v 0, 10, 0
    Face content=0x00 layout=0x00 color=0x40 shadow=0 idx=0,1,2
    ShortEOF
    EndObject
    .stub _PLgearDown
    .stub do_start_interp
)";

std::vector<uint8_t> colors_of(const Shape& shape, RunState state) {
  Interpreter interp(shape);
  RecordingSink sink;
  sink.ops = false;
  const RunResult r = interp.run(state, sink);
  CHECK_MESSAGE(r.clean, r.reason);
  return sink.face_colors;
}

}  // namespace

TEST_CASE("FA-24: --merged adds the reloc-reachable sub-streams once each, append-only") {
  auto b =
      build_shape(with_header(kHarvestShape, ".import _PLgearDown\n.import do_start_interp\n"));
  RunState state;
  // Without --merged each run shows one state.
  CHECK(colors_of(b.shape, state) == std::vector<uint8_t>{0x10, 0x11});
  state.imports["_PLgearDown"] = 1;
  CHECK(colors_of(b.shape, state) == std::vector<uint8_t>{0x10, 0x20});

  // Merged: the base run (gear unset, so 0) and then `far`; `cont` is not drawn twice, `low`'s
  // buffer is below the base pool (4 slots) so it and its face are dropped; `damaged` follows in
  // the same walk and is dropped too.
  RunState merged;
  merged.merged = true;
  Interpreter interp(b.shape);
  RecordingSink sink;
  const RunResult r = interp.run(merged, sink);
  CHECK(r.clean);
  CHECK(sink.face_colors == std::vector<uint8_t>{0x10, 0x11, 0x20});
  const auto& L = b.assembled.labels;
  bool harvest_from_far = false;
  for (const auto& br : sink.branches)
    if (br.kind == branch_kind::kHarvest && br.target == L.at("far")) harvest_from_far = true;
  CHECK(harvest_from_far);
  CHECK(std::any_of(sink.diagnostics.begin(), sink.diagnostics.end(), [](const std::string& d) {
    return d.find("below the base pool's 4 slots") != std::string::npos;
  }));
  // The same result with the x86 stepped over statically (the seed's codec never runs it).
  merged.run_x86 = false;
  CHECK(colors_of(b.shape, merged) == std::vector<uint8_t>{0x10, 0x11, 0x20});
}

TEST_CASE("FA-23: a set input keeps only the sub-streams its value selects in a merged run") {
  auto b =
      build_shape(with_header(kHarvestShape, ".import _PLgearDown\n.import do_start_interp\n"));
  RunState state;
  state.merged = true;
  state.imports["_PLgearDown"] = 0;  // gear up: `far` is deselected
  CHECK(colors_of(b.shape, state) == std::vector<uint8_t>{0x10, 0x11});
  state.imports["_PLgearDown"] = 1;  // gear down: the x86 takes `far`, the harvest adds `cont`,
  CHECK(colors_of(b.shape, state) == std::vector<uint8_t>{0x10, 0x20, 0x11});  // ungoverned
}

TEST_CASE("FA-24: the harvest runs only on the finest intact path") {
  auto b =
      build_shape(with_header(kHarvestShape, ".import _PLgearDown\n.import do_start_interp\n"));
  RunState state;
  state.merged = true;
  state.destroyed = true;
  Interpreter interp(b.shape);
  RecordingSink sink;
  interp.run(state, sink);
  CHECK(sink.face_colors == std::vector<uint8_t>{0x40});
  CHECK(std::any_of(sink.diagnostics.begin(), sink.diagnostics.end(), [](const std::string& d) {
    return d.find("no harvest") != std::string::npos;
  }));
}

TEST_CASE("FA-24: the merged jet shows gear, flaps and afterburner at once") {
  const Shape jet = fa::load_shape_spec(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH");
  RunState all;
  all.imports = {{"_PLgearDown", 1}, {"_PLleftFlap", -1}, {"_PLafterBurner", 1}};
  RunState merged;
  merged.merged = true;
  auto sorted = [](std::vector<uint8_t> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  const auto every = sorted(colors_of(jet, all));
  CHECK(sorted(colors_of(jet, merged)) == every);
  CHECK(every.size() > sorted(colors_of(jet, RunState{})).size());
}

TEST_CASE("FA-24: a merged run ends as its base run or over budget; both dispatches agree") {
  auto b =
      build_shape(with_header(kHarvestShape, ".import _PLgearDown\n.import do_start_interp\n"));
  Interpreter interp(b.shape);
  bool some_over_budget = false;
  for (uint64_t limit : {5u, 12u, 16u, 20u, 24u, 30u, 1000u}) {
    for (bool run_x86 : {true, false}) {
      INFO("limit " << limit << " x86 " << run_x86);
      RunState state;
      state.merged = true;
      state.run_x86 = run_x86;
      state.step_limit = limit;
      RecordingSink threaded;
      RecordingSink switched;
      const RunResult t = interp.run(state, threaded, Dispatch::kThreaded);
      const RunResult s = interp.run(state, switched, Dispatch::kSwitch);
      CHECK(threaded.log == switched.log);
      CHECK(threaded.diagnostics == switched.diagnostics);
      CHECK(threaded.op_events.size() == switched.op_events.size());
      CHECK(t.reason == s.reason);
      CHECK(t.stop == s.stop);
      CHECK(t.ops == s.ops);
      CHECK(t.end_offset == s.end_offset);
      if (t.stop == StopReason::kStepBudget) {
        some_over_budget = true;
        CHECK_FALSE(t.clean);
        CHECK(t.reason == "budget: steps");
      } else {
        CHECK(t.clean);
        CHECK(t.stop == StopReason::kTopLevelShortEof);  // the base run's end
        CHECK(t.reason == "ShortEOF at top level");
      }
    }
  }
  CHECK(some_over_budget);
}

TEST_CASE("FA-24 deviation D2: a relocation target at an x86 block's head is not walked") {
  // Block A holds a relocated pointer to block B's head (as a jump table would) and re-enters at
  // `cont`. Block B, which the base run never reaches, returns without re-entering the bytecode.
  // The seed's codec keeps every non-trampoline target; walking B's head here would run its x86
  // and stop that walk with a diagnostic. `arm` (B's re-entry pointer) is geometry and is walked.
  auto b = build_shape(with_header(R"(
    VertexBuffer at=0
        v 0, 0, 0
        v 10, 0, 0
        v 0, 10, 0
    Face content=0x00 layout=0x00 color=0x10 shadow=0 idx=0,1,2
    X86Code
    x86 b8 {block_b}
    x86 68 {cont} 68 {do_start_interp} c3
cont:
    Face content=0x00 layout=0x00 color=0x11 shadow=0 idx=0,1,2
    ShortEOF
block_b:
    X86Code
    x86 b8 {arm}
    x86 c3
arm:
    Face content=0x00 layout=0x00 color=0x22 shadow=0 idx=0,1,2
    ShortEOF
    EndObject
    .stub do_start_interp
)",
                                   ".import do_start_interp\n"));
  RunState merged;
  merged.merged = true;
  Interpreter interp(b.shape);
  RecordingSink sink;
  const RunResult r = interp.run(merged, sink);
  CHECK(r.clean);
  CHECK(sink.face_colors == std::vector<uint8_t>{0x10, 0x11, 0x22});
  // After `arm`'s top-level ShortEOF the walk goes on at the next byte, the EndObject (not at the
  // trampoline after it, which a two-byte step would reach).
  CHECK(sink.diagnostics.empty());
  for (const auto& br : sink.branches)
    if (br.kind == branch_kind::kHarvest) CHECK(br.target != b.assembled.labels.at("block_b"));
}

}  // namespace fa_merged_harvest_tests
