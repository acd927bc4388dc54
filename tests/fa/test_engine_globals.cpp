// The address table of the original executable (interp/fa/engine_globals.h) and what uses it:
// --set takes a global's address for its name (FA-45, FA-46: the same branches), the trace's
// start line and branch events carry the address beside the name, and the debugger shows it and
// reads a global by it. The addresses are the ones the seed's Engine Notes and the LOD, damage
// and animation sections give.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/debugger.h"
#include "harness/program_debug_engine.h"
#include "harness/trace_writer.h"
#include "interp/common/registry.h"
#include "interp/fa/engine_globals.h"
#include "interp/fa/opcodes.h"
#include "interp/fa/run_state.h"
#include "tests/fa/trace_text.h"
#include "tests/support/program_helpers.h"
#include "tests/tools/run_cli.h"

namespace fa_engine_globals_tests {

using namespace shapevm;

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

// The JSON Lines trace of the jet for `sets`, without op lines, as `shapevm trace --no-ops`
// writes it.
std::string trace_of(const std::vector<std::string>& sets) {
  const StateRequest state = testing::state_with({}, sets);
  auto program = open_program(kJet, {});
  validate_state(*program, state);
  return testing::written_trace(
      [&](harness::TraceWriter& writer) {
        writer.start(program->engine(), program->source(), program->state_json(state).dump());
        program->run(state, writer, nullptr);
      },
      /*ops=*/false);
}

std::string read_text(const std::filesystem::path& path) {
  const auto bytes = read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

std::string error_of(const std::vector<std::string>& sets) {
  try {
    const StateRequest state = testing::state_with({}, sets);
    auto program = open_program(kJet, {});
    validate_state(*program, state);
    (void)program->state_json(state);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("engine globals: the table holds the executable's addresses, handlers via the opcodes") {
  const std::pair<const char*, uint32_t> expected[] = {
      {"_frameCounter", 0x4EB738},
      {"_destroyed", 0x50C39C},
      {"_detail", 0x515EEE},
      {"_effects", 0x515EF0},
      {"xv", 0x51CDAA},
      {"yv", 0x51CDAC},
      {"zv", 0x51CDAE},
      {"m3", 0x515F48},
      {"m6", 0x515F4E},
      {"m9", 0x515F54},
      {"aspecty", 0x51837C},
      {"scrh", 0x5182F4},
      {"sizeAdjust", 0x51D125},
      {"do_start_interp", 0x4D4240},
      {"GRAddBrentObj", 0x4D057C},
      {"FlyingLoop", 0x404C70},
      {"ShapeSetup", 0x4AB450},
      {"vector_table", 0x5183A0},
  };
  for (const auto& [name, address] : expected) {
    CAPTURE(name);
    const auto e = fa::find_engine_address(name);
    REQUIRE(e.has_value());
    CHECK(e->address == address);
    const auto back = fa::engine_address_at(address);
    REQUIRE(back.has_value());
    CHECK(back->name == name);
  }
  CHECK(fa::engine_addresses().size() == std::size(expected));
  // Handlers come from the opcode table: by symbol, and by address (a symbol-less handler is
  // named by its mnemonic).
  CHECK(fa::find_engine_address("do_jumpfar4")->address == 0x4D416C);
  CHECK(fa::engine_address_at(0x4D416C)->kind == fa::EngineAddressKind::kHandler);
  CHECK(fa::engine_address_at(0x4D30E5)->name == "Jump");
  CHECK(fa::engine_address_at(0x4D2318)->name == "JumpToDetail");
  CHECK_FALSE(fa::engine_address_at(0x515EEF).has_value());
  CHECK_FALSE(fa::find_engine_address("_Detail").has_value());
  // Names and addresses as a user writes them.
  CHECK(fa::find_engine_address_or_name("0x515eee")->name == "_detail");
  CHECK(fa::find_engine_address_or_name("515EEEh")->name == "_detail");
  CHECK(fa::find_engine_address_or_name("_detail")->address == 0x515EEE);
  CHECK(fa::format_engine_address(0x515EEE) == "0x515EEE");
}

TEST_CASE("FA-45: --set 0x515EEE=1 is --set _detail=1 (the same JumpToDetail branch)") {
  const std::string by_address = trace_of({"0x515EEE=1"});
  const std::string by_h = trace_of({"515EEEh=1"});
  const std::string by_name = trace_of({"_detail=1"});
  CHECK(by_address == by_name);
  CHECK(by_h == by_name);
  // And it is not the default: the jet's JumpToDetail threshold is 1, so _detail = 0 branches.
  CHECK(trace_of({"0x515EEE=0"}) != by_name);
  CHECK(trace_of({"0x515EEE=0"}) == trace_of({"_detail=0"}));
  fa::RunState a, b;
  fa::apply_set(a, "0x515EEE=7");
  fa::apply_set(b, "_detail=7");
  CHECK(a.detail == 7);
  CHECK(a.imports.empty());  // not taken for an import named "0x515EEE"
}

TEST_CASE("FA-46: --set 0x515EF0=0x20000 is _effects (JumpToLOD draws its block)") {
  fa::RunState s;
  fa::apply_set(s, "0x515EF0=0x20000");
  CHECK(s.effects == 0x20000);
  // Far away the jet would take a coarser LOD; the effects flag keeps the finest, by either name.
  CHECK(trace_of({"0x515EF0=0x20000", "scrh=10"}) == trace_of({"_effects=0x20000", "scrh=10"}));
  CHECK(trace_of({"0x5182F4=10"}) == trace_of({"scrh=10"}));
  CHECK(trace_of({"0x515EF0=0x20000", "scrh=10"}) != trace_of({"scrh=10"}));
}

TEST_CASE("engine globals: --set by an address that is no settable global is a precise error") {
  const std::string unknown = error_of({"0x515EEF=1"});
  CHECK(unknown.find("--set 0x515EEF=1: ") == 0);
  CHECK(unknown.find("knows no --set global at 0x515EEF; addresses it knows: 0x4EB738 "
                     "_frameCounter, 0x515EEE _detail") != std::string::npos);
  // xv is a global the camera sets: validation lists what --set takes, apply_set says why.
  CHECK(error_of({"0x51CDAA=1"}).find("knows no --set global at 0x51CDAA") != std::string::npos);
  fa::RunState s;
  try {
    fa::apply_set(s, "0x51CDAA=1");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "--set 0x51CDAA=1: 0x51CDAA is xv, which the camera sets (--camera), not --set");
  }
  CHECK_THROWS_AS(fa::apply_set(s, "0x4D4240=1"), InputError);  // a routine, not a global
}

TEST_CASE("FA-45/FA-31/FA-43: trace lines carry each global's address beside its name") {
  const std::string text = trace_of({"_detail=0", "_frameCounter=5"});
  const std::string start = text.substr(0, text.find('\n'));
  CHECK(start.find(R"("globals":{)") != std::string::npos);
  CHECK(start.find(R"("_detail":{"addr":"0x515EEE","value":0})") != std::string::npos);
  CHECK(start.find(R"("_frameCounter":{"addr":"0x4EB738","value":5})") != std::string::npos);
  CHECK(start.find(R"("_destroyed":{"addr":"0x50C39C","value":0})") != std::string::npos);
  CHECK(start.find(R"("m9":{"addr":"0x515F54",)") != std::string::npos);
  CHECK(start.find(R"("xv":{"addr":"0x51CDAA",)") != std::string::npos);
  CHECK(start.find(R"("sizeAdjust":{"addr":"0x51D125","value":256})") != std::string::npos);
  // The branches that read a global name it and its address.
  CHECK(text.find(R"("kind":"detail","taken":true,)") != std::string::npos);
  CHECK(text.find(R"(,"value":0,"limit":1,"global":"_detail","addr":"0x515EEE"})") !=
        std::string::npos);
  CHECK(text.find(R"("kind":"frame")") == std::string::npos);  // the detail branch skips it
  const std::string full = trace_of({"_frameCounter=5"});
  CHECK(full.find(R"(,"value":1,"limit":4,"global":"_frameCounter","addr":"0x4EB738"})") !=
        std::string::npos);  // 5 mod 4
  // A plain jump reads no global.
  CHECK(full.find(R"("kind":"jump","taken":true,)") != std::string::npos);
  const auto jump = full.find(R"("kind":"jump")");
  CHECK(full.substr(jump, full.find('\n', jump) - jump).find("global") == std::string::npos);
}

TEST_CASE("engine globals: the debugger shows each global's address and reads it by address") {
  harness::ProgramDebugEngine engine(open_program(kJet, {}),
                                     testing::state_with({}, {"0x515EEE=3"}));
  harness::Debugger d(engine);
  d.restart();
  const auto& globals = d.current().globals;
  const auto detail = std::find_if(globals.begin(), globals.end(),
                                   [](const DebugValue& g) { return g.name == "_detail"; });
  REQUIRE(detail != globals.end());
  CHECK(detail->value == 3);
  CHECK(detail->address == 0x515EEE);
  const auto health = std::find_if(globals.begin(), globals.end(),
                                   [](const DebugValue& g) { return g.name == "health"; });
  REQUIRE(health != globals.end());
  CHECK_FALSE(health->address.has_value());
  CHECK(harness::snapshot_value(d.current(), "0x515EEE") == 3);
  CHECK(harness::snapshot_value(d.current(), "0x4EB738") == 0);
  CHECK_FALSE(harness::snapshot_value(d.current(), "0x515EEF").has_value());
  // Every global of the table is there with its address.
  for (const auto& e : fa::engine_addresses()) {
    if (e.kind != fa::EngineAddressKind::kGlobal) continue;
    CAPTURE(e.name);
    CHECK(std::any_of(globals.begin(), globals.end(), [&](const DebugValue& g) {
      return g.name == e.name && g.address == e.address;
    }));
  }
}

TEST_CASE("engine globals: trace-diff matches a reference that names globals by address (CLI)") {
  ScratchDir dir;
  const auto q = [&](const std::string& name) { return shell_quote((dir / name).string()); };
  REQUIRE(
      run_cli("trace " + shell_quote(kJet) + " --set 0x515EEE=0 -o " + q("ours.jsonl")).exit_code ==
      0);
  REQUIRE(
      run_cli("trace " + shell_quote(kJet) + " --set _detail=0 -o " + q("named.jsonl")).exit_code ==
      0);
  CHECK(run_cli("trace-diff " + q("ours.jsonl") + " " + q("named.jsonl")).exit_code == 0);
  // A reference in the original's terms: every global by its address only. Made from our own
  // trace by replacing each name with its address and dropping the "addr" beside it.
  const auto made = run_command(
      "sed -E -e 's/\"([_a-zA-Z0-9]+)\":\\{\"addr\":\"(0x[0-9A-F]+)\",/\"\\2\":{/g' "
      "-e 's/\"global\":\"[_a-zA-Z0-9]+\",\"addr\":\"(0x[0-9A-F]+)\"/\"global\":\"\\1\"/g' " +
      q("ours.jsonl") + " > " + q("ref.jsonl"));
  REQUIRE(made.exit_code == 0);
  const std::string ref = read_text(dir / "ref.jsonl");
  REQUIRE(ref.find("\"0x515EEE\":{\"value\":0}") != std::string::npos);
  REQUIRE(ref.find("\"global\":\"0x515EEE\"}") != std::string::npos);
  REQUIRE(ref.find("_detail") == std::string::npos);
  const auto same = run_cli("trace-diff " + q("ours.jsonl") + " " + q("ref.jsonl"));
  INFO(same.out);
  CHECK(same.exit_code == 0);
  CHECK(same.out.find("traces match: ") == 0);
  // The original ran at _detail = 1: the start state and the detail branch differ, by name.
  write_text_atomic(dir / "plain.txt", "0x515EEE=1\n0x4EB738=0\n14 0x4D2318\n");
  const auto plain = run_cli("trace-diff " + q("ours.jsonl") + " " + q("plain.txt"));
  CHECK(plain.exit_code == 1);
  CHECK(plain.out.find("the runs start in different states:\n  _detail (0x515EEE): 0 vs 1\n") == 0);
  const auto detail1 = run_command(
      "sed -e 's/\"0x515EEE\":{\"value\":0}/\"0x515EEE\":{\"value\":1}/' "
      "-e 's/\"taken\":true,\\(.*\"global\":\"0x515EEE\"\\)/\"taken\":false,\\1/' " +
      q("ref.jsonl") + " > " + q("ref1.jsonl"));
  REQUIRE(detail1.exit_code == 0);
  const auto d = run_cli("trace-diff " + q("ours.jsonl") + " " + q("ref1.jsonl"));
  CHECK(d.exit_code == 1);
  CHECK(d.out.find("_detail (0x515EEE): 0 vs 1") != std::string::npos);
  CHECK(d.out.find("\"taken\": true vs false") != std::string::npos);
}

}  // namespace fa_engine_globals_tests
