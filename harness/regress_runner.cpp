#include "harness/regress_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "core/input_error.h"

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
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  size_t done = 0;
  auto worker = [&] {
    // One renderer per engine per thread, made when the thread first needs it.
    std::map<std::string, std::unique_ptr<CaseRenderer>> renderers;
    for (size_t i = next++; i < selected.size(); i = next++) {
      const RegressCase& c = *selected[i];
      auto& renderer = renderers[c.engine];
      CaseResult result;
      try {
        if (!renderer) renderer = (*engines.find(c.engine))();
        result = check_case(c, *renderer, options.update);
      } catch (const std::exception& e) {
        result.c = &c;
        result.status = CaseStatus::kError;
        result.message = e.what();
      }
      summary.results[i] = std::move(result);
      if (options.progress) {
        std::lock_guard lock(progress_mutex);
        options.progress(++done, selected.size());
      }
    }
  };
  const size_t threads = std::min(static_cast<size_t>(std::max(options.jobs, 1)),
                                  std::max<size_t>(selected.size(), 1));
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
