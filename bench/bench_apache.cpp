// Apache benchmarks (figures for closing notes, not tests), over a generated 1,300-record archive
// like the reference 3DOBJS.BIN (1,314 records):
//  - records rendered per second (default state, 640x480, shadows on);
//  - ns per executed opcode when only faces are consumed (the interpreter alone);
//  - ns per executed opcode with every event built (a trace-like sink);
//  - ns per executed opcode of one record run again and again (the viewer's and debugger's case),
//    and of each record's first run in an interpreter of its own (a batch's case);
//  - a run's setup apart from its cost per opcode.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench/bench_main.h"
#include "harness/frame_renderer.h"
#include "interp/apache/assembler.h"
#include "interp/apache/generator.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/palette.h"

using namespace shapevm;

namespace {

struct Corpus {
  apache::AssembledArchive assembled;
  std::unique_ptr<apache::Archive> archive;
  std::unique_ptr<apache::TextureArchive> textures;
  apache::ShadingTables tables;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    out.assembled = apache::assemble_apache(apache::generate_apache_archive(1, 1300), "bench.apa");
    out.archive = std::make_unique<apache::Archive>(out.assembled.archive, "3DOBJS.BIN");
    out.textures = std::make_unique<apache::TextureArchive>(out.assembled.textures, "OBJTEXT.BIN");
    out.tables = apache::build_shading_tables(apache::default_3dpal());
    return out;
  }();
  return c;
}

// The state every benchmark runs: the defaults, with animation bits that take branches both ways.
apache::RunState bench_state() {
  apache::RunState s;
  s.anim = 0x13;
  return s;
}

struct FaceCounter : EventSink {
  uint64_t faces = 0;
  bool wants_control() const override { return false; }
  void on_face(const FaceEvent&) override { ++faces; }
};

struct EverythingSink : EventSink {
  uint64_t events = 0;
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent&) override { ++events; }
  void on_branch(const BranchEvent&) override { ++events; }
  void on_call(const CallEvent&) override { ++events; }
  void on_face(const FaceEvent&) override { ++events; }
};

void BM_ApacheRenderArchive(benchmark::State& state) {
  const Corpus& c = corpus();
  std::vector<raster::Texture> textures;
  for (const auto& t : c.textures->textures())
    textures.push_back(apache::to_raster_texture(t, false));
  raster::Framebuffer frame(640, 480);
  apache::Interpreter interp(*c.archive, c.tables, c.textures.get());
  const apache::RunState s = bench_state();
  uint64_t records = 0, faces = 0;
  for (auto _ : state) {
    for (const auto& rec : c.archive->records()) {
      frame.clear(0);
      harness::FrameRenderer renderer(frame, {}, [&](std::string_view) { return &textures[0]; });
      auto r = interp.run(rec.index, s, renderer);
      faces += r.faces + r.shadow_faces;
      ++records;
    }
    benchmark::DoNotOptimize(frame.pixels().data());
  }
  state.counters["records_per_s"] =
      benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["faces_per_record"] = static_cast<double>(faces) / static_cast<double>(records);
}
BENCHMARK(BM_ApacheRenderArchive)->Unit(benchmark::kMillisecond);

// Time per executed opcode: the benchmark's time divided by the opcodes its runs executed.
void report_time_per_op(benchmark::State& state, uint64_t ops) {
  state.counters["time_per_op"] = benchmark::Counter(
      static_cast<double>(ops), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <typename Sink>
void run_all(benchmark::State& state) {
  const Corpus& c = corpus();
  apache::Interpreter interp(*c.archive, c.tables, c.textures.get());
  const apache::RunState s = bench_state();
  uint64_t ops = 0;
  for (auto _ : state) {
    for (const auto& rec : c.archive->records()) {
      Sink sink;
      ops += interp.run(rec.index, s, sink).ops;
      benchmark::DoNotOptimize(sink);
    }
  }
  report_time_per_op(state, ops);
  state.counters["ops"] = static_cast<double>(ops);
}

void BM_ApacheInterpretFacesOnly(benchmark::State& state) {
  run_all<FaceCounter>(state);
}
void BM_ApacheInterpretAllEvents(benchmark::State& state) {
  run_all<EverythingSink>(state);
}
BENCHMARK(BM_ApacheInterpretFacesOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ApacheInterpretAllEvents)->Unit(benchmark::kMillisecond);

// Every record run once by an interpreter of its own, as a batch over an archive's records runs
// them (one program, so one interpreter, per record): the interpreter's first run, geometry read
// and instructions decoded included.
void BM_ApacheInterpretFirstRuns(benchmark::State& state) {
  const Corpus& c = corpus();
  const apache::RunState s = bench_state();
  uint64_t ops = 0;
  for (auto _ : state) {
    for (const auto& rec : c.archive->records()) {
      apache::Interpreter interp(*c.archive, c.tables, c.textures.get());
      FaceCounter sink;
      ops += interp.run(rec.index, s, sink).ops;
      benchmark::DoNotOptimize(sink);
    }
  }
  report_time_per_op(state, ops);
}
BENCHMARK(BM_ApacheInterpretFirstRuns)->Unit(benchmark::kMillisecond);

// One record run again and again, as the viewer redraws it each frame and the debugger re-runs it
// to step back: the record of the corpus that executes the most opcodes, faces only.
void BM_ApacheInterpretOneRecordAgain(benchmark::State& state) {
  const Corpus& c = corpus();
  apache::Interpreter interp(*c.archive, c.tables, c.textures.get());
  const apache::RunState s = bench_state();
  uint32_t busiest = 0;
  uint64_t most = 0;
  for (const auto& rec : c.archive->records()) {
    FaceCounter sink;
    const uint64_t ops = interp.run(rec.index, s, sink).ops;
    if (ops > most) most = ops, busiest = rec.index;
  }
  uint64_t ops = 0;
  for (auto _ : state) {
    FaceCounter sink;
    ops += interp.run(busiest, s, sink).ops;
    benchmark::DoNotOptimize(sink);
  }
  report_time_per_op(state, ops);
  state.counters["ops_per_run"] = static_cast<double>(most);
}
BENCHMARK(BM_ApacheInterpretOneRecordAgain)->Unit(benchmark::kMicrosecond);

// A run's fixed cost (the record's setup before its first opcode) apart from its cost per
// executed opcode, without a hook inside the interpreter: each record is timed on its own (the
// best of several runs), and a least-squares line through (opcodes, time) over the 1,300 records
// gives the setup as its intercept and the opcode as its slope.
void BM_ApacheSetupAndOpcode(benchmark::State& state) {
  const Corpus& c = corpus();
  apache::Interpreter interp(*c.archive, c.tables, c.textures.get());
  const apache::RunState s = bench_state();
  constexpr int kRunsPerRecord = 8;
  std::vector<double> ops_of, ns_of;
  for (auto _ : state) {
    ops_of.clear();
    ns_of.clear();
    for (const auto& rec : c.archive->records()) {
      double best = 1e300;
      uint64_t ops = 0;
      for (int run = 0; run < kRunsPerRecord; ++run) {
        FaceCounter sink;
        const auto start = std::chrono::steady_clock::now();
        ops = interp.run(rec.index, s, sink).ops;
        const auto end = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(sink);
        best = std::min(best, std::chrono::duration<double, std::nano>(end - start).count());
      }
      ops_of.push_back(static_cast<double>(ops));
      ns_of.push_back(best);
    }
  }
  const double n = static_cast<double>(ops_of.size());
  double sum_x = 0, sum_y = 0, sum_xx = 0, sum_xy = 0;
  for (size_t i = 0; i < ops_of.size(); ++i) {
    sum_x += ops_of[i];
    sum_y += ns_of[i];
    sum_xx += ops_of[i] * ops_of[i];
    sum_xy += ops_of[i] * ns_of[i];
  }
  const double slope = (n * sum_xy - sum_x * sum_y) / (n * sum_xx - sum_x * sum_x);
  state.counters["per_op_ns"] = slope;
  state.counters["setup_ns"] = (sum_y - slope * sum_x) / n;
  state.counters["mean_ops_per_record"] = sum_x / n;
}
BENCHMARK(BM_ApacheSetupAndOpcode)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
