// Debugger costs (figures for closing notes, not tests). Every debugger move re-runs the shape
// from the start (harness/debugger.h), so a move costs about one run with the debug hook
// attached; these measure that on a 2,000-opcode control-flow shape and a 400-face geometry
// shape, positioned in the middle of the run:
//  - a step forward and a step back (each one run),
//  - reverse-continue (two runs),
//  - the hook's own cost per opcode (a run to the end through the debugger vs a plain run).
#include <benchmark/benchmark.h>

#include <filesystem>

#include "bench/bench_main.h"
#include "core/file_io.h"
#include "harness/debugger.h"
#include "harness/program_debug_engine.h"
#include "interp/common/registry.h"
#include "interp/fa/assembler.h"
#include "interp/fa/interpreter.h"

using namespace shapevm;

namespace {

std::string control_flow_text() {
  std::string t = ".header radius_world=0 radius=100 scale=8 extents=1,1,1\n";
  for (int i = 0; i < 500; ++i) {
    const std::string n = std::to_string(i);
    t += "Unmask @f" + n + "\n ShortJump @j" + n + "\nf" + n + ":\n JumpToFrame @g" + n + "\ng" +
         n + ":\n ShortEOF\nj" + n + ":\n";
  }
  return t + "ShortEOF\n";
}

std::string geometry_text() {
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
  return t + "ShortEOF\n";
}

std::string shape_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("shapevm-bench-" + name + ".SH");
  auto a = fa::assemble_fa(text, name + ".fas");
  write_file_atomic(path, a.file);
  return path.string();
}

const std::string& shape_path(int which) {
  static const std::string control = shape_file("control", control_flow_text());
  static const std::string geometry = shape_file("geometry", geometry_text());
  return which == 0 ? control : geometry;
}

struct Session {
  explicit Session(int which)
      : engine(open_program(shape_path(which), {}), StateRequest{}), debugger(engine) {
    debugger.restart();
    debugger.cont();  // to the end, to learn the length
    total = debugger.current().steps;
    debugger.restart();
    debugger.step(total / 2);
  }
  harness::ProgramDebugEngine engine;
  harness::Debugger debugger;
  uint64_t total = 0;
};

void BM_StepThenBack(benchmark::State& state) {
  Session s(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    s.debugger.step();
    s.debugger.back();
  }
  state.counters["ops_per_run"] = static_cast<double>(s.total);
  state.counters["per_move"] =
      benchmark::Counter(static_cast<double>(state.iterations() * 2),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_StepThenBack)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_ReverseContinue(benchmark::State& state) {
  Session s(static_cast<int>(state.range(0)));
  const uint64_t tick = s.debugger.current().tick;
  harness::Breakpoint b;
  b.kind = harness::BreakKind::kOffset;
  b.number = 14;  // the first instruction: reverse-continue scans the whole prefix
  s.debugger.add_breakpoint(b);
  for (auto _ : state) {
    s.debugger.reverse_continue();
    s.debugger.goto_tick(tick);
  }
}
BENCHMARK(BM_ReverseContinue)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// A plain run (no sink wants anything) vs the same run through the debugger to its end.
void BM_PlainRun(benchmark::State& state) {
  auto shape = fa::load_shape(
      fa::assemble_fa(state.range(0) == 0 ? control_flow_text() : geometry_text(), "bench.fas")
          .file,
      "bench.SH");
  fa::Interpreter interp(shape);
  fa::RunState rs;
  EventSink sink;
  for (auto _ : state) benchmark::DoNotOptimize(interp.run(rs, sink).ops);
}
BENCHMARK(BM_PlainRun)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_DebuggedRunToEnd(benchmark::State& state) {
  Session s(static_cast<int>(state.range(0)));
  for (auto _ : state) s.debugger.goto_tick(UINT64_MAX);
}
BENCHMARK(BM_DebuggedRunToEnd)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
