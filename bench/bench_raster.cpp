// Fill rate of the rasterizer: flat, Gouraud, affine and perspective triangles of about 400 pixels
// and a full-screen quad at 640x480, and the clear of a 640x480 frame as the floor. Styled fills
// (Apache's meshes, shaded linear textures and glass) each run twice: as fill_styled writes them,
// and through the per-pixel reference it is tested against (the "Reference" figures). So do the
// depth-tested fills Starlancer's faces take (shaded; textured, perspective, repeating and
// shaded; shaded and added to the frame without writing depth), into a 640x480 depth buffer. The
// "pixels/s" counter is the rate that matters; the triangle figures also include per-polygon set-up
// (edge walk, YLR table), which dominates small faces.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "bench/bench_main.h"
#include "bench/painted_pixels.h"
#include "raster/depth_fill.h"
#include "raster/fixed_point.h"
#include "raster/framebuffer.h"
#include "raster/polygon_fill.h"
#include "raster/projection.h"
#include "raster/texture.h"

namespace {

using namespace shapevm::raster;
using shapevm::bench::painted_pixels;

enum class Kind {
  kFlat,
  kGouraud,
  kAffine,
  kPerspective,
  kMesh,
  kShadedTexture,
  kGlass,
  kDepthShaded,
  kDepthShadedTexture,
  kDepthAdded
};

ScreenVertex vertex(int32_t x, int32_t y, int32_t u, int32_t v, int32_t shade, int32_t inv_w) {
  ScreenVertex out;
  out.x = to_fixed(x);
  out.y = to_fixed(y);
  out.u = to_fixed(u);
  out.v = to_fixed(v);
  out.shade = to_fixed(shade);
  out.inv_w = inv_w;
  return out;
}

Texture checker_texture() {
  Texture texture;
  texture.width = 64;
  texture.height = 64;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x)
      texture.pixels.push_back(static_cast<uint8_t>(((x ^ y) & 8) ? 40 : 200));
  }
  texture.transparent_index = Texture::kNoTransparency;
  return texture;
}

// 16 intensity rows of 256 entries, for the shaded kinds of both fills.
std::span<const uint8_t> shade_rows() {
  static const std::vector<uint8_t> rows = [] {
    std::vector<uint8_t> out(16 * 256);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7 + i / 256);
    return out;
  }();
  return rows;
}

// The three styled kinds: a fine mesh in one colour, a linearly addressed texture through 16
// intensity rows, and a remap of what is already in the frame.
SurfaceStyle style_of(Kind kind, const Texture& texture) {
  static const std::vector<uint8_t> remap = [] {
    std::vector<uint8_t> out(256);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i + 1);
    return out;
  }();
  SurfaceStyle style;
  style.color = 17;
  if (kind == Kind::kMesh) style.pattern = 0xA5A5;
  if (kind == Kind::kShadedTexture) {
    style.texture = &texture;
    style.linear_addressing = true;
    style.shade_rows = shade_rows();
  }
  if (kind == Kind::kGlass) style.remap = remap;
  return style;
}

// The depth-tested styles: 16 shade rows throughout; a repeating texture drawn in perspective;
// an added blend (a table of 65536) that leaves the depth buffer alone.
DepthStyle depth_style_of(Kind kind, const Texture& texture) {
  static const std::vector<uint8_t> added = [] {
    std::vector<uint8_t> out(65536);
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<uint8_t>(std::min<size_t>(255, (i >> 8) + (i & 255)));
    return out;
  }();
  DepthStyle style;
  style.color = 17;
  style.shade_rows = shade_rows();
  if (kind == Kind::kDepthShadedTexture) {
    style.texture = &texture;
    style.perspective = true;
    style.repeat = true;
  }
  if (kind == Kind::kDepthAdded) {
    style.blend = added;
    style.depth_write = false;
  }
  return style;
}

bool reference_fill = false;  // set by the "Reference" benchmarks

void fill(Kind kind, Framebuffer& frame, const std::vector<ScreenVertex>& polygon,
          const Texture& texture) {
  switch (kind) {
    case Kind::kMesh:
    case Kind::kShadedTexture:
    case Kind::kGlass:
      if (reference_fill) {
        fill_styled_reference(frame, polygon, style_of(kind, texture));
      } else {
        fill_styled(frame, polygon, style_of(kind, texture));
      }
      break;
    case Kind::kDepthShaded:
    case Kind::kDepthShadedTexture:
    case Kind::kDepthAdded: {
      // Every pass draws the same polygon again, which passes the depth test (>=) each time.
      static DepthBuffer depth(640, 480);
      if (reference_fill) {
        fill_depth_reference(frame, &depth, polygon, depth_style_of(kind, texture));
      } else {
        fill_depth(frame, &depth, polygon, depth_style_of(kind, texture));
      }
      break;
    }
    case Kind::kFlat:
      fill_flat(frame, polygon, 17);
      break;
    case Kind::kGouraud:
      fill_gouraud(frame, polygon);
      break;
    case Kind::kAffine:
      fill_textured_affine(frame, polygon, texture);
      break;
    case Kind::kPerspective:
      fill_textured_perspective(frame, polygon, texture);
      break;
  }
}

void run(benchmark::State& state, Kind kind, const std::vector<ScreenVertex>& polygon) {
  Framebuffer frame(640, 480, 0);
  const Texture texture = checker_texture();
  fill(kind, frame, polygon, texture);
  const size_t pixels = painted_pixels(frame);
  for (auto _ : state) {
    fill(kind, frame, polygon, texture);
    benchmark::DoNotOptimize(frame.pixels().data());
    benchmark::ClobberMemory();
  }
  state.counters["pixels"] = static_cast<double>(pixels);
  state.counters["pixels/s"] =
      benchmark::Counter(static_cast<double>(pixels) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

// A right triangle with 28-pixel legs: 28 * 29 / 2 = 406 pixels.
std::vector<ScreenVertex> small_triangle() {
  return {vertex(100, 100, 0, 0, 40, kInvWOne), vertex(128, 100, 63, 0, 60, kInvWOne / 2),
          vertex(100, 128, 0, 63, 50, kInvWOne / 3)};
}

// A tilted quad about the size of a generated corpus's average face (25 rows of about 17 pixels,
// its corners between pixels): the corpus's fills are mostly such quads.
std::vector<ScreenVertex> small_quad() {
  const auto at = [](double x, double y) {
    ScreenVertex out;
    out.x = static_cast<Fixed>(x * kFixedOne);
    out.y = static_cast<Fixed>(y * kFixedOne);
    out.inv_w = kInvWOne;
    return out;
  };
  return {at(100.3, 100.7), at(118.6, 104.2), at(116.1, 127.9), at(97.8, 124.4)};
}

std::vector<ScreenVertex> full_screen_quad() {
  return {vertex(0, 0, 0, 0, 10, kInvWOne), vertex(640, 0, 63, 0, 200, kInvWOne / 4),
          vertex(640, 480, 63, 63, 100, kInvWOne / 4), vertex(0, 480, 0, 63, 30, kInvWOne)};
}

void BM_TriangleFlat(benchmark::State& state) {
  run(state, Kind::kFlat, small_triangle());
}
void BM_TriangleGouraud(benchmark::State& state) {
  run(state, Kind::kGouraud, small_triangle());
}
void BM_TriangleAffine(benchmark::State& state) {
  run(state, Kind::kAffine, small_triangle());
}
void BM_TrianglePerspective(benchmark::State& state) {
  run(state, Kind::kPerspective, small_triangle());
}
void BM_QuadFlat(benchmark::State& state) {
  run(state, Kind::kFlat, small_quad());
}
void BM_FullScreenFlat(benchmark::State& state) {
  run(state, Kind::kFlat, full_screen_quad());
}
void BM_FullScreenGouraud(benchmark::State& state) {
  run(state, Kind::kGouraud, full_screen_quad());
}
void BM_FullScreenAffine(benchmark::State& state) {
  run(state, Kind::kAffine, full_screen_quad());
}
void BM_FullScreenPerspective(benchmark::State& state) {
  run(state, Kind::kPerspective, full_screen_quad());
}

template <Kind kKind, bool kTriangle, bool kReference>
void BM_Styled(benchmark::State& state) {
  reference_fill = kReference;
  run(state, kKind, kTriangle ? small_triangle() : full_screen_quad());
  reference_fill = false;
}
BENCHMARK(BM_Styled<Kind::kMesh, true, false>)->Name("BM_TriangleMesh");
BENCHMARK(BM_Styled<Kind::kMesh, true, true>)->Name("BM_TriangleMeshReference");
BENCHMARK(BM_Styled<Kind::kShadedTexture, true, false>)->Name("BM_TriangleShadedTexture");
BENCHMARK(BM_Styled<Kind::kShadedTexture, true, true>)->Name("BM_TriangleShadedTextureReference");
BENCHMARK(BM_Styled<Kind::kGlass, true, false>)->Name("BM_TriangleGlass");
BENCHMARK(BM_Styled<Kind::kGlass, true, true>)->Name("BM_TriangleGlassReference");
BENCHMARK(BM_Styled<Kind::kMesh, false, false>)->Name("BM_FullScreenMesh");
BENCHMARK(BM_Styled<Kind::kMesh, false, true>)->Name("BM_FullScreenMeshReference");
BENCHMARK(BM_Styled<Kind::kShadedTexture, false, false>)->Name("BM_FullScreenShadedTexture");
BENCHMARK(BM_Styled<Kind::kShadedTexture, false, true>)
    ->Name("BM_FullScreenShadedTextureReference");
BENCHMARK(BM_Styled<Kind::kGlass, false, false>)->Name("BM_FullScreenGlass");
BENCHMARK(BM_Styled<Kind::kGlass, false, true>)->Name("BM_FullScreenGlassReference");
BENCHMARK(BM_Styled<Kind::kDepthShaded, true, false>)->Name("BM_TriangleDepthShaded");
BENCHMARK(BM_Styled<Kind::kDepthShaded, true, true>)->Name("BM_TriangleDepthShadedReference");
BENCHMARK(BM_Styled<Kind::kDepthShadedTexture, true, false>)->Name("BM_TriangleDepthShadedTexture");
BENCHMARK(BM_Styled<Kind::kDepthShadedTexture, true, true>)
    ->Name("BM_TriangleDepthShadedTextureReference");
BENCHMARK(BM_Styled<Kind::kDepthAdded, true, false>)->Name("BM_TriangleDepthAdded");
BENCHMARK(BM_Styled<Kind::kDepthAdded, true, true>)->Name("BM_TriangleDepthAddedReference");
BENCHMARK(BM_Styled<Kind::kDepthShaded, false, false>)->Name("BM_FullScreenDepthShaded");
BENCHMARK(BM_Styled<Kind::kDepthShadedTexture, false, false>)
    ->Name("BM_FullScreenDepthShadedTexture");
BENCHMARK(BM_Styled<Kind::kDepthAdded, false, false>)->Name("BM_FullScreenDepthAdded");

// The floor under every frame: clearing a 640x480 frame to the background.
void BM_Clear640x480(benchmark::State& state) {
  Framebuffer frame(640, 480, 0);
  uint8_t index = 0;
  for (auto _ : state) {
    frame.clear(++index);
    benchmark::DoNotOptimize(frame.pixels().data());
    benchmark::ClobberMemory();
  }
  state.counters["pixels/s"] = benchmark::Counter(
      640.0 * 480.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Clear640x480);

// Where 4,096 view points land (project_position: the two divisions by depth), the work an
// Apache model's placement does per vertex and a projection cache's miss per corner. The points
// are spread over a few thousand units each way and in depth, as a model's vertices are.
void BM_ProjectPositions(benchmark::State& state) {
  const Projection projection = make_projection(640, 480, 320, 16);
  std::vector<ViewVertex> points(4096);
  uint32_t seed = 12345;
  auto next = [&seed](int32_t span) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int32_t>((seed >> 8) % static_cast<uint32_t>(span));
  };
  for (ViewVertex& p : points) {
    p.x = next(8001) - 4000;
    p.y = next(8001) - 4000;
    p.z = 16 + next(20000);
  }
  for (auto _ : state) {
    int64_t sum = 0;
    for (const ViewVertex& p : points) {
      Fixed x = 0, y = 0;
      project_position(projection, p.x, p.y, p.z, x, y);
      sum += x ^ y;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.counters["points/s"] = benchmark::Counter(
      static_cast<double>(points.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ProjectPositions);
BENCHMARK(BM_TriangleFlat);
BENCHMARK(BM_TriangleGouraud);
BENCHMARK(BM_TriangleAffine);
BENCHMARK(BM_TrianglePerspective);
BENCHMARK(BM_QuadFlat);
BENCHMARK(BM_FullScreenFlat);
BENCHMARK(BM_FullScreenGouraud);
BENCHMARK(BM_FullScreenAffine);
BENCHMARK(BM_FullScreenPerspective);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
