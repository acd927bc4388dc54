// `fuzz_replay [--findings DIR] CORPUS_ROOT...`: every input of the corpora (ROOT/TARGET/FILE)
// and of the findings folder (TARGET-WHAT.bin) through its fuzz target, once, without libFuzzer.
// Exit 0 when each ended in acceptance or the project's bad-input error, 1 otherwise (listed);
// built with the sanitizers, a memory or UB error aborts it.
#include <fmt/format.h>

#include <string>

#include "fuzz/replay.h"

int main(int argc, char** argv) {
  shapevm::fuzzing::ReplayReport report;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--findings" && i + 1 < argc) {
      shapevm::fuzzing::replay_findings(argv[++i], report);
    } else {
      shapevm::fuzzing::replay_corpus(arg, report);
    }
  }
  size_t total = 0;
  for (const auto& [target, n] : report.inputs) {
    fmt::print("{:18} {:6} inputs, {:6} accepted\n", target, n, report.accepted[target]);
    total += n;
  }
  for (const auto& p : report.problems) fmt::print(stderr, "fuzz_replay: {}\n", p);
  fmt::print("{} inputs replayed, {} problems\n", total, report.problems.size());
  return report.problems.empty() && total > 0 ? 0 : 1;
}
