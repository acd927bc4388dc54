// Starlancer benchmarks (figures for closing notes, not tests), over a generated 440-model
// resource.hog like the game's:
//  - RefPack decompression in MB/s of output (the generator's literal-run members, the same
//    compressed with copies as the game's are, and a stream of overlapping copies);
//  - models loaded per second (RefPack member -> model_load -> the reader's layout walk);
//  - model_load alone with every model_take_chunk step built as an event (a trace-like sink).
#include <benchmark/benchmark.h>

#include "bench/bench_main.h"
#include "interp/shp/generator.h"
#include "interp/shp/hog.h"
#include "interp/shp/loader.h"
#include "interp/shp/refpack.h"

using namespace shapevm;

namespace {

struct Corpus {
  std::vector<uint8_t> hog;
  shp::Hog directory;
  std::vector<std::vector<uint8_t>> images;
  std::vector<std::vector<uint8_t>> matched;  // each image RefPack-compressed with copies
  uint64_t packed_output = 0;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    out.hog = shp::generate_resource_hog(1, shp::kDefaultGeneratedModels);
    out.directory = shp::read_hog(out.hog, "resource.hog");
    for (const auto& e : out.directory.entries) {
      out.images.push_back(shp::member_image(out.hog, e, e.name));
      out.matched.push_back(shp::refpack_compress(out.images.back()));
      out.packed_output += out.images.back().size();
    }
    return out;
  }();
  return c;
}

void BM_RefPackLiteralMembers(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (const auto& e : c.directory.entries)
      benchmark::DoNotOptimize(shp::refpack_decompress(shp::member_bytes(c.hog, e), e.name));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.packed_output));
}
BENCHMARK(BM_RefPackLiteralMembers)->Unit(benchmark::kMillisecond);

// Recognition's walk of the same members: every command checked, only the first bytes kept.
void BM_RefPackHeadLiteralMembers(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (const auto& e : c.directory.entries)
      benchmark::DoNotOptimize(shp::refpack_head(shp::member_bytes(c.hog, e), e.name, 6));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.packed_output));
}
BENCHMARK(BM_RefPackHeadLiteralMembers)->Unit(benchmark::kMillisecond);

// The same models compressed as the game's members are, with copies of every command form.
void BM_RefPackMatchedMembers(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (const auto& stream : c.matched)
      benchmark::DoNotOptimize(shp::refpack_decompress(stream, "bench"));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.packed_output));
}
BENCHMARK(BM_RefPackMatchedMembers)->Unit(benchmark::kMillisecond);

// 1 MiB of output from 4 literal bytes and 2-byte copies of 10 bytes, 4 back (overlapping).
void BM_RefPackCopies(benchmark::State& state) {
  constexpr uint32_t kOut = 4 + 10 * 104857;
  std::vector<uint8_t> s = {0x10,
                            0xFB,
                            static_cast<uint8_t>(kOut >> 16),
                            static_cast<uint8_t>(kOut >> 8),
                            static_cast<uint8_t>(kOut),
                            0xE0,
                            1,
                            2,
                            3,
                            4};
  for (int i = 0; i < 104857; ++i) {
    s.push_back(0x1C);  // 0 00 111 00: N = 10, D = (0 << 8 | b1) + 1
    s.push_back(0x03);  // D = 4
  }
  s.push_back(0xFC);
  for (auto _ : state) benchmark::DoNotOptimize(shp::refpack_decompress(s, "bench"));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kOut);
}
BENCHMARK(BM_RefPackCopies)->Unit(benchmark::kMillisecond);

void BM_ModelsLoaded(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (const auto& e : c.directory.entries) {
      const auto image = shp::member_image(c.hog, e, e.name);
      benchmark::DoNotOptimize(shp::load_model(image, e.name));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * c.directory.entries.size()));
}
BENCHMARK(BM_ModelsLoaded)->Unit(benchmark::kMillisecond);

struct OpCounter : EventSink {
  uint64_t ops = 0;
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent& e) override { ops += e.fields.size(); }
};

void BM_ModelLoadTraced(benchmark::State& state) {
  const Corpus& c = corpus();
  OpCounter counter;
  shp::LoadOptions o;
  o.sink = &counter;
  uint64_t requests = 0;
  for (auto _ : state) {
    for (const auto& image : c.images) {
      const shp::LoadOutcome out = shp::run_model_load(image, o);
      requests += out.requests;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(requests));
  state.counters["requests/model"] =
      static_cast<double>(requests) / static_cast<double>(state.iterations() * c.images.size());
}
BENCHMARK(BM_ModelLoadTraced)->Unit(benchmark::kMillisecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
