#include "harness/regress_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "core/input_error.h"
#include "harness/capture_cache.h"

namespace shapevm::harness {

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument(text);
    size_t a = 0, b = 0;
    const int k = std::stoi(text.substr(0, slash), &a);
    const int n = std::stoi(text.substr(slash + 1), &b);
    if (a != slash || b != text.size() - slash - 1 || n < 1 || n > 100000 || k < 1 || k > n)
      throw std::invalid_argument(text);
    return {k, n};
  } catch (const std::exception&) {
    throw InputError("--shard " + text, "expected K/N with 1 <= K <= N (e.g. 2/4)");
  }
}

namespace {

// A whole decimal number in [min, max] from an environment variable; InputError naming it.
int environment_number(const char* name, const char* text, int min, int max) {
  const std::string value = text;
  try {
    size_t used = 0;
    const int n = std::stoi(value, &used);
    if (used == value.size() && n >= min && n <= max) return n;
  } catch (const std::exception&) {
  }
  throw InputError(fmt::format("{}={}", name, value),
                   fmt::format("expected a whole number {}..{}", min, max));
}

}  // namespace

EnvironmentShard shard_from_environment(const EnvironmentLookup& lookup) {
  constexpr int kMaxShards = 100000;  // as --shard
  EnvironmentShard out;
  if (const char* status = lookup("TEST_SHARD_STATUS_FILE"); status && *status)
    out.status_file = status;
  const char* bazel_total = lookup("TEST_TOTAL_SHARDS");
  const char* bazel_index = lookup("TEST_SHARD_INDEX");
  if (bazel_total && *bazel_total) {
    const int n = environment_number("TEST_TOTAL_SHARDS", bazel_total, 1, kMaxShards);
    if (!bazel_index || !*bazel_index)
      throw InputError("TEST_TOTAL_SHARDS=" + std::string(bazel_total),
                       "TEST_SHARD_INDEX is not set (Bazel sets both)");
    const int k = environment_number("TEST_SHARD_INDEX", bazel_index, 0, n - 1);
    out.shard = {k + 1, n};
    out.source = fmt::format("TEST_SHARD_INDEX={}, TEST_TOTAL_SHARDS={}", bazel_index, bazel_total);
    return out;
  }
  const char* gitlab_total = lookup("CI_NODE_TOTAL");
  if (gitlab_total && *gitlab_total) {
    const int n = environment_number("CI_NODE_TOTAL", gitlab_total, 1, kMaxShards);
    const char* gitlab_index = lookup("CI_NODE_INDEX");
    // GitLab sets CI_NODE_TOTAL=1 and no index for a job that is not parallel.
    if (n == 1 && (!gitlab_index || !*gitlab_index)) return out;
    if (!gitlab_index || !*gitlab_index)
      throw InputError("CI_NODE_TOTAL=" + std::string(gitlab_total),
                       "CI_NODE_INDEX is not set (GitLab sets both for a parallel job)");
    out.shard = {environment_number("CI_NODE_INDEX", gitlab_index, 1, n), n};
    out.source = fmt::format("CI_NODE_INDEX={}, CI_NODE_TOTAL={}", gitlab_index, gitlab_total);
  }
  return out;
}

void touch_shard_status_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (f == nullptr)
    throw InputError("TEST_SHARD_STATUS_FILE=" + path,
                     fmt::format("cannot create: {}", std::strerror(errno)));
  std::fclose(f);
}

std::vector<RunWarning> distinct_warnings(const RunSummary& summary) {
  std::vector<RunWarning> out;
  std::map<std::string, size_t> index;
  for (const auto& r : summary.results) {
    for (const auto& w : r.warnings) {
      auto [it, inserted] = index.emplace(w, out.size());
      if (inserted) out.push_back({w, 0, r.c});
      ++out[it->second].cases;
    }
  }
  return out;
}

namespace {

// The indices of `selected` in the batches workers take: a program's cases a few at a time
// (programs in the order the manifest first names them). Handed out one by one, two workers took
// neighbouring cases of the same program: each opened it, and both decoded the capture the cases
// shared at the same moment, so a second worker added little. A batch holds at most an eighth of
// a worker's share, so one program with many states still spreads over every worker.
std::vector<std::vector<size_t>> batches_by_program(const std::vector<const RegressCase*>& selected,
                                                    size_t threads) {
  const size_t batch_limit = std::max<size_t>(1, selected.size() / (threads * 8));
  std::map<std::pair<std::string_view, std::string_view>, std::vector<size_t>> by_program;
  std::vector<const std::vector<size_t>*> order;
  for (size_t i = 0; i < selected.size(); ++i) {
    auto [it, added] = by_program.try_emplace({selected[i]->engine, selected[i]->file});
    if (added) order.push_back(&it->second);
    it->second.push_back(i);
  }
  std::vector<std::vector<size_t>> batches;
  for (const std::vector<size_t>* cases : order) {
    for (size_t at = 0; at < cases->size(); at += batch_limit) {
      const size_t end = std::min(cases->size(), at + batch_limit);
      batches.emplace_back(cases->begin() + static_cast<ptrdiff_t>(at),
                           cases->begin() + static_cast<ptrdiff_t>(end));
    }
  }
  return batches;
}

}  // namespace

RunSummary run_regression(const Manifest& manifest, const EngineRegistry& engines,
                          const RunnerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<const RegressCase*> selected;
  for (const auto& c : manifest.cases) {
    if (engines.find(c.engine) == nullptr) {
      throw InputError(
          manifest.path.string(),
          fmt::format("{}/engine: no engine \"{}\" in this build", c.pointer, c.engine));
    }
    if (options.shard.contains(c.index)) selected.push_back(&c);
  }

  RunSummary summary;
  summary.results.resize(selected.size());
  CaptureCache captures(selected);
  const size_t threads = std::min(static_cast<size_t>(std::max(options.jobs, 1)),
                                  std::max<size_t>(selected.size(), 1));
  const std::vector<std::vector<size_t>> batches = batches_by_program(selected, threads);
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  size_t done = 0;
  auto worker = [&] {
    // One renderer per engine per thread, made when the thread first needs it.
    std::map<std::string, std::unique_ptr<CaseRenderer>> renderers;
    for (size_t b = next++; b < batches.size(); b = next++) {
      for (size_t i : batches[b]) {
        const RegressCase& c = *selected[i];
        auto& renderer = renderers[c.engine];
        CaseResult result;
        try {
          if (!renderer) renderer = (*engines.find(c.engine))();
          result = check_case(c, *renderer, options.update, &captures);
        } catch (const std::exception& e) {
          result.c = &c;
          result.status = CaseStatus::kError;
          result.message = e.what();
        }
        captures.finish(c);
        summary.results[i] = std::move(result);
        if (options.progress) {
          std::lock_guard lock(progress_mutex);
          options.progress(++done, selected.size());
        }
      }
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  }
  for (const auto& r : summary.results) {
    switch (r.status) {
      case CaseStatus::kPassed:
        ++summary.passed;
        break;
      case CaseStatus::kUpdated:
        ++summary.updated;
        break;
      case CaseStatus::kError:
        ++summary.errors;
        ++summary.failed;
        break;
      case CaseStatus::kFailed:
        ++summary.failed;
        break;
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace shapevm::harness
