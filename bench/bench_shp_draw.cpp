// Starlancer drawing benchmarks (figures for closing notes, not tests): models drawn per second
// into a 640x480 frame through the depth buffer, for a synthetic model of 6 parts (a hull and five
// hanging from it), each a 24 x 12 grid sphere of radius 150 (576 triangles per part, fans
// merged where flat), with 2 levels of detail; drawing alone into a face counter; and the
// generator's synthetic models.
#include <benchmark/benchmark.h>

#include <cmath>

#include "bench/bench_main.h"
#include "harness/frame_renderer.h"
#include "interp/shp/colour_tables.h"
#include "interp/shp/draw.h"
#include "interp/shp/draw_setup.h"
#include "interp/shp/generator.h"

using namespace shapevm;
using namespace shapevm::shp;

namespace {

Vec3 v3(double x, double y, double z) {
  return {F32::of(static_cast<float>(x)), F32::of(static_cast<float>(y)),
          F32::of(static_cast<float>(z))};
}

Level sphere(int slices, int stacks, double radius, float distance, uint32_t mode) {
  Level l;
  l.distance = F32::of(distance);
  for (int j = 0; j <= stacks; ++j) {
    const double phi = 3.14159265358979 * j / stacks;
    for (int i = 0; i < slices; ++i) {
      const double theta = 2 * 3.14159265358979 * i / slices;
      const double x = std::sin(phi) * std::cos(theta), y = std::cos(phi),
                   z = std::sin(phi) * std::sin(theta);
      Vertex v;
      v.position = v3(radius * x, radius * y, radius * z);
      v.normal = v3(x, y, z);
      l.vertices.push_back(v);
    }
  }
  auto at = [&](int i, int j) { return static_cast<uint32_t>(j * slices + (i % slices)); };
  for (int j = 0; j < stacks; ++j)
    for (int i = 0; i < slices; ++i)
      for (int t = 0; t < 2; ++t) {
        Face f;
        f.mode = mode;
        f.vertices = t == 0 ? std::array<uint32_t, 3>{at(i, j), at(i + 1, j), at(i, j + 1)}
                            : std::array<uint32_t, 3>{at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)};
        f.normal = l.vertices[f.vertices[0]].normal;
        f.flags = 0;
        l.faces.push_back(f);
      }
  return l;
}

const Model& model() {
  static const Model m = [] {
    Model out;
    for (int p = 0; p < 6; ++p) {
      Part part;
      part.name = "part" + std::to_string(p);
      part.parent = p == 0 ? -1 : 0;
      part.origin = v3(p == 0 ? 0 : 250 * std::cos(p), p == 0 ? 0 : 80 * std::sin(p),
                       p == 0 ? 0 : 200 * std::sin(p * 2.0));
      part.levels.push_back(sphere(24, 12, 150, 2000, p % 3 == 2 ? 2 : 0));
      part.levels.push_back(sphere(8, 4, 150, 6000, 0));
      out.parts.push_back(std::move(part));
    }
    return out;
  }();
  return m;
}

struct FaceCounter : EventSink {
  uint64_t faces = 0;
  bool wants_control() const override { return false; }
  void on_face(const FaceEvent&) override { ++faces; }
};

void BM_ShpModelsPerSecond(benchmark::State& state) {
  const Model& m = model();
  raster::Framebuffer frame(640, 480);
  StateRequest request;
  uint64_t models = 0;
  for (auto _ : state) {
    frame.clear(0);
    harness::FrameRenderer renderer(frame, shp_frame_settings(480));
    DrawContext ctx(renderer);
    ctx.source = "bench.shp";
    ctx.max_steps = 10000000;
    benchmark::DoNotOptimize(draw_model(m, request, ctx));
    ++models;
  }
  state.counters["models_per_s"] =
      benchmark::Counter(static_cast<double>(models), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ShpModelsPerSecond)->Unit(benchmark::kMillisecond);

void BM_ShpDrawOnly(benchmark::State& state) {
  const Model& m = model();
  StateRequest request;
  uint64_t faces = 0, models = 0;
  for (auto _ : state) {
    FaceCounter sink;
    DrawContext ctx(sink);
    ctx.source = "bench.shp";
    ctx.max_steps = 10000000;
    benchmark::DoNotOptimize(draw_model(m, request, ctx));
    faces += sink.faces;
    ++models;
  }
  state.counters["models_per_s"] =
      benchmark::Counter(static_cast<double>(models), benchmark::Counter::kIsRate);
  state.counters["faces_per_model"] = static_cast<double>(faces) / static_cast<double>(models);
}
BENCHMARK(BM_ShpDrawOnly)->Unit(benchmark::kMicrosecond);

// Part A's generator's synthetic models (fighters, capital ships, debris), 64 of them, each drawn
// once per iteration into a 640x480 frame.
void BM_ShpGeneratedModelsPerSecond(benchmark::State& state) {
  static const std::vector<Model> models = [] {
    std::vector<Model> out;
    for (uint32_t i = 0; i < 64; ++i) out.push_back(generate_model(1, i));
    return out;
  }();
  raster::Framebuffer frame(640, 480);
  StateRequest request;
  uint64_t drawn = 0, faces = 0;
  for (auto _ : state) {
    for (const Model& m : models) {
      frame.clear(0);
      harness::FrameRenderer renderer(frame, shp_frame_settings(480));
      DrawContext ctx(renderer);
      ctx.source = "bench.shp";
      ctx.max_steps = 10000000;
      faces += draw_model(m, request, ctx).faces;
      ++drawn;
    }
    benchmark::DoNotOptimize(frame.pixels().data());
  }
  state.counters["models_per_s"] =
      benchmark::Counter(static_cast<double>(drawn), benchmark::Counter::kIsRate);
  state.counters["faces_per_model"] = static_cast<double>(faces) / static_cast<double>(drawn);
}
BENCHMARK(BM_ShpGeneratedModelsPerSecond)->Unit(benchmark::kMillisecond);

// The colour tables of a palette, built afresh each iteration: every palette differs in its first
// entry, so the per-palette cache never answers. With both blend tables (a model with added and
// alpha faces) and without (the blend tables are built on first use).
void BM_ShpColourTables(benchmark::State& state) {
  const bool with_blends = state.range(0) != 0;
  raster::Palette palette = raster::default_palette();
  uint8_t variant = 0;
  for (auto _ : state) {
    palette.colors[0] = {variant, static_cast<uint8_t>(variant * 7), 3};
    ++variant;
    const auto tables = colour_tables(palette);
    if (with_blends) {
      benchmark::DoNotOptimize(tables->blend(Blend::kAdd).data());
      benchmark::DoNotOptimize(tables->blend(Blend::kAlpha).data());
    }
    benchmark::DoNotOptimize(tables->shade_rows.data());
  }
}
BENCHMARK(BM_ShpColourTables)->ArgName("blends")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
