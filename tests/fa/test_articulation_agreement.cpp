// The static articulation analysis must agree with execution (issue 4): for every input the
// analysis finds and every value around its compare immediates, the sub-stream entries the
// sandboxed x86 actually re-enters are exactly the ones `selected` predicts for the blocks that
// ran. Checked on the jet example (gear: jne, flaps: jge, afterburner: je) and on 200 generated
// shapes (FA-19..FA-22).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "interp/fa/articulation.h"
#include "interp/fa/assembler.h"
#include "interp/fa/generator.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape_input.h"

namespace fa_articulation_agreement_tests {

using namespace shapevm;
using namespace shapevm::fa;

namespace {

// Records which blocks the interpreter entered and where each x86 block re-entered the bytecode.
struct ReentrySink : EventSink {
  std::set<uint32_t> entered_blocks;
  std::set<uint32_t> resumes;
  std::vector<std::string> errors;
  bool wants_ops() const override { return false; }
  void on_native(const NativeEvent& e) override {
    if (e.enter) {
      entered_blocks.insert(e.offset);
    } else if (e.resumed) {
      resumes.insert(e.resume);
    }
  }
  void on_diagnostic(const DiagnosticEvent& e) override {
    if (e.level == DiagnosticLevel::kError) errors.push_back(std::string(e.message));
  }
};

// The values worth running for one input: each compare immediate, its neighbours, and 0.
std::set<int64_t> values_to_try(const std::set<int64_t>& immediates) {
  std::set<int64_t> out = {0};
  for (int64_t v : immediates) out.insert({v - 1, v, v + 1});
  return out;
}

// Runs `shape` for every input value and compares the re-entries with the prediction. Returns
// the number of runs checked.
int check_agreement(const Shape& shape, const std::string& name) {
  const WalkResult walk = walk_shape(shape);
  const ArticulationAnalysis a = analyze_articulations(shape, walk);
  Interpreter interp(shape);
  std::map<uint32_t, const X86Block*> block_at;
  for (const auto& b : a.blocks) block_at[b.offset] = &b;
  int runs = 0;
  for (const auto& [input, immediates] : a.inputs) {
    if (immediates.empty()) continue;
    // Each value with memoised guards (twice: the second run takes the recorded outcomes) and
    // with every block run (--no-memo): the same re-entries.
    for (int pass = 0; pass < 3; ++pass)
      for (int64_t v : values_to_try(immediates)) {
        INFO(name << ": " << input << " = " << v << " pass " << pass);
        RunState state;
        state.effects = 0x20000;  // the finest LOD, where the selectors sit
        state.imports[input] = v;
        state.x86_memo = pass < 2;
        ReentrySink sink;
        const RunResult r = interp.run(state, sink);
        CHECK_MESSAGE(r.clean, r.reason);
        CHECK(sink.errors.empty());
        // Predicted: the selected pointers of the blocks that ran.
        std::set<uint32_t> predicted;
        std::set<uint32_t> all_pointers;
        const auto selected = a.selected({{input, v}});
        // The x86 of one block runs on into the abutting blocks of its run without an X86Code
        // dispatch, so a run counts as executed when the interpreter entered any of its blocks.
        std::set<uint32_t> runs_entered;
        for (uint32_t off : sink.entered_blocks) {
          REQUIRE(block_at.count(off));
          runs_entered.insert(block_at.at(off)->run);
        }
        for (const auto& b : a.blocks) {
          if (!runs_entered.count(b.run)) continue;
          for (uint32_t p : b.pointers) {
            all_pointers.insert(p);
            if (std::binary_search(selected.begin(), selected.end(), p)) predicted.insert(p);
          }
        }
        std::set<uint32_t> actual;
        for (uint32_t p : sink.resumes)
          if (all_pointers.count(p)) actual.insert(p);
        CHECK(actual == predicted);
        // Every re-entry is one of the analysed pointers: nothing escapes the analysis.
        CHECK_MESSAGE(actual == sink.resumes,
                      fmt::format("resumes {} pointers {}", fmt::join(sink.resumes, ","),
                                  fmt::join(all_pointers, ",")));
        ++runs;
      }
  }
  // The guards are pure: the second pass took their outcomes from the first.
  if (runs > 0) {
    REQUIRE(interp.x86_runner() != nullptr);
    CHECK(interp.x86_runner()->memo_hits() > 0);
  }
  return runs;
}

}  // namespace

TEST_CASE("FA-20/FA-21/FA-22: static selection agrees with execution on the jet example") {
  const Shape shape = fa::load_shape_spec(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH");
  const ArticulationAnalysis a = analyze_articulations(shape, walk_shape(shape));
  // Three inputs, each a different guard form.
  REQUIRE(a.inputs.size() == 3);
  CHECK(a.distinct_values("_PLgearDown") == std::vector<int64_t>{0, 1});
  CHECK(a.distinct_values("_PLleftFlap") == std::vector<int64_t>{-1, 0});
  CHECK(a.distinct_values("_PLafterBurner") == std::vector<int64_t>{0, 1});
  const auto gear = a.cases_of("_PLgearDown");
  REQUIRE(gear.size() == 1);
  CHECK(gear[0]->relation == GuardRelation::kEq);
  const auto flap = a.cases_of("_PLleftFlap");
  REQUIRE(flap.size() == 1);
  CHECK(flap[0]->relation == GuardRelation::kLt);
  const auto burner = a.cases_of("_PLafterBurner");
  REQUIRE(burner.size() == 1);
  CHECK(burner[0]->relation == GuardRelation::kNe);
  // Each input: its immediate and neighbours, three passes.
  CHECK(check_agreement(shape, "jet") == 3 * 3 * 3);
}

TEST_CASE("FA-20/FA-21/FA-22: static selection agrees with execution on 200 generated shapes") {
  constexpr uint64_t kSeed = 20240601;
  int shapes_with_inputs = 0;
  int runs = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    const auto assembled =
        fa::assemble_fa(fa::generate_fa_shape(kSeed, i, fa::GeneratorProfile::kStress), "gen.fas");
    const Shape shape = load_shape(assembled.file, fmt::format("gen{}.SH", i));
    const int n = check_agreement(shape, fmt::format("shape {}", i));
    if (n > 0) ++shapes_with_inputs;
    runs += n;
  }
  CHECK(shapes_with_inputs > 20);
  MESSAGE(shapes_with_inputs << " shapes with inputs, " << runs << " runs compared");
}

}  // namespace fa_articulation_agreement_tests
