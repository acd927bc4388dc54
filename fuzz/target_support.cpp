#include "fuzz/target_support.h"

#include <cstdio>

#include "core/input_error.h"
#include "harness/program_frame.h"
#include "harness/trace_writer.h"
#include "interp/common/json_text.h"

namespace shapevm::fuzzing {
namespace {

// Steps enough for every generated and bundled example, few enough that a looping input ends in
// milliseconds.
constexpr const char* kFuzzMaxSteps = "20000";

bool has_option(const Program& program, std::string_view name) {
  for (const auto& knob : program.knobs())
    if (knob.option && knob.name == name) return true;
  return false;
}

std::FILE* discard() {
  static std::FILE* sink = std::fopen("/dev/null", "w");
  return sink;
}

}  // namespace

EngineInput input_of(std::span<const uint8_t> bytes, std::optional<std::string> member) {
  EngineInput input;
  input.spec = input.path = kFuzzSource;
  input.member = std::move(member);
  input.bytes = std::vector<uint8_t>(bytes.begin(), bytes.end());
  return input;
}

// JSON goes through dump_json, as every command prints it: names are bytes, and a byte above 0x7F
// is not UTF-8 (interp/common/json_text.h).
void describe(const Program& program) {
  (void)program.summary();
  (void)program.info_text();
  (void)dump_json(program.info_json(), 1);
  (void)program.listing_text();
  try {
    (void)dump_json(program.listing_json(), 1);
  } catch (const InputError&) {
    // An engine without a JSON listing says so with InputError; the rest still runs.
  }
  (void)program.listing_lines();
  (void)program.static_errors();
}

void run_small(Program& program, bool trace, std::span<const std::string> sets,
               std::span<const std::pair<std::string, std::string>> options) {
  if (!program.runnable()) return;
  StateRequest state;
  state.width = 64;
  state.height = 48;
  if (has_option(program, "max-steps")) state.set_option("max-steps", kFuzzMaxSteps);
  for (const auto& [name, value] : options)
    if (has_option(program, name)) state.set_option(name, value);
  const auto knobs = program.knobs();
  for (const auto& set : sets) {
    const auto eq = set.find('=');
    if (eq != std::string::npos && find_set_knob(knobs, set.substr(0, eq)) != nullptr)
      state.sets.push_back(set);
  }
  (void)dump_json(program.state_json(state));
  (void)harness::render_program(program, state, program.example_background());
  if (!trace) {
    // The same program's later runs take what earlier ones kept: Apache keeps the instructions
    // of its second run and, from the third, skips checks its kept packets passed; FA reuses its
    // pre-decoded code and answers guard blocks from the memo. Those paths are reached only by
    // running again.
    (void)harness::render_program(program, state, program.example_background());
    (void)harness::render_program(program, state, program.example_background());
  }
  if (trace && discard() != nullptr) {
    harness::TraceWriter writer(discard());
    writer.start(program.engine(), program.source(),
                 dump_json(program.state_json(state), -1, /*ascii=*/true));
    (void)program.run(state, writer);
  }
}

void open_describe_run(const Engine& engine, std::span<const uint8_t> bytes, uint8_t selector,
                       bool run) {
  EngineInput input = input_of(bytes);
  if (engine.is_container(input.bytes)) {
    const auto members = engine.members(input);
    for (size_t i = 0; i < members.size() && i < 4; ++i) {
      try {
        engine.check_extractable(input, members[i]);
        (void)engine.extract(input, members[i]);
      } catch (const InputError&) {
        // One bad member; the others are still read.
      }
    }
    (void)engine.container_notes(input);
    if (members.empty()) return;
    const MemberInfo& picked = members[selector % members.size()];
    input.member = picked.name.empty() ? "#" + std::to_string(picked.index) : picked.name;
  }
  auto program = engine.open(input, OpenOptions{});
  describe(*program);
  if (run) run_small(*program, (selector & 0x80) != 0);
}

}  // namespace shapevm::fuzzing
