// Seed inputs for every fuzz target, made from the project's own examples (assembled from their
// text in examples/), its generators and its writers: valid files, so the fuzzer starts from deep
// inside each reader. `fuzz_seeds DIR` writes them as DIR/TARGET/NAME (fuzz/CMakeLists.txt runs it
// at build time); the replay test runs every one through its target.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace shapevm::fuzzing {

struct SeedInput {
  std::string target;  // a FuzzTarget name
  std::string name;    // a file name, unique within the target
  std::vector<uint8_t> bytes;
};

// `source_dir` is the repository root (examples/ and tests/golden/ are read from it).
std::vector<SeedInput> seed_inputs(const std::filesystem::path& source_dir);

}  // namespace shapevm::fuzzing
