// The fuzz targets: one per reader and interpreter (docs/robustness.md lists them with what each
// feeds). Each takes any bytes and must end in success or the project's own bad-input error
// (InputError, caught inside); anything else escaping, a sanitizer report, a hang or a runaway
// allocation is a finding. The same functions run under libFuzzer (fuzz/fuzz_main.cpp, clang,
// -DSHAPEVM_FUZZ=ON) and in the test that replays the committed corpora and every past finding
// (tests/tools/test_fuzz_replay.cpp), so a fixed bug stays fixed in the ordinary build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace shapevm::fuzzing {

struct FuzzTarget {
  std::string_view name;   // fuzz_NAME is the libFuzzer program; corpora live in NAME/ folders
  std::string_view feeds;  // one line: what the bytes are read as
  // Runs one input. Returns true when it was accepted, false when it ended in InputError.
  bool (*run)(std::span<const uint8_t> data);
};

// Every target, in a fixed order.
std::span<const FuzzTarget> fuzz_targets();
// nullptr when there is none of that name.
const FuzzTarget* find_fuzz_target(std::string_view name);

}  // namespace shapevm::fuzzing
