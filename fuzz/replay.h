// Replaying inputs through the fuzz targets without libFuzzer: a corpus folder holding one
// sub-folder per target (TARGET/FILE, as libFuzzer and fuzz_seeds write them), and a folder of
// past findings named TARGET-WHAT.bin. Used by `fuzz_replay` (run it from the sanitizer build)
// and by the ordinary test suite.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace shapevm::fuzzing {

struct ReplayReport {
  std::map<std::string, size_t> inputs;    // per target
  std::map<std::string, size_t> accepted;  // per target: ended without InputError
  std::vector<std::string> problems;       // "FILE: what": an unknown target, an escaped exception
};

// Every TARGET/FILE under `root` (a missing root is a problem).
void replay_corpus(const std::filesystem::path& root, ReplayReport& report);
// Every TARGET-WHAT.bin directly in `folder`.
void replay_findings(const std::filesystem::path& folder, ReplayReport& report);

}  // namespace shapevm::fuzzing
