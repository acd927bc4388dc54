// libFuzzer target: every registered engine's readers, on any bytes (fuzz/exercise.h). The first
// byte picks the engine (as `--engine NAME` would, so an engine must cope with bytes it does not
// recognise); the rest is the file. A crash, a sanitizer report, a hang or an exception other
// than InputError is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/input_error.h"
#include "fuzz/exercise.h"
#include "interp/common/engine.h"
#include "interp/common/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto& engines = shapevm::engines();
  if (size < 1 || engines.empty()) return 0;
  const auto& engine = *engines[data[0] % engines.size()];
  shapevm::EngineInput input;
  input.spec = input.path = "fuzz-input";
  input.bytes.assign(data + 1, data + size);
  try {
    shapevm::fuzzing::exercise(engine, input);
  } catch (const shapevm::InputError&) {
    // Bad input, reported precisely: the expected outcome for most inputs.
  }
  return 0;
}
