// The static articulation analysis (docs/fa-articulation.md): which input each x86 selector
// compares (FA-20), its sub-stream entries (FA-21) and contiguous-run attribution (FA-22), on
// shapes assembled from text, on the jet example and on generated shapes.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "interp/fa/articulation.h"
#include "interp/fa/generator.h"
#include "interp/fa/listing.h"
#include "interp/fa/shape_info.h"
#include "interp/fa/shape_input.h"
#include "tests/fa/shape_text.h"

namespace fa_articulation_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::with_header;

namespace {

ArticulationGuard guard(const std::string& input, int64_t value,
                        GuardRelation relation = GuardRelation::kEq, unsigned bits = 16) {
  return {input, value, relation, bits};
}

const ArticulationCase* find_case(const ArticulationAnalysis& a, const std::string& input,
                                  int64_t value) {
  for (const auto& c : a.cases)
    if (c.input == input && c.value == value) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("FA-20: each guard form names its data import and compare immediate") {
  // One chained block per compare encoding, then a join block that only loads an input.
  const std::vector<std::string> forms = {
      "66 83 3d {_PLgearDown} 01",           // cmp word, imm8 sign-extended
      "83 3d {_PLleftFlap} 00",              // cmp dword, imm8
      "80 3d {_PLbrake} ff",                 // cmp byte
      "66 81 3d {_PLhook} 34 12",            // cmp word, imm16
      "81 3d {_PLafterBurner} 78 56 34 12",  // cmp dword, imm32
      "66 83 3d {_PLrightFlap} ff",          // word compare with -1
      "83 3d {_PLrudder} ff",                // dword compare with -1
  };
  std::string body;
  for (size_t i = 0; i < forms.size(); ++i) {
    body += "    X86Code\n    x86 " + forms[i] + "\n    x86 75 11\n";
    body += "    x86 68 {arm" + std::to_string(i) + "} 68 {do_start_interp} c3\n";
    body += "arm" + std::to_string(i) + ":\n    Unmask @sub" + std::to_string(i) + "\n";
  }
  body += "    X86Code\n    x86 66 a1 {_PLgearPos}\n    x86 68 {join} 68 {do_start_interp} c3\n";
  body += "join:\n    ShortEOF\n";
  for (size_t i = 0; i < forms.size(); ++i) body += "sub" + std::to_string(i) + ":\n  ShortEOF\n";
  body += "    EndObject\n";
  const std::vector<std::string> imports = {"_PLgearDown", "_PLleftFlap",    "_PLbrake",
                                            "_PLhook",     "_PLafterBurner", "_PLrightFlap",
                                            "_PLrudder",   "_PLgearPos",     "do_start_interp"};
  std::string preamble;
  for (const auto& name : imports) {
    preamble += ".import " + name + "\n";
    body += "    .stub " + name + "\n";
  }
  auto b = build_shape(with_header(body, preamble));
  WalkResult walk = walk_shape(b.shape);
  REQUIRE(walk.diagnostics.empty());
  ArticulationAnalysis a = analyze_articulations(b.shape, walk);
  REQUIRE(a.blocks.size() == forms.size() + 1);

  const std::vector<std::pair<std::string, int64_t>> expected = {{"_PLgearDown", 1},
                                                                 {"_PLleftFlap", 0},
                                                                 {"_PLbrake", -1},
                                                                 {"_PLhook", 0x1234},
                                                                 {"_PLafterBurner", 0x12345678},
                                                                 {"_PLrightFlap", -1},
                                                                 {"_PLrudder", -1}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const X86Block& blk = a.blocks[i];
    INFO("block " << i);
    REQUIRE(blk.input);
    CHECK(*blk.input == expected[i].first);
    CHECK(blk.compare_values == std::vector<int64_t>{expected[i].second});
    REQUIRE(blk.reads.size() == 1);
    CHECK(blk.reads[0].instruction == blk.payload);  // the compare is the first instruction
    CHECK(blk.reads[0].site > blk.payload);
    CHECK(a.inputs.at(expected[i].first) == std::set<int64_t>{expected[i].second});
  }
  // A load of a data import names the input without a compare value.
  const X86Block& last = a.blocks.back();
  REQUIRE(last.input);
  CHECK(*last.input == "_PLgearPos");
  CHECK(last.compare_values.empty());
  REQUIRE(last.reads.size() == 1);
  CHECK_FALSE(last.reads[0].value);
  CHECK(a.inputs.at("_PLgearPos").empty());
  CHECK(a.inputs.count("do_start_interp") == 0);  // a function, not an input
  CHECK(a.cases_of("_PLgearPos").empty());
  CHECK(a.cases.size() == expected.size());
}

TEST_CASE("FA-21: sub-stream entries are pinned pointers that are neither trampolines nor heads") {
  auto b = build_shape(with_header(R"(
    X86Code
    x86 b9 {sub0}
    x86 66 83 3d {_PLgearDown} 01
    x86 75 20
    x86 b8 {second}
    x86 bb {_PLgearPos}
    x86 b9 {sub2}
    x86 68 {arm} 68 {do_start_interp} c3
arm:
    Unmask @sub1
second:
    X86Code
    x86 68 {join} 68 {do_start_interp} c3
join:
    ShortEOF
sub0:
    ShortEOF
sub1:
    ShortEOF
sub2:
    ShortEOF
    EndObject
    .stub _PLgearDown
    .stub _PLgearPos
    .stub do_start_interp
)",
                                   ".import _PLgearDown\n.import _PLgearPos\n"
                                   ".import do_start_interp\n"));
  const auto& L = b.assembled.labels;
  WalkResult walk = walk_shape(b.shape);
  REQUIRE(walk.diagnostics.empty());
  ArticulationAnalysis a = analyze_articulations(b.shape, walk);
  REQUIRE(a.blocks.size() == 2);
  const X86Block& first = a.blocks[0];
  CHECK(a.blocks[1].offset == L.at("second"));
  // `second` is another block's head, `_PLgearPos` and do_start_interp are trampolines.
  CHECK(first.pointers == std::vector<uint32_t>{L.at("sub0"), L.at("sub2"), L.at("arm")});
  REQUIRE(first.governing.size() == 3);
  CHECK_FALSE(first.governing[0]);  // before any compare: not gated
  CHECK(first.governing[1] == guard("_PLgearDown", 1));
  CHECK(first.governing[2] == guard("_PLgearDown", 1));
  CHECK(*first.input == "_PLgearDown");
  CHECK(a.inputs.at("_PLgearPos").empty());  // `mov ebx, stub` reads it without a compare
  CHECK(a.blocks[1].pointers == std::vector<uint32_t>{L.at("join")});
  const ArticulationCase* c = find_case(a, "_PLgearDown", 1);
  REQUIRE(c);
  // The case lists what the jne skips (sub2 and the arm); the join after the skip target is
  // reached on every path, although the seed's carry rule tags it too.
  CHECK(c->substreams == std::vector<uint32_t>{L.at("arm"), L.at("sub2")});
  CHECK(a.cases.size() == 1);
  CHECK(a.blocks[1].governing[0] == guard("_PLgearDown", 1));
  CHECK_FALSE(a.blocks[1].selection[0]);
  CHECK(first.selection[1] == guard("_PLgearDown", 1));
  CHECK_FALSE(first.selection[0]);
}

TEST_CASE("FA-21: a function call's return address is not a sub-stream") {
  auto b = build_shape(with_header(R"(
    X86Code
    x86 66 83 3d {_PLgearDown} 05
    x86 76 0b
    x86 68 {msg} 68 {_ErrorExit} c3
msg:
    SourceName "bad value"
    ShortEOF
    EndObject
    .stub _PLgearDown
    .stub _ErrorExit
)",
                                   ".import _PLgearDown\n.import _ErrorExit\n"));
  WalkResult walk = walk_shape(b.shape);
  ArticulationAnalysis a = analyze_articulations(b.shape, walk);
  REQUIRE(a.blocks.size() == 1);
  CHECK(a.blocks[0].pointers.empty());
  CHECK(a.inputs.at("_PLgearDown") == std::set<int64_t>{5});
  REQUIRE(a.cases.size() == 1);
  CHECK(a.cases[0].substreams.empty());
}

TEST_CASE("FA-22: the last compare carries across abutting blocks and resets after geometry") {
  auto b = build_shape(with_header(R"(
    X86Code
    x86 66 83 3d {_PLgearDown} 01
    x86 75 11
    x86 68 {arm0} 68 {do_start_interp} c3
arm0:
    Unmask @g0
    X86Code
    x86 68 {arm1} 68 {do_start_interp} c3
arm1:
    Unmask @g1
    Unmask @g1b
    X86Code
    x86 68 {join0} 68 {do_start_interp} c3
join0:
    VertexBuffer at=0
        v 0, 0, 0
        v 10, 0, 0
        v 0, 10, 0
    Face content=0x00 layout=0x00 color=0x10 shadow=0 idx=0,1,2
    X86Code
    x86 68 {arm3} 68 {do_start_interp} c3
arm3:
    Unmask @g3
    X86Code
    x86 80 3d {_PLbrake} 00
    x86 74 11
    x86 68 {arm4} 68 {do_start_interp} c3
arm4:
    Unmask @g4
    X86Code
    x86 68 {join1} 68 {do_start_interp} c3
join1:
    ShortEOF
g0:
    ShortEOF
g1:
    ShortEOF
g1b:
    ShortEOF
g3:
    ShortEOF
g4:
    ShortEOF
    EndObject
    .stub _PLgearDown
    .stub _PLbrake
    .stub do_start_interp
)",
                                   ".import _PLgearDown\n.import _PLbrake\n"
                                   ".import do_start_interp\n"));
  const auto& L = b.assembled.labels;
  WalkResult walk = walk_shape(b.shape);
  REQUIRE(walk.diagnostics.empty());
  ArticulationAnalysis a = analyze_articulations(b.shape, walk);
  REQUIRE(a.blocks.size() == 6);
  std::vector<uint32_t> runs;
  for (const auto& blk : a.blocks) runs.push_back(blk.run);
  CHECK(runs == std::vector<uint32_t>{0, 0, 0, 1, 1, 1});
  // Each block's range ends where the next begins, except across the geometry.
  CHECK(a.blocks[0].range_end == a.blocks[1].offset);
  CHECK(a.blocks[1].range_end == a.blocks[2].offset);  // over two Unmask calls
  CHECK(a.blocks[2].range_end == L.at("join0"));
  CHECK(a.blocks[2].range_end < a.blocks[3].offset);

  // Trailing no-compare blocks of the first run inherit _PLgearDown == 1.
  CHECK(a.blocks[1].governing ==
        std::vector<std::optional<ArticulationGuard>>{guard("_PLgearDown", 1)});
  CHECK(a.blocks[2].governing ==
        std::vector<std::optional<ArticulationGuard>>{guard("_PLgearDown", 1)});
  // After the geometry the state resets: the no-compare block 3 is not gated.
  REQUIRE(a.blocks[3].governing.size() == 1);
  CHECK_FALSE(a.blocks[3].governing[0]);
  CHECK(a.blocks[5].governing ==
        std::vector<std::optional<ArticulationGuard>>{guard("_PLbrake", 0, GuardRelation::kNe, 8)});
  // Selection follows the jumps: each jcc skips only its own block's re-entry, so the carried
  // blocks (arm1, join0, join1) are reached for every value.
  CHECK(a.blocks[0].selection[0] == guard("_PLgearDown", 1));
  CHECK_FALSE(a.blocks[1].selection[0]);
  CHECK_FALSE(a.blocks[2].selection[0]);
  CHECK(a.blocks[4].selection[0] == guard("_PLbrake", 0, GuardRelation::kNe, 8));
  CHECK_FALSE(a.blocks[5].selection[0]);

  const ArticulationCase* gear = find_case(a, "_PLgearDown", 1);
  REQUIRE(gear);
  CHECK(gear->substreams == std::vector<uint32_t>{L.at("arm0")});
  const ArticulationCase* brake = find_case(a, "_PLbrake", 0);
  REQUIRE(brake);
  CHECK(brake->substreams == std::vector<uint32_t>{L.at("arm4")});
  CHECK(brake->relation == GuardRelation::kNe);
  CHECK(a.cases.size() == 2);
  for (const auto& c : a.cases)
    CHECK(std::find(c.substreams.begin(), c.substreams.end(), L.at("arm3")) == c.substreams.end());
}

TEST_CASE("FA-22: a jump arm keeps the run and an arm not entered by the block breaks it") {
  auto b = build_shape(with_header(R"(
    X86Code
    x86 66 83 3d {_PLhook} 00
    x86 74 10
    x86 68 {arm0} 68 {do_start_interp} c3
arm0:
    Jump @g0
    X86Code
    x86 68 {arm1} 68 {do_start_interp} c3
arm1:
    ShortJump @after
other:
    Unmask @g0
    X86Code
    x86 68 {after} 68 {do_start_interp} c3
after:
    ShortEOF
g0:
    ShortEOF
    EndObject
    .stub _PLhook
    .stub do_start_interp
)",
                                   ".import _PLhook\n.import do_start_interp\n"));
  WalkResult walk = walk_shape(b.shape);
  ArticulationAnalysis a = analyze_articulations(b.shape, walk);
  REQUIRE(a.blocks.size() == 3);
  CHECK(a.blocks[0].run == 0);
  CHECK(a.blocks[1].run == 0);  // the arm is one Jump entered by block 0's pointer
  CHECK(a.blocks[1].range_end == b.assembled.labels.at("other"));
  CHECK(a.blocks[2].run == 1);  // `other: Unmask` is not entered by block 1 (ShortJump leaves)
  REQUIRE(a.blocks[2].governing.size() == 1);
  CHECK_FALSE(a.blocks[2].governing[0]);
}

TEST_CASE("FA-20/FA-21/FA-22: the jet example's gear run and its flaps and afterburner run") {
  const std::string path = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
  Shape shape = fa::load_shape_spec(path);
  std::ifstream src(SHAPEVM_SOURCE_DIR "/examples/fa/jet.fas");
  REQUIRE(src);
  const std::string text((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  const auto labels = fa::assemble_fa(text, "jet.fas").labels;
  WalkResult walk = walk_shape(shape);
  ArticulationAnalysis a = analyze_articulations(shape, walk);
  REQUIRE(a.blocks.size() == 5);
  CHECK(a.blocks[2].run == a.blocks[3].run);  // flaps and afterburner abut: one run
  CHECK(a.blocks[3].run == a.blocks[4].run);
  CHECK(a.blocks[1].run != a.blocks[2].run);  // the UnkB8 between gear and flaps breaks it
  CHECK(a.blocks[2].selection[0] == guard("_PLleftFlap", 0, GuardRelation::kLt, 32));
  CHECK(a.blocks[3].selection[0] == guard("_PLafterBurner", 0, GuardRelation::kNe, 8));
  CHECK_FALSE(a.blocks[4].selection[0]);
  CHECK(a.blocks[0].input == std::optional<std::string>("_PLgearDown"));
  CHECK(a.blocks[0].compare_values == std::vector<int64_t>{1});
  CHECK_FALSE(a.blocks[1].input);
  CHECK(a.blocks[0].range_end == a.blocks[1].offset);
  CHECK(a.blocks[0].run == a.blocks[1].run);
  CHECK(a.blocks[0].pointers == std::vector<uint32_t>{labels.at("gear_arm")});
  CHECK(a.blocks[1].pointers == std::vector<uint32_t>{labels.at("after_gear")});
  CHECK(a.inputs == std::map<std::string, std::set<int64_t>>{
                        {"_PLafterBurner", {0}}, {"_PLgearDown", {1}}, {"_PLleftFlap", {0}}});
  REQUIRE(a.cases.size() == 3);
  CHECK(a.cases_of("_PLgearDown").at(0)->substreams ==
        std::vector<uint32_t>{labels.at("gear_arm")});

  // The info report and the listing carry the same facts.
  ShapeInfo info = analyze_shape(shape, walk);
  const std::string report = shape_info_text(shape, walk, info);
  CHECK(report.find(fmt::format("_PLgearDown: values 1 (selects 0x{:04x}); distinct states at 0, 1",
                                labels.at("gear_arm"))) != std::string::npos);
  CHECK(report.find(fmt::format("_PLleftFlap: values 0 (selects 0x{:04x} when < 0); distinct "
                                "states at -1, 0",
                                labels.at("flap_arm"))) != std::string::npos);
  const auto json = shape_info_json(shape, walk, info);
  CHECK(json["articulations"]["_PLgearDown"][0]["value"] == 1);
  CHECK(json["articulations"]["_PLgearDown"][0]["substreams"].size() == 1);
  CHECK(json["articulations"]["_PLafterBurner"][0]["relation"] == "!=");
  CHECK(json["articulation_values"]["_PLafterBurner"] == nlohmann::json::array({0, 1}));
  const std::string listing = render_listing_text(shape, make_listing(shape, walk));
  CHECK(listing.find(fmt::format("reads _PLgearDown cmp 1, → 0x{:04x}", labels.at("gear_arm"))) !=
        std::string::npos);
  CHECK(listing.find(fmt::format("→ 0x{:04x} (every path; the seed's rule carries _PLgearDown = 1)",
                                 labels.at("after_gear"))) != std::string::npos);
}

TEST_CASE("FA-20/FA-21/FA-22: generated selector chains over 200 shapes") {
  constexpr uint64_t kSeed = 20240601;
  int with_x86 = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    INFO("shape " << i);
    const auto assembled =
        fa::assemble_fa(fa::generate_fa_shape(kSeed, i, fa::GeneratorProfile::kStress), "gen.fas");
    const Shape shape = load_shape(assembled.file, "gen.SH");
    const WalkResult walk = walk_shape(shape);
    const ArticulationAnalysis a = analyze_articulations(shape, walk);
    std::set<std::string> data_imports;
    for (const auto& imp : shape.image.imports)
      if (!imp.is_function) data_imports.insert(imp.name);
    if (a.blocks.empty()) continue;
    ++with_x86;
    for (size_t k = 0; k < a.blocks.size(); ++k) {
      const X86Block& blk = a.blocks[k];
      for (const auto& rd : blk.reads) CHECK(data_imports.count(rd.input) == 1);
      if (!blk.compare_values.empty()) {
        REQUIRE(blk.input);
        CHECK(data_imports.count(*blk.input) == 1);
      }
      // The generator's chain: one guard per block but the last, all abutting.
      CHECK(blk.run == 0);
      CHECK(blk.compare_values.size() == (k + 1 < a.blocks.size() ? 1u : 0u));
      CHECK(blk.pointers.size() == 1);
      CHECK(blk.governing.size() == blk.pointers.size());
      for (const auto& g : blk.governing) CHECK(g.has_value());
    }
    for (const auto& c : a.cases) {
      CHECK(data_imports.count(c.input) == 1);
      for (uint32_t s : c.substreams) CHECK(walk.is_reloc_target(s));
    }
    for (const auto& [input, values] : a.inputs) CHECK(data_imports.count(input) == 1);
  }
  CHECK(with_x86 > 20);
}

}  // namespace fa_articulation_tests
