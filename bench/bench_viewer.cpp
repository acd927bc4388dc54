// The viewer's frame loop: one engine frame per iteration through the engine-neutral session and
// the FA adapter (run the shape with the x86 sandbox, fill the 320x240 frame, count events), and
// the same plus the PNG encoding the headless mode does per frame.
//   bench_viewer --benchmark_filter=Viewer
#include <benchmark/benchmark.h>

#include "bench/bench_main.h"
#include "harness/viewer_session.h"
#include "interp/fa/shape_input.h"
#include "interp/fa/viewer_model.h"
#include "raster/png_io.h"

namespace {

using namespace shapevm;

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

const fa::Shape& jet() {
  static const fa::Shape shape = fa::load_shape_spec(kJet);
  return shape;
}

fa::FaViewerModel make_jet(bool lod0_gear) {
  StateRequest o;
  if (lod0_gear) {
    o.options = {{"lod", "0"}};
    o.sets = {"_PLgearDown=1"};
  }
  return fa::FaViewerModel(jet(), o, {}, RenderSetup{raster::default_palette(), {}, {}});
}

void BM_ViewerFrame(benchmark::State& st) {
  auto engine = make_jet(st.range(0) != 0);
  harness::ViewerSession session(engine, 320, 240);
  uint64_t faces = 0;
  for (auto _ : st) {
    session.step_frames(1);
    faces += session.stats().faces_drawn;
    benchmark::DoNotOptimize(session.frame().pixels().data());
  }
  st.counters["frames/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["faces/frame"] = static_cast<double>(faces) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_ViewerFrame)->Arg(0)->Arg(1)->ArgName("lod0_gear");

void BM_ViewerHeadlessFrame(benchmark::State& st) {
  auto engine = make_jet(st.range(0) != 0);
  harness::ViewerSession session(engine, 320, 240);
  for (auto _ : st) {
    session.step_frames(1);
    auto png = raster::encode_indexed_png(session.frame(), session.palette());
    benchmark::DoNotOptimize(png.data());
  }
  st.counters["frames/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ViewerHeadlessFrame)->Arg(0)->Arg(1)->ArgName("lod0_gear");

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
