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

// Throws InputError naming the case's JSON pointer if a case uses an engine not in `engines`.
RunSummary run_regression(const Manifest& manifest, const EngineRegistry& engines,
                          const RunnerOptions& options);

}  // namespace shapevm::harness
