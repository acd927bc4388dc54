// The static walk and the disassembly listing over a synthetic corpus the size of FA_2.LIB (1,275
// shapes from `shapevm gen fa`'s generator), plus the assembler on one typical shape.
//   bench_fa_disasm --benchmark_filter=Walk
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_main.h"
#include "interp/fa/assembler.h"
#include "interp/fa/generator.h"
#include "interp/fa/listing.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"

namespace {

using namespace shapevm;

constexpr uint32_t kCorpusShapes = 1275;  // as many shapes as FA_2.LIB holds
constexpr uint64_t kSeed = 1;

struct Corpus {
  std::vector<std::string> texts;
  std::vector<fa::Shape> shapes;
  uint64_t file_bytes = 0;
  uint64_t code_bytes = 0;
  size_t typical = 0;  // index of the shape with the median file size
};

// Generated and assembled once, outside every timed region.
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    std::vector<std::pair<size_t, size_t>> sizes;
    for (uint32_t i = 0; i < kCorpusShapes; ++i) {
      out.texts.push_back(fa::generate_fa_shape(kSeed, i));
      const std::string name = fa::generated_shape_stem(i);
      const fa::AssembledShape assembled = fa::assemble_fa(out.texts.back(), name + ".fas");
      out.shapes.push_back(fa::load_shape(assembled.file, name + ".SH"));
      out.file_bytes += assembled.file.size();
      out.code_bytes += out.shapes.back().code().size();
      sizes.emplace_back(assembled.file.size(), i);
    }
    std::sort(sizes.begin(), sizes.end());
    out.typical = sizes[sizes.size() / 2].second;
    return out;
  }();
  return c;
}

// (a) walk_shape over all 1,275 shapes.
void BM_WalkCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  size_t items = 0;
  for (auto _ : state) {
    for (const auto& shape : c.shapes) {
      fa::WalkResult walk = fa::walk_shape(shape);
      items += walk.items.size();
      benchmark::DoNotOptimize(walk);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCorpusShapes);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.code_bytes));
  state.counters["walk_items"] =
      benchmark::Counter(static_cast<double>(items), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_WalkCorpus)->Unit(benchmark::kMillisecond);

// (b) walk + make_listing + render_listing_text over all 1,275 shapes (what `disasm` does).
void BM_ListingCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  size_t text_bytes = 0;
  for (auto _ : state) {
    for (const auto& shape : c.shapes) {
      const fa::WalkResult walk = fa::walk_shape(shape);
      const fa::Listing listing = fa::make_listing(shape, walk);
      std::string text = fa::render_listing_text(shape, listing);
      text_bytes += text.size();
      benchmark::DoNotOptimize(text);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCorpusShapes);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.code_bytes));
  state.counters["listing_bytes"] =
      benchmark::Counter(static_cast<double>(text_bytes), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_ListingCorpus)->Unit(benchmark::kMillisecond);

// Assembling one typical shape (the median file size of the corpus) from its text.
void BM_AssembleTypicalShape(benchmark::State& state) {
  const Corpus& c = corpus();
  const std::string& text = c.texts[c.typical];
  size_t file_bytes = 0;
  for (auto _ : state) {
    fa::AssembledShape shape = fa::assemble_fa(text, "typical.fas");
    file_bytes = shape.file.size();
    benchmark::DoNotOptimize(shape);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["file_bytes"] = static_cast<double>(file_bytes);
}
BENCHMARK(BM_AssembleTypicalShape)->Unit(benchmark::kMicrosecond);

// Generating one shape's text (for scale: the generator feeds the tests and fuzzers).
void BM_GenerateShapeText(benchmark::State& state) {
  uint32_t index = 0;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = fa::generate_fa_shape(kSeed, index++ % kCorpusShapes);
    bytes += text.size();
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_GenerateShapeText)->Unit(benchmark::kMicrosecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
