// Trace writing (figures for closing notes, not tests): the JSON Lines `trace` writes for 64
// generated FA shapes in their default state, every opcode included, written to /dev/null: the
// time for all 64, per opcode traced, and the bytes written a second.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

#include "bench/bench_main.h"
#include "bench/generated_fa.h"
#include "harness/trace_writer.h"
#include "interp/fa/interpreter.h"

using namespace shapevm;

namespace {

const std::vector<fa::Shape>& generated_shapes() {
  static const std::vector<fa::Shape> shapes = [] {
    std::vector<fa::Shape> out;
    for (uint32_t i = 0; i < 64; ++i) out.push_back(bench::generated_fa_shape(i));
    return out;
  }();
  return shapes;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

void BM_TraceGenerated(benchmark::State& state) {
  const auto& shapes = generated_shapes();
  std::vector<std::unique_ptr<fa::Interpreter>> interpreters;
  for (const auto& shape : shapes) interpreters.push_back(std::make_unique<fa::Interpreter>(shape));
  const std::unique_ptr<std::FILE, FileCloser> null(std::fopen("/dev/null", "w"));
  if (!null) throw std::runtime_error("cannot open /dev/null");
  const fa::RunState run_state;
  uint64_t bytes = 0;
  uint64_t ops = 0;
  for (auto _ : state) {
    for (auto& interp : interpreters) {
      harness::TraceWriter writer(null.get());
      writer.start("fa", "bench.SH", "{}");
      ops += interp->run(run_state, writer).ops;
      writer.flush();
      bytes += writer.bytes_written();
    }
  }
  state.counters["bytes/s"] =
      benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kIsRate);
  // Seconds per opcode traced (its op line and whatever else the opcode wrote).
  state.counters["per_op"] = benchmark::Counter(
      static_cast<double>(ops), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TraceGenerated)->Unit(benchmark::kMillisecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
