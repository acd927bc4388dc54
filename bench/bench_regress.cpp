// Regression throughput: the golden manifest (FA examples, 640x480) and a generated manifest of
// 1,000 cases through the runner, reported as cases per second (items_per_second) for 1 and 2
// worker threads; and the pixel comparison on its own. Run: build/bench/bench_regress
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>

#include "bench/bench_main.h"
#include "core/file_io.h"
#include "harness/program_case_renderer.h"
#include "harness/regress_runner.h"
#include "interp/fa/assembler.h"
#include "interp/fa/generator.h"
#include "raster/frame_compare.h"
#include "raster/png_io.h"

using namespace shapevm;

namespace {

// Runs `manifest` once per iteration with range(0) workers; cases per second as items.
void run_manifest(benchmark::State& state, const harness::Manifest& manifest) {
  const harness::EngineRegistry engines = harness::registered_case_engines();
  harness::RunnerOptions options;
  options.jobs = static_cast<int>(state.range(0));
  size_t cases = 0;
  for (auto _ : state) {
    const harness::RunSummary summary = harness::run_regression(manifest, engines, options);
    if (summary.failed != 0) state.SkipWithError("a case failed");
    cases += summary.results.size();
  }
  state.SetItemsProcessed(static_cast<int64_t>(cases));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

void BM_RegressGoldenManifest(benchmark::State& state) {
  run_manifest(state,
               harness::read_manifest(SHAPEVM_BENCH_SOURCE_DIR "/tests/golden/manifest.json"));
}
BENCHMARK(BM_RegressGoldenManifest)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// 1,000 cases over 500 generated FA shapes (seed 7), assembled once to a temporary folder with
// their captures blessed: per shape, its default frame, and the same frame with the top rows
// excluded, which shares the first case's capture (as cases under different exclusions do).
// The temporary folder, removed when the benchmark exits.
struct TemporaryFolder {
  std::filesystem::path path;
  TemporaryFolder() {
    char folder_template[] = "/tmp/shapevm-bench-regress-XXXXXX";
    const char* folder = mkdtemp(folder_template);
    if (folder == nullptr) throw std::runtime_error("cannot make a temporary folder");
    path = folder;
  }
  ~TemporaryFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const harness::Manifest& generated_manifest() {
  static const TemporaryFolder folder;
  static const harness::Manifest manifest = [] {
    const std::filesystem::path& dir = folder.path;
    std::string cases;
    for (uint32_t i = 0; i < 500; ++i) {
      // Assembled here: a case then reads a .SH as it would a game's.
      write_file_atomic(dir / fmt::format("g{}.SH", i),
                        fa::assemble_fa(fa::generate_fa_shape(7, i), "gen.fas").file);
      cases += fmt::format(R"({}{{"name": "g{}", "file": "g{}.SH", "capture": "g{}.png"}},
        {{"name": "g{}_top", "file": "g{}.SH", "capture": "g{}.png", "exclude": [[0, 0, 640, 40]]}})",
                           i == 0 ? "" : ",", i, i, i, i, i, i);
    }
    write_text_atomic(
        dir / "manifest.json",
        R"({"version": 1, "defaults": {"engine": "fa", "size": "640x480"}, "cases": [)" + cases +
            "]}");
    harness::Manifest m = harness::read_manifest(dir / "manifest.json");
    harness::RunnerOptions bless;
    bless.update = true;
    bless.jobs = 2;
    harness::run_regression(m, harness::registered_case_engines(), bless);
    return m;
  }();
  return manifest;
}

void BM_RegressGenerated1000(benchmark::State& state) {
  run_manifest(state, generated_manifest());
}
BENCHMARK(BM_RegressGenerated1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Decoding one blessed capture of the generated manifest (640x480 indexed PNG), from memory.
void BM_DecodeCapture640x480(benchmark::State& state) {
  const harness::Manifest& manifest = generated_manifest();
  const std::vector<uint8_t> bytes = read_file(manifest.cases[0].capture);
  for (auto _ : state)
    benchmark::DoNotOptimize(raster::decode_png(bytes, "capture").frame.pixels().data());
  state.SetItemsProcessed(state.iterations());
  state.counters["png_bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_DecodeCapture640x480);

void BM_CompareFrames640x480(benchmark::State& state) {
  raster::Framebuffer a(640, 480, 0);
  for (int y = 0; y < 480; ++y)
    for (int x = 0; x < 640; ++x) a.set(x, y, static_cast<uint8_t>(x ^ y));
  raster::Framebuffer b = a;
  b.set(600, 400, 1);
  for (auto _ : state) benchmark::DoNotOptimize(raster::compare_frames(a, b).differing);
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * 640 * 480);
}
BENCHMARK(BM_CompareFrames640x480);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
