// `regress` shards the way the CI systems people run it under ask: Bazel's TEST_TOTAL_SHARDS and
// TEST_SHARD_INDEX (0-based, with TEST_SHARD_STATUS_FILE created to say sharding is supported)
// and GitLab's CI_NODE_TOTAL and CI_NODE_INDEX (1-based), when --shard is not given. The shards
// of either partition the cases exactly: together every case, each once.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/regress_runner.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_regress_shards_tests {

namespace {

const std::string kTank = SHAPEVM_SOURCE_DIR "/examples/fa/tank.fas";
constexpr int kCases = 11;

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

// A manifest of kCases cases (the tank at frames 0..10), blessed once.
void write_blessed_manifest(const ScratchDir& dir) {
  std::string cases;
  for (int i = 0; i < kCases; ++i)
    cases += (i == 0 ? "" : ",\n") +
             fmt::format(R"({{"name": "c{0}", "file": "{1}", "state": {{"frame": {0}}},
                 "capture": "cap/c{0}.raw"}})",
                         i, kTank);
  shapevm::write_text_atomic(
      dir / "m.json",
      R"({"version": 1, "defaults": {"engine": "fa", "size": "40x30"}, "cases": [)" + cases + "]}");
  std::filesystem::create_directories(dir / "cap");
  REQUIRE(run_cli("regress " + q(dir / "m.json") + " --update").exit_code == 0);
}

// The cases one run listed as passed (-v lists them all), by name.
std::set<std::string> run_shard(const ScratchDir& dir, const std::string& environment,
                                const std::string& options = "") {
  // Only the variables given: run_cli's clean environment, then these.
  auto r = run_command(
      "env -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX -u TEST_SHARD_STATUS_FILE "
      "-u CI_NODE_TOTAL -u CI_NODE_INDEX " +
      environment + " " + shell_quote(SHAPEVM_EXE) + " regress " + q(dir / "m.json") + " -v " +
      options);
  REQUIRE(r.exit_code == 0);
  std::set<std::string> names;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("passed ", 0) != 0) continue;
    names.insert(line.substr(line.rfind(' ') + 1));
  }
  return names;
}

std::set<std::string> all_cases() {
  std::set<std::string> out;
  for (int i = 0; i < kCases; ++i) out.insert("c" + std::to_string(i));
  return out;
}

// Union is every case, the shards pairwise disjoint, and each equals --shard K/N.
void check_partition(const std::vector<std::set<std::string>>& shards,
                     const std::vector<std::set<std::string>>& by_option) {
  std::set<std::string> all;
  size_t total = 0;
  for (size_t k = 0; k < shards.size(); ++k) {
    CHECK(!shards[k].empty());
    CHECK(shards[k] == by_option[k]);
    total += shards[k].size();
    all.insert(shards[k].begin(), shards[k].end());
  }
  CHECK(all == all_cases());
  CHECK(total == all.size());  // disjoint
}

}  // namespace

TEST_CASE("regress shards: Bazel's TEST_TOTAL_SHARDS/TEST_SHARD_INDEX (0-based) partition") {
  ScratchDir dir;
  write_blessed_manifest(dir);
  constexpr int kShards = 4;
  std::vector<std::set<std::string>> shards, by_option;
  for (int k = 0; k < kShards; ++k) {
    const auto status = dir / fmt::format("status{}", k);
    shards.push_back(run_shard(dir, fmt::format("TEST_TOTAL_SHARDS={} TEST_SHARD_INDEX={} "
                                                "TEST_SHARD_STATUS_FILE={}",
                                                kShards, k, q(status))));
    by_option.push_back(run_shard(dir, "", fmt::format("--shard {}/{}", k + 1, kShards)));
    CHECK(std::filesystem::exists(status));  // "this test runner shards"
  }
  check_partition(shards, by_option);
  CHECK(shards[0].count("c0") == 1);  // index 0 is the first shard
}

TEST_CASE("regress shards: GitLab's CI_NODE_TOTAL/CI_NODE_INDEX (1-based) partition") {
  ScratchDir dir;
  write_blessed_manifest(dir);
  constexpr int kShards = 3;
  std::vector<std::set<std::string>> shards, by_option;
  for (int k = 1; k <= kShards; ++k) {
    shards.push_back(run_shard(dir, fmt::format("CI_NODE_TOTAL={} CI_NODE_INDEX={}", kShards, k)));
    by_option.push_back(run_shard(dir, "", fmt::format("--shard {}/{}", k, kShards)));
  }
  check_partition(shards, by_option);
  CHECK(shards[0].count("c0") == 1);  // CI_NODE_INDEX=1 is the first shard
  // A job that is not parallel (CI_NODE_TOTAL=1, no index) runs everything.
  CHECK(run_shard(dir, "CI_NODE_TOTAL=1") == all_cases());
}

TEST_CASE("regress shards: --shard wins over the environment; bad values name the variable") {
  ScratchDir dir;
  write_blessed_manifest(dir);
  CHECK(run_shard(dir, "TEST_TOTAL_SHARDS=4 TEST_SHARD_INDEX=0", "--shard 2/2") ==
        run_shard(dir, "", "--shard 2/2"));
  CHECK(run_shard(dir, "CI_NODE_TOTAL=2 CI_NODE_INDEX=2") == run_shard(dir, "", "--shard 2/2"));
  // Bazel's variables are read first when both systems' are set.
  CHECK(run_shard(dir, "TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=0 CI_NODE_TOTAL=2 CI_NODE_INDEX=2") ==
        run_shard(dir, "", "--shard 1/2"));

  using shapevm::harness::shard_from_environment;
  auto env = [](std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  };
  CHECK(shard_from_environment(env({})).source.empty());
  const auto bazel =
      shard_from_environment(env({{"TEST_TOTAL_SHARDS", "5"}, {"TEST_SHARD_INDEX", "4"}}));
  CHECK(bazel.shard.index == 5);
  CHECK(bazel.shard.count == 5);
  const auto gitlab = shard_from_environment(env({{"CI_NODE_TOTAL", "5"}, {"CI_NODE_INDEX", "5"}}));
  CHECK(gitlab.shard.index == 5);
  CHECK(gitlab.shard.count == 5);
  CHECK_THROWS_WITH_AS(
      shard_from_environment(env({{"TEST_TOTAL_SHARDS", "4"}, {"TEST_SHARD_INDEX", "4"}})),
      "TEST_SHARD_INDEX=4: expected a whole number 0..3", shapevm::InputError);
  CHECK_THROWS_WITH_AS(
      shard_from_environment(env({{"CI_NODE_TOTAL", "3"}, {"CI_NODE_INDEX", "0"}})),
      "CI_NODE_INDEX=0: expected a whole number 1..3", shapevm::InputError);
  CHECK_THROWS_WITH_AS(shard_from_environment(env({{"CI_NODE_TOTAL", "x"}})),
                       "CI_NODE_TOTAL=x: expected a whole number 1..100000", shapevm::InputError);
  CHECK_THROWS_AS(shard_from_environment(env({{"TEST_TOTAL_SHARDS", "2"}})), shapevm::InputError);
  CHECK_THROWS_AS(shard_from_environment(env({{"CI_NODE_TOTAL", "2"}})), shapevm::InputError);

  auto bad = run_command("env CI_NODE_TOTAL=3 CI_NODE_INDEX=4 " + shell_quote(SHAPEVM_EXE) +
                         " regress " + q(dir / "m.json"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("shapevm: error: CI_NODE_INDEX=4: expected a whole number 1..3") !=
        std::string::npos);
}

}  // namespace tools_cli_regress_shards_tests
