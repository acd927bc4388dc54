// Embedded x86 benchmarks (figures for closing notes, not tests):
//  - the warm cost of one x86 block in the sandbox (the jet's gear guard and its flaps guard);
//  - opening a Unicorn engine, against taking over the thread's engine for a new shape;
//  - one run of the jet with its x86 blocks executed, and with them stepped over;
//  - the generated corpus rendered in every articulation state the static analysis finds, with
//    the process's peak resident memory.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <map>
#include <vector>

#include "bench/bench_main.h"
#include "bench/fa_frame.h"
#include "bench/generated_fa.h"
#include "interp/fa/articulation.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape_input.h"
#include "interp/fa/x86_runner.h"
#include "x86/sandbox.h"

using namespace shapevm;

namespace {

const fa::Shape& jet() {
  static const fa::Shape shape = fa::load_shape_spec(SHAPEVM_BENCH_EXAMPLES_DIR "/fa/jet.SH");
  return shape;
}

// The X86Code offsets of the jet's blocks, in code order.
std::vector<uint32_t> jet_blocks() {
  const auto a = fa::analyze_articulations(jet(), fa::walk_shape(jet()));
  std::vector<uint32_t> out;
  for (const auto& b : a.blocks) out.push_back(b.offset);
  return out;
}

struct NullSink : EventSink {
  bool wants_ops() const override { return false; }
  bool wants_control() const override { return false; }
};

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void BM_X86BlockWarm(benchmark::State& state) {
  const uint32_t block = jet_blocks().at(static_cast<size_t>(state.range(0)));
  fa::X86Runner runner(jet(), false);
  fa::RunState rs;
  rs.imports["_PLgearDown"] = 1;
  rs.x86_memo = state.range(1) != 0;
  NullSink sink;
  runner.begin_run(rs, &sink);
  for (auto _ : state) {
    auto r = runner.run_block(block);
    if (!r.resumed) state.SkipWithError(r.reason.c_str());
    benchmark::DoNotOptimize(r.resume_offset);
  }
}
// 0: the gear guard (cmp word, jne); 2: the flaps guard (cmp dword, jge). Second argument 0: run
// in Unicorn every time (--no-memo); 1: the outcome recalled (x86_guard_memo.h).
BENCHMARK(BM_X86BlockWarm)->Args({0, 0})->Args({2, 0})->Args({0, 1})->Args({2, 1});

void BM_UnicornOpen(benchmark::State& state) {
  for (auto _ : state) {
    x86::Sandbox box;
    benchmark::DoNotOptimize(&box);
  }
}
BENCHMARK(BM_UnicornOpen)->Unit(benchmark::kMicrosecond);

// A new runner for another shape on the same thread: layout, remap of the thread's engine, run.
void BM_X86RunnerTakeOver(benchmark::State& state) {
  const uint32_t block = jet_blocks().at(0);
  fa::RunState rs;
  NullSink sink;
  for (auto _ : state) {
    fa::X86Runner runner(jet(), false);
    runner.begin_run(rs, &sink);
    benchmark::DoNotOptimize(runner.run_block(block).resume_offset);
  }
}
BENCHMARK(BM_X86RunnerTakeOver)->Unit(benchmark::kMicrosecond);

void BM_JetRun(benchmark::State& state) {
  fa::Interpreter interp(jet());
  fa::RunState rs;
  rs.run_x86 = state.range(0) != 0;
  rs.x86_memo = state.range(0) != 2;
  rs.imports = {{"_PLgearDown", 1}, {"_PLleftFlap", -1}, {"_PLafterBurner", 1}};
  NullSink sink;
  for (auto _ : state) benchmark::DoNotOptimize(interp.run(rs, sink).faces);
}
// 1: five x86 blocks per run, guard outcomes recalled; 2: the same with --no-memo (every block
// in Unicorn); 0: --no-x86.
BENCHMARK(BM_JetRun)->Arg(1)->Arg(2)->Arg(0)->Unit(benchmark::kMicrosecond);

struct CorpusItem {
  fa::Shape shape;
  std::vector<std::map<std::string, int64_t>> states;
};

// The 1,275 generated shapes, each with its default state and each input through each of its
// distinct values, one at a time.
const std::vector<CorpusItem>& corpus_with_states() {
  using Item = CorpusItem;
  static const std::vector<Item> corpus = [] {
    std::vector<Item> v;
    for (uint32_t i = 0; i < 1275; ++i) {
      Item item{bench::generated_fa_shape(i), {{}}};
      const auto an = fa::analyze_articulations(item.shape, fa::walk_shape(item.shape));
      // The default, then each input through each of its distinct values, one at a time.
      for (const auto& [input, values] : an.inputs)
        for (int64_t value : an.distinct_values(input))
          if (value != 0) item.states.push_back({{input, value}});
      v.push_back(std::move(item));
    }
    return v;
  }();
  return corpus;
}

// Frames per pass, frames per second and the process's peak memory.
void report_corpus_frames(benchmark::State& state, uint64_t frames_per_pass) {
  state.counters["frames"] = static_cast<double>(frames_per_pass);
  state.counters["frames_per_s"] = benchmark::Counter(
      static_cast<double>(frames_per_pass) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

void BM_CorpusAllArticulationStates(benchmark::State& state) {
  const std::vector<CorpusItem>& corpus = corpus_with_states();
  uint64_t frames = 0;
  for (auto _ : state) {
    frames = 0;
    uint64_t faces = 0;
    for (const auto& item : corpus) {
      for (const auto& imports : item.states) {
        fa::RunState rs;
        rs.imports = imports;
        faces += bench::render_fa_frame(item.shape, rs, 640, 480).faces_filled;
        ++frames;
      }
    }
    benchmark::DoNotOptimize(faces);
  }
  report_corpus_frames(state, frames);
}
BENCHMARK(BM_CorpusAllArticulationStates)->Unit(benchmark::kMillisecond)->Iterations(2);

// The same frames drawn as the regress runner and the viewer draw a shape's states: one
// interpreter per shape for all its states, and one 640x480 frame cleared between frames (only
// the rows the last frame drew).
void BM_CorpusAllArticulationStatesReused(benchmark::State& state) {
  const std::vector<CorpusItem>& corpus = corpus_with_states();
  raster::Framebuffer frame(640, 480, 0);
  const raster::Framebuffer& drawn = frame;  // read without marking every row written
  harness::FrameSettings settings;
  settings.focal_pixels = 480;
  uint64_t frames = 0;
  for (auto _ : state) {
    frames = 0;
    uint64_t faces = 0;
    for (const auto& item : corpus) {
      fa::Interpreter interp(item.shape);
      for (const auto& imports : item.states) {
        fa::RunState rs;
        rs.imports = imports;
        frame.clear(0);
        harness::FrameRenderer renderer(frame, settings);
        interp.run(rs, renderer);
        faces += renderer.faces_filled();
        benchmark::DoNotOptimize(drawn.pixels().data());
        ++frames;
      }
    }
    benchmark::DoNotOptimize(faces);
  }
  report_corpus_frames(state, frames);
}
BENCHMARK(BM_CorpusAllArticulationStatesReused)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
