// What the fuzz target does with one input for one engine, shared with the regression test
// that replays the inputs the fuzzer once broke on (tests/fuzz_regressions/): a container lists
// its members and extracts the first few; a program is described (info, listing) and run once
// under small budgets. Bad input ends in InputError; anything else escaping is a bug.
#pragma once

#include "interp/common/engine.h"

namespace shapevm::fuzzing {

// Counts what a run emits, so the interpreter builds every event a trace would.
class CountingSink : public EventSink {
 public:
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent&) override { ++events; }
  void on_face(const FaceEvent& e) override { events += e.corners.size(); }
  size_t events = 0;
};

inline void exercise(const Engine& engine, const EngineInput& input) {
  if (engine.is_container(input.bytes)) {
    const auto members = engine.members(input);
    for (size_t i = 0; i < members.size() && i < 4; ++i) {
      engine.check_extractable(input, members[i]);
      (void)engine.extract(input, members[i]);
    }
    return;
  }
  auto program = engine.open(input, OpenOptions{});
  (void)program->info_text();
  (void)program->info_json();
  (void)program->listing_text();
  (void)program->static_errors();
  if (!program->runnable()) return;
  StateRequest state;
  state.width = 64;
  state.height = 48;
  for (const auto& knob : program->knobs())
    if (knob.option && knob.name == "max-steps") state.set_option("max-steps", "20000");
  CountingSink sink;
  (void)program->run(state, sink);
}

}  // namespace shapevm::fuzzing
