// The fuzz targets (fuzz/targets.h) in the ordinary build: most seed inputs (valid files from the
// examples and generators) must be accepted by their target; every input of the committed corpora
// (tests/fuzz_corpus/TARGET/) and every past finding (tests/fuzz_regressions/TARGET-WHAT.bin) must
// end in acceptance or the project's bad-input error, never anything else. A hang fails on ctest's
// timeout; the sanitizer build turns a memory error into a failure.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "core/file_io.h"
#include "fuzz/replay.h"
#include "fuzz/seed_corpus.h"
#include "fuzz/targets.h"
#include "harness/dap_server.h"

namespace tools_fuzz_replay_tests {

using namespace shapevm;
using namespace shapevm::fuzzing;

namespace {

const std::filesystem::path kSourceDir = SHAPEVM_SOURCE_DIR;

}  // namespace

// Not every seed is accepted on its own: a palette LIB has nothing to run, a scenery layer needs
// its objects' archive, assembler text of several records needs a record named. But each target
// must accept most of its seeds, or it is not reaching the reader behind its first check.
TEST_CASE("fuzz seeds: every target has seeds and accepts most of them") {
  std::map<std::string, int> per_target, accepted;
  for (const auto& seed : seed_inputs(kSourceDir)) {
    CAPTURE(seed.target);
    CAPTURE(seed.name);
    const FuzzTarget* target = find_fuzz_target(seed.target);
    REQUIRE(target != nullptr);
    accepted[seed.target] += target->run(seed.bytes) ? 1 : 0;
    ++per_target[seed.target];
  }
  for (const auto& target : fuzz_targets()) {
    CAPTURE(target.name);
    const std::string name(target.name);
    CHECK(per_target[name] > 0);
    CHECK(accepted[name] * 2 > per_target[name]);
  }
}

TEST_CASE("fuzz corpora and findings: every input ends in acceptance or InputError") {
  ReplayReport report;
  replay_corpus(kSourceDir / "tests/fuzz_corpus", report);
  replay_findings(kSourceDir / "tests/fuzz_regressions", report);
  for (const auto& problem : report.problems) FAIL_CHECK(problem);
  for (const auto& target : fuzz_targets()) {
    CAPTURE(target.name);
    CHECK(report.inputs[std::string(target.name)] > 0);  // every target has a committed corpus
  }
}

TEST_CASE("fuzz dap target: a launch that asks for a listing file is refused and writes nothing") {
  const auto path = std::filesystem::temp_directory_path() / "shapevm-fuzz-dap-listing.txt";
  std::filesystem::remove(path);
  const nlohmann::json launch = {{"seq", 1},
                                 {"type", "request"},
                                 {"command", "launch"},
                                 {"arguments", {{"program", "x.SH"}, {"listingPath", path}}}};
  std::ostringstream framed;
  harness::write_dap_message(framed, launch);
  const std::string text = framed.str();
  const FuzzTarget* dap = find_fuzz_target("dap");
  REQUIRE(dap != nullptr);
  CHECK(dap->run({reinterpret_cast<const uint8_t*>(text.data()), text.size()}));
  CHECK_FALSE(std::filesystem::exists(path));
}

}  // namespace tools_fuzz_replay_tests
