// Regression throughput: the golden manifest (FA examples, 640x480) through the runner, reported
// as cases per second (items_per_second) for 1 and 2 worker threads; and the pixel comparison on
// its own. Run: build/bench/bench_regress
#include <benchmark/benchmark.h>

#include "harness/program_case_renderer.h"
#include "harness/regress_runner.h"
#include "raster/frame_compare.h"

using namespace shapevm;

namespace {

void BM_RegressGoldenManifest(benchmark::State& state) {
  const harness::EngineRegistry engines = harness::registered_case_engines();
  const harness::Manifest manifest =
      harness::read_manifest(SHAPEVM_BENCH_SOURCE_DIR "/tests/golden/manifest.json");
  harness::RunnerOptions options;
  options.jobs = static_cast<int>(state.range(0));
  size_t cases = 0;
  for (auto _ : state) {
    const harness::RunSummary summary = harness::run_regression(manifest, engines, options);
    if (summary.failed != 0) state.SkipWithError("a golden case failed");
    cases += summary.results.size();
  }
  state.SetItemsProcessed(static_cast<int64_t>(cases));
}
BENCHMARK(BM_RegressGoldenManifest)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

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

BENCHMARK_MAIN();
