// libFuzzer target: every registered engine's readers, on any bytes. The first byte picks the
// engine (as `--engine NAME` would, so an engine must cope with bytes it does not recognise);
// the rest is the file. A container lists its members and extracts the first few; a program is
// described (info, listing) and run once under small budgets. Bad input must end in InputError;
// anything else (a crash, a sanitizer report, another exception) is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/input_error.h"
#include "interp/common/engine.h"
#include "interp/common/registry.h"

namespace {

// Counts what a run emits, so the interpreter builds every event a trace would.
class CountingSink : public shapevm::EventSink {
 public:
  bool wants_ops() const override { return true; }
  void on_op(const shapevm::OpEvent&) override { ++events; }
  void on_face(const shapevm::FaceEvent& e) override { events += e.corners.size(); }
  size_t events = 0;
};

void exercise(const shapevm::Engine& engine, const shapevm::EngineInput& input) {
  if (engine.is_container(input.bytes)) {
    const auto members = engine.members(input);
    for (size_t i = 0; i < members.size() && i < 4; ++i) {
      engine.check_extractable(input, members[i]);
      (void)engine.extract(input, members[i]);
    }
    return;
  }
  auto program = engine.open(input, shapevm::OpenOptions{});
  (void)program->info_text();
  (void)program->info_json();
  (void)program->listing_text();
  (void)program->static_errors();
  if (!program->runnable()) return;
  shapevm::StateRequest state;
  state.width = 64;
  state.height = 48;
  for (const auto& knob : program->knobs())
    if (knob.option && knob.name == "max-steps") state.set_option("max-steps", "20000");
  CountingSink sink;
  (void)program->run(state, sink);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto& engines = shapevm::engines();
  if (size < 1 || engines.empty()) return 0;
  const auto& engine = *engines[data[0] % engines.size()];
  shapevm::EngineInput input;
  input.spec = input.path = "fuzz-input";
  input.bytes.assign(data + 1, data + size);
  try {
    exercise(engine, input);
  } catch (const shapevm::InputError&) {
    // Bad input, reported precisely: the expected outcome for most inputs.
  }
  return 0;
}
