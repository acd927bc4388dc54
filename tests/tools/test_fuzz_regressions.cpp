// Inputs the fuzzer once broke shapevm on (tests/fuzz_regressions/ENGINE-WHAT.bin), replayed
// through what the fuzz target does with them (fuzz/exercise.h): each must now end in success or
// the engine's bad-input error. A hang here is caught by ctest's timeout.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "fuzz/exercise.h"
#include "interp/common/registry.h"

using namespace shapevm;

TEST_CASE("fuzz regressions: every input the fuzzer broke on ends in success or InputError") {
  const std::filesystem::path dir = SHAPEVM_SOURCE_DIR "/tests/fuzz_regressions";
  std::vector<std::filesystem::path> inputs;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".bin") inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(!inputs.empty());
  for (const auto& path : inputs) {
    const std::string stem = path.stem().string();
    const std::string engine_name = stem.substr(0, stem.find('-'));
    CAPTURE(stem);
    const Engine* engine = find_engine(engine_name);
    REQUIRE_MESSAGE(engine != nullptr, "the file name must start with an engine's name");
    EngineInput input;
    input.spec = input.path = path.string();
    input.bytes = read_file(path);
    try {
      fuzzing::exercise(*engine, input);
    } catch (const InputError&) {
      // bad input, reported: fine
    }
  }
}
