// `fuzz_seeds OUT_DIR`: writes every fuzz target's seed inputs (fuzz/seed_corpus.h) as
// OUT_DIR/TARGET/NAME, for libFuzzer to start from.
#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <map>

#include "core/file_io.h"
#include "fuzz/seed_corpus.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: fuzz_seeds OUT_DIR\n");
    return 2;
  }
  try {
    const std::filesystem::path out = argv[1];
    std::map<std::string, int> per_target;
    for (const auto& seed : shapevm::fuzzing::seed_inputs(SHAPEVM_SOURCE_DIR)) {
      std::filesystem::create_directories(out / seed.target);
      shapevm::write_file_atomic(out / seed.target / seed.name, seed.bytes,
                                 shapevm::Overwrite::kAllow);
      ++per_target[seed.target];
    }
    for (const auto& [target, n] : per_target) fmt::print("{:18} {} seeds\n", target, n);
  } catch (const std::exception& e) {
    fmt::print(stderr, "fuzz_seeds: {}\n", e.what());
    return 2;
  }
  return 0;
}
