// Interpreter and frame benchmarks (figures for closing notes, not tests):
//  - ns per executed opcode, threaded vs switch dispatch, on a control-flow-only stream and on a
//    geometry-heavy one, and threaded on chains of one control-flow opcode each (jumps, calls and
//    returns, frame tables);
//  - frames per second rendering the jet example at 640x480;
//  - the default state of 1,275 generated shapes, run and rendered.
#include <benchmark/benchmark.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "bench/bench_main.h"
#include "bench/fa_frame.h"
#include "bench/generated_fa.h"
#include "bench/painted_pixels.h"
#include "harness/frame_renderer.h"
#include "interp/fa/assembler.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/predecoded_code.h"

using namespace shapevm;

namespace {

// Counts faces, as a frame renderer would consume the run (no control-flow events).
struct CountingSink : EventSink {
  uint64_t faces = 0;
  bool wants_control() const override { return false; }
  void on_face(const FaceEvent&) override { ++faces; }
};

fa::Shape assemble(const std::string& text) {
  auto a = fa::assemble_fa(text, "bench.fas");
  return fa::load_shape(a.file, "bench.SH");
}

// 2,000 jumps chained through Unmask calls and frame tables: control flow only.
const fa::Shape& control_flow_shape() {
  static const fa::Shape shape = [] {
    std::string t = ".header radius_world=0 radius=100 scale=8 extents=1,1,1\n";
    for (int i = 0; i < 500; ++i) {
      t += "Unmask @f" + std::to_string(i) + "\n ShortJump @j" + std::to_string(i) + "\nf" +
           std::to_string(i) + ":\n JumpToFrame @g" + std::to_string(i) + "\ng" +
           std::to_string(i) + ":\n ShortEOF\nj" + std::to_string(i) + ":\n";
    }
    t += "ShortEOF\n";
    return assemble(t);
  }();
  return shape;
}

// `count` repeats of `step(n)`, the n-th's text, in one shape: chains of control-flow opcodes.
fa::Shape repeated_shape(int count, const std::function<std::string(const std::string&)>& step) {
  std::string t = ".header radius_world=0 radius=100 scale=8 extents=1,1,1\n";
  for (int i = 0; i < count; ++i) t += step(std::to_string(i));
  t += "ShortEOF\n";
  return assemble(t);
}
// 2,000 jumps or frame tables, each going on to the next; 1,000 Unmask calls of a ShortEOF, each
// followed by a ShortJump (a third of the opcodes each): the dispatch's cost per kind.
const fa::Shape& jump_chain_shape() {
  static const fa::Shape shape = repeated_shape(
      2000, [](const std::string& n) { return "ShortJump @j" + n + "\nj" + n + ":\n"; });
  return shape;
}
const fa::Shape& call_chain_shape() {
  static const fa::Shape shape = repeated_shape(1000, [](const std::string& n) {
    return "Unmask @f" + n + "\nShortJump @j" + n + "\nf" + n + ":\nShortEOF\nj" + n + ":\n";
  });
  return shape;
}
const fa::Shape& frame_chain_shape() {
  static const fa::Shape shape = repeated_shape(
      2000, [](const std::string& n) { return "JumpToFrame @g" + n + "\ng" + n + ":\n"; });
  return shape;
}

const fa::Shape& geometry_shape() {
  static const fa::Shape shape = [] {
    std::string t =
        ".header radius_world=0 radius=100 scale=8 extents=100,100,100\nVertexBuffer at=0\n";
    for (int i = 0; i < 200; ++i)
      t += " v " + std::to_string(i % 20 * 5) + ", " + std::to_string(i / 20 * 5) + ", 0\n";
    for (int i = 0; i < 400; ++i) {
      const int a = i % 180;
      t += "Face content=0 layout=0 color=" + std::to_string(16 + i % 64) +
           " shadow=0 idx=" + std::to_string(a) + "," + std::to_string(a + 1) + "," +
           std::to_string(a + 20) + "\n";
    }
    t += "ShortEOF\n";
    return assemble(t);
  }();
  return shape;
}

void run_ops(benchmark::State& state, const fa::Shape& shape, fa::Dispatch dispatch) {
  fa::Interpreter interp(shape);
  fa::RunState rs;
  CountingSink sink;
  uint64_t ops = 0;
  for (auto _ : state) {
    auto r = interp.run(rs, sink, dispatch);
    ops += r.ops;
  }
  // Seconds per executed opcode (printed with an SI prefix, e.g. "2.1n" = 2.1 ns).
  state.counters["per_op"] = benchmark::Counter(
      static_cast<double>(ops), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_ControlFlowThreaded(benchmark::State& s) {
  run_ops(s, control_flow_shape(), fa::Dispatch::kThreaded);
}
void BM_ControlFlowSwitch(benchmark::State& s) {
  run_ops(s, control_flow_shape(), fa::Dispatch::kSwitch);
}
void BM_GeometryThreaded(benchmark::State& s) {
  run_ops(s, geometry_shape(), fa::Dispatch::kThreaded);
}
void BM_GeometrySwitch(benchmark::State& s) {
  run_ops(s, geometry_shape(), fa::Dispatch::kSwitch);
}
// One chain of a single control-flow opcode kind, threaded (BM_Chain/Jump, /Call, /Frame).
void BM_Chain(benchmark::State& s, const fa::Shape& (*shape)()) {
  run_ops(s, shape(), fa::Dispatch::kThreaded);
}
BENCHMARK(BM_ControlFlowThreaded);
BENCHMARK_CAPTURE(BM_Chain, Jump, &jump_chain_shape);
BENCHMARK_CAPTURE(BM_Chain, Call, &call_chain_shape);
BENCHMARK_CAPTURE(BM_Chain, Frame, &frame_chain_shape);
BENCHMARK(BM_ControlFlowSwitch);
BENCHMARK(BM_GeometryThreaded);
BENCHMARK(BM_GeometrySwitch);

void BM_RenderGeometry640x480(benchmark::State& state) {
  const fa::Shape& shape = geometry_shape();
  fa::RunState rs;
  rs.camera = {400, 150, 20};
  for (auto _ : state) {
    const auto f = bench::render_fa_frame(shape, rs, 640, 480);
    // Read as a tool reads a finished frame, through a const view: the writable pixels() would
    // mark every row written, and the next frame made in this one's block would fill all of them.
    benchmark::DoNotOptimize(f.frame.pixels().data());
  }
  state.counters["fps"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RenderGeometry640x480);

// The same frame drawn again and again as the viewer draws it: one interpreter and one
// framebuffer for every frame, the frame cleared (only the rows the last frame drew) before each.
void BM_RenderGeometry640x480Steady(benchmark::State& state) {
  const fa::Shape& shape = geometry_shape();
  fa::RunState rs;
  rs.camera = {400, 150, 20};
  fa::Interpreter interp(shape);
  raster::Framebuffer frame(640, 480, 0);
  harness::FrameSettings settings;
  settings.focal_pixels = 480;
  const raster::Framebuffer& drawn = frame;  // read without marking every row written
  for (auto _ : state) {
    frame.clear(0);
    harness::FrameRenderer renderer(frame, settings);
    interp.run(rs, renderer);
    benchmark::DoNotOptimize(drawn.pixels().data());
  }
  state.counters["fps"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  // The fill rate beside the frame rate: the pixels the frame shows (faces drawn over by later
  // faces count once, so this is the least the fills wrote), per second of the whole frame.
  const auto shown = static_cast<double>(bench::painted_pixels(drawn));
  state.counters["pixels"] = shown;
  state.counters["pixels/s"] = benchmark::Counter(shown * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RenderGeometry640x480Steady);

const std::vector<fa::Shape>& generated_corpus() {
  static const std::vector<fa::Shape> corpus = [] {
    std::vector<fa::Shape> v;
    for (uint32_t i = 0; i < 1275; ++i) v.push_back(bench::generated_fa_shape(i));
    return v;
  }();
  return corpus;
}

// What a fresh frame pays before its first opcode: the interpreter made for a shape (the static
// walk, and the vertices, LOD thresholds and x86 regions it finds), for the 400-face shape and
// for each shape of the generated corpus. A run then decodes the instructions it reaches.
void BM_OpenGeometryShape(benchmark::State& state) {
  const fa::Shape& shape = geometry_shape();
  for (auto _ : state) {
    fa::Interpreter interp(shape);
    benchmark::DoNotOptimize(interp.lod_thresholds().data());
  }
}
BENCHMARK(BM_OpenGeometryShape)->Unit(benchmark::kMicrosecond);

void BM_OpenGeneratedCorpus(benchmark::State& state) {
  const std::vector<fa::Shape>& corpus = generated_corpus();
  for (auto _ : state) {
    for (const auto& shape : corpus) {
      fa::Interpreter interp(shape);
      benchmark::DoNotOptimize(interp.lod_thresholds().data());
    }
  }
  state.counters["shapes"] = static_cast<double>(corpus.size());
}
BENCHMARK(BM_OpenGeneratedCorpus)->Unit(benchmark::kMillisecond);

void BM_RenderGeneratedCorpus(benchmark::State& state) {
  const std::vector<fa::Shape>& corpus = generated_corpus();
  fa::RunState rs;
  const uint64_t tables_before = fa::PredecodedCode::storages_allocated();
  for (auto _ : state) {
    uint64_t faces = 0;
    for (const auto& shape : corpus)
      faces += bench::render_fa_frame(shape, rs, 640, 480).faces_filled;
    benchmark::DoNotOptimize(faces);
  }
  state.counters["shapes"] = 1275;
  // Pre-decoded tables allocated, per pass over the corpus: a fresh table takes the storage the
  // last table of its size class left (predecoded_code.h), so the first pass allocates one per
  // class and the later ones none.
  state.counters["tables_allocated"] =
      static_cast<double>(fa::PredecodedCode::storages_allocated() - tables_before) /
      static_cast<double>(state.iterations());
  // The pixels the corpus's frames show (faces drawn over count once: the least the fills
  // wrote), counted outside the timed loop, for the fill rate beside the time.
  uint64_t shown = 0;
  for (const auto& shape : corpus)
    shown += bench::painted_pixels(bench::render_fa_frame(shape, rs, 640, 480).frame);
  state.counters["pixels"] = static_cast<double>(shown);
  state.counters["pixels/s"] =
      benchmark::Counter(static_cast<double>(shown) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RenderGeneratedCorpus)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
