// Runs a manifest's cases: the shard's share of them, on N worker threads (each with its own case
// renderers, hence its own interpreters), results in manifest order whatever the thread timing.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/case_check.h"
#include "harness/case_engine.h"
#include "harness/regress_manifest.h"

namespace shapevm::harness {

// Shard K of N (1 <= K <= N): the cases whose manifest index i has i mod N == K - 1. Round-robin
// keeps shards balanced when similar cases sit next to each other, and every case is in exactly
// one shard.
struct Shard {
  int index = 1;
  int count = 1;
  bool contains(size_t case_index) const {
    return case_index % static_cast<size_t>(count) == static_cast<size_t>(index - 1);
  }
};

// "K/N" -> Shard; InputError("--shard", ...) unless 1 <= K <= N <= 100000.
Shard parse_shard(const std::string& text);

// The shard a CI system asks for through its environment, for runs without --shard: Bazel's
// TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (0-based), else GitLab's CI_NODE_TOTAL and
// CI_NODE_INDEX (1-based). `status_file` is Bazel's TEST_SHARD_STATUS_FILE, which a test runner
// that shards creates to say so. InputError naming the variable when a value is malformed or out
// of range, or one of a pair is missing.
struct EnvironmentShard {
  Shard shard;
  std::string source;       // e.g. "TEST_SHARD_INDEX=1, TEST_TOTAL_SHARDS=4"; "" = no sharding
  std::string status_file;  // "" = none asked for
};
using EnvironmentLookup = std::function<const char*(const char* name)>;
EnvironmentShard shard_from_environment(const EnvironmentLookup& lookup);

// Creates (or touches) Bazel's shard status file; InputError with the system's reason.
void touch_shard_status_file(const std::string& path);

struct RunnerOptions {
  int jobs = 1;
  Shard shard;
  bool update = false;
  // Called after each finished case (from the thread that finished it, serialised by the runner).
  std::function<void(size_t done, size_t total)> progress;
};

struct RunSummary {
  std::vector<CaseResult> results;  // the shard's cases, in manifest order
  size_t passed = 0;
  size_t failed = 0;  // FAILED and ERROR
  size_t errors = 0;  // ERROR only
  size_t updated = 0;
  double seconds = 0;
};

// A warning of a run, given once however many cases gave it (a texture missing from every case
// that draws it is one line, not one per case).
struct RunWarning {
  std::string text;
  size_t cases = 0;                    // how many cases gave it
  const RegressCase* first = nullptr;  // the first of them in manifest order
};
std::vector<RunWarning> distinct_warnings(const RunSummary& summary);

// Throws InputError naming the case's JSON pointer if a case uses an engine not in `engines`.
RunSummary run_regression(const Manifest& manifest, const EngineRegistry& engines,
                          const RunnerOptions& options);

}  // namespace shapevm::harness
