// Fighters Anthology EALIB members (figures for closing notes, not tests): PKWare DCL explode in
// MB/s of output, over the 1,275 generated shapes imploded with matches (as the game's flags-4
// members are) and as literals only.
#include <benchmark/benchmark.h>

#include "bench/bench_main.h"
#include "interp/fa/assembler.h"
#include "interp/fa/dcl_explode.h"
#include "interp/fa/generator.h"
#include "tests/fa/lib_builder.h"

using namespace shapevm;

namespace {

struct Streams {
  std::vector<std::vector<uint8_t>> streams;
  std::vector<size_t> sizes;
  int64_t output = 0;
};

Streams imploded(test::DclMatches matches) {
  Streams s;
  for (uint32_t i = 0; i < 1275; ++i) {
    const auto shape = fa::assemble_fa(fa::generate_fa_shape(7, i), "bench.fas").file;
    s.streams.push_back(test::dcl_implode(shape, 6, matches));
    s.sizes.push_back(shape.size());
    s.output += static_cast<int64_t>(shape.size());
  }
  return s;
}

void explode_all(benchmark::State& state, const Streams& s) {
  for (auto _ : state) {
    for (size_t i = 0; i < s.streams.size(); ++i)
      benchmark::DoNotOptimize(fa::dcl_explode(s.streams[i], "bench", s.sizes[i]).data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * s.output);
}

void BM_DclExplodeMatched(benchmark::State& state) {
  static const Streams s = imploded(test::DclMatches::kGreedy);
  explode_all(state, s);
}
BENCHMARK(BM_DclExplodeMatched)->Unit(benchmark::kMillisecond);

void BM_DclExplodeLiterals(benchmark::State& state) {
  static const Streams s = imploded(test::DclMatches::kLiteralsOnly);
  explode_all(state, s);
}
BENCHMARK(BM_DclExplodeLiterals)->Unit(benchmark::kMillisecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
