// Battle Isle 2 benchmarks (figures for closing notes, not tests), over the generated archives
// with the seed's record counts (240 units, 288 terrain objects, 96 scenery lists):
//  - meshes read and rendered per second (default state, 640x480), units and terrain;
//  - TPWM unpacking in MB/s of output, on a literal-packed stream, on one of references, and on
//    the generated meshes packed with references as the game's files are.
#include <benchmark/benchmark.h>

#include "bench/bench_main.h"
#include "harness/frame_renderer.h"
#include "interp/bi2/draw.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/mesh.h"
#include "interp/bi2/run_state.h"
#include "interp/bi2/tpwm.h"

using namespace shapevm;

namespace {

std::vector<bi2::Mesh> corpus() {
  std::vector<bi2::Mesh> out;
  for (const auto& f : bi2::generate_archives(1, bi2::kGeneratedUnits)) {
    if (f.name != "UN3D000.LIB" && f.name != "LAND000.LIB") continue;
    const bi2::LibArchive lib(f.bytes, f.name);
    for (const auto& m : lib.members()) out.push_back(bi2::read_mesh(lib.decoded(m), m.name));
  }
  return out;
}

void BM_Bi2RenderMeshes(benchmark::State& state) {
  static const std::vector<bi2::Mesh> meshes = corpus();
  raster::Framebuffer frame(640, 480);
  StateRequest request;
  bi2::RunState s = bi2::run_state(request, 1);
  uint64_t rendered = 0, faces = 0;
  for (auto _ : state) {
    for (const auto& mesh : meshes) {
      frame.clear(0);
      FrameSettings settings;
      settings.near_z = 16;
      harness::FrameRenderer renderer(frame, settings);
      const std::vector<bi2::Instance> one = {{&mesh, {0, 0, 0}, -1, 0}};
      faces += bi2::run_draw(one, s, renderer, nullptr).faces;
      ++rendered;
    }
    benchmark::DoNotOptimize(frame.pixels().data());
  }
  state.counters["meshes_per_s"] =
      benchmark::Counter(static_cast<double>(rendered), benchmark::Counter::kIsRate);
  state.counters["faces_per_mesh"] = static_cast<double>(faces) / static_cast<double>(rendered);
}
BENCHMARK(BM_Bi2RenderMeshes)->Unit(benchmark::kMillisecond);

void BM_Bi2TpwmLiterals(benchmark::State& state) {
  std::vector<uint8_t> data(1 << 20);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 2654435761u >> 24);
  const auto packed = bi2::tpwm_pack_literal(data);
  for (auto _ : state) benchmark::DoNotOptimize(bi2::tpwm_unpack(packed, "bench").data());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Bi2TpwmLiterals)->Unit(benchmark::kMillisecond);

void BM_Bi2TpwmReferences(benchmark::State& state) {
  // One literal, then references of 18 bytes at distance 1..4095: 1 MB of output.
  constexpr uint32_t kSize = 1 << 20;
  std::vector<uint8_t> packed = {'T', 'P', 'W', 'M', 0, 0, 0x10, 0};
  packed.insert(packed.end(), {0x7F, 'x', 0x0F, 0x01, 0x0F, 0x01, 0x0F, 0x01, 0x0F, 0x01, 0x0F,
                               0x01, 0x0F, 0x01, 0x0F, 0x01});
  for (int block = 0; block < 2; ++block) {  // 127 + 288 bytes before the first distance 256
    packed.push_back(0xFF);
    for (int i = 0; i < 8; ++i) packed.insert(packed.end(), {0x0F, 0x01});
  }
  while (packed.size() < kSize / 18 * 3) {
    packed.push_back(0xFF);
    for (int i = 0; i < 8; ++i) packed.insert(packed.end(), {0x1F, 0x00});  // distance 256
  }
  for (auto _ : state) benchmark::DoNotOptimize(bi2::tpwm_unpack(packed, "bench").data());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kSize);
}
BENCHMARK(BM_Bi2TpwmReferences)->Unit(benchmark::kMillisecond);

// Every generated unit and terrain mesh, packed with the matching packer.
void BM_Bi2TpwmMatchedMeshes(benchmark::State& state) {
  static const auto packed = [] {
    std::vector<std::vector<uint8_t>> out;
    for (const auto& f : bi2::generate_archives(1, bi2::kGeneratedUnits)) {
      if (f.name != "UN3D000.LIB" && f.name != "LAND000.LIB") continue;
      const bi2::LibArchive lib(f.bytes, f.name);
      for (const auto& m : lib.members()) out.push_back(bi2::tpwm_pack(lib.decoded(m)));
    }
    return out;
  }();
  int64_t bytes = 0;
  for (auto _ : state) {
    for (const auto& stream : packed) {
      const auto out = bi2::tpwm_unpack(stream, "bench");
      bytes += static_cast<int64_t>(out.size());
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_Bi2TpwmMatchedMeshes)->Unit(benchmark::kMicrosecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
