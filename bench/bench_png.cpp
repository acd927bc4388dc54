// PNG encoding (figures for closing notes, not tests): the time to write a rendered 640x480 frame
// as `render` writes it (indexed) and as regress writes a diff image (RGB), over the frames of
// 64 generated FA shapes in their default state, and the bytes a frame takes; and the time to
// read those frames back as regress reads its captures, indexed as shapevm writes them and RGB
// as a screenshot tool may.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench/bench_main.h"
#include "bench/fa_frame.h"
#include "bench/generated_fa.h"
#include "raster/diff_image.h"
#include "raster/palette.h"
#include "raster/png_io.h"

using namespace shapevm;

namespace {

const std::vector<raster::Framebuffer>& generated_frames() {
  static const std::vector<raster::Framebuffer> frames = [] {
    std::vector<raster::Framebuffer> out;
    const fa::RunState state;
    for (uint32_t i = 0; i < 64; ++i) {
      out.push_back(bench::render_fa_frame(bench::generated_fa_shape(i), state, 640, 480).frame);
    }
    return out;
  }();
  return frames;
}

void report(benchmark::State& state, size_t frames, size_t bytes) {
  // Seconds per frame written (printed with an SI prefix, e.g. "60u" = 60 us).
  state.counters["per_frame"] =
      benchmark::Counter(static_cast<double>(frames) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes/frame"] = static_cast<double>(bytes) / static_cast<double>(frames);
}

void BM_EncodePngIndexed(benchmark::State& state) {
  const auto& frames = generated_frames();
  const raster::Palette palette = raster::default_palette();
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& frame : frames) bytes += raster::encode_indexed_png(frame, palette).size();
  }
  report(state, frames.size(), bytes);
}
BENCHMARK(BM_EncodePngIndexed);

void BM_EncodePngRgb(benchmark::State& state) {
  std::vector<raster::RgbImage> images;
  for (const auto& frame : generated_frames())
    images.push_back(raster::frame_to_rgb(frame, raster::default_palette()));
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& image : images) bytes += raster::encode_rgb_png(image).size();
  }
  report(state, images.size(), bytes);
}
BENCHMARK(BM_EncodePngRgb);

// How fast what the encoder writes is read back: regress decodes a capture for every case.
void BM_DecodePngIndexed(benchmark::State& state) {
  const raster::Palette palette = raster::default_palette();
  std::vector<std::vector<uint8_t>> files;
  size_t bytes = 0;
  for (const auto& frame : generated_frames()) {
    files.push_back(raster::encode_indexed_png(frame, palette));
    bytes += files.back().size();
  }
  for (auto _ : state)
    for (const auto& file : files)
      benchmark::DoNotOptimize(raster::decode_png(file, "frame").frame.pixels().data());
  report(state, files.size(), bytes);
}
BENCHMARK(BM_DecodePngIndexed);

// An RGB capture (a screenshot tool's), read back and mapped onto the palette pixel by pixel.
void BM_DecodePngRgbCapture(benchmark::State& state) {
  const raster::Palette palette = raster::default_palette();
  std::vector<std::vector<uint8_t>> files;
  size_t bytes = 0;
  for (const auto& frame : generated_frames()) {
    files.push_back(raster::encode_rgb_png(raster::frame_to_rgb(frame, palette)));
    bytes += files.back().size();
  }
  for (auto _ : state)
    for (const auto& file : files)
      benchmark::DoNotOptimize(raster::decode_png(file, "capture", &palette).frame.pixels().data());
  report(state, files.size(), bytes);
}
BENCHMARK(BM_DecodePngRgbCapture);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
