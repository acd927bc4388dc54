// PNG encoding (figures for closing notes, not tests): the time to write a rendered 640x480 frame
// as `render` writes it (indexed) and as regress writes a diff image (RGB), over the frames of
// 64 generated FA shapes in their default state, and the bytes a frame takes; and the time to
// read those frames back as regress reads its captures: indexed as shapevm writes them, indexed
// as a zlib-based tool writes them, and RGB as a screenshot tool may.
#include <benchmark/benchmark.h>
#include <libdeflate.h>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_main.h"
#include "bench/fa_frame.h"
#include "bench/generated_fa.h"
#include "core/byte_reader.h"
#include "raster/diff_image.h"
#include "raster/palette.h"
#include "raster/png_fast_write.h"
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

// Reads back the generated frames, each written as `file_of(frame, palette)`: through decode_png
// (mapping RGB ones onto the default palette), or `decode`.
template <class FileOf, class Decode>
void decode_frames(benchmark::State& state, FileOf file_of, Decode decode) {
  const raster::Palette palette = raster::default_palette();
  std::vector<std::vector<uint8_t>> files;
  size_t bytes = 0;
  for (const auto& frame : generated_frames()) {
    files.push_back(file_of(frame, palette));
    bytes += files.back().size();
  }
  for (auto _ : state)
    for (const auto& file : files) benchmark::DoNotOptimize(decode(file));
  report(state, files.size(), bytes);
}
template <class FileOf>
void decode_frames(benchmark::State& state, FileOf file_of) {
  decode_frames(state, file_of, [](const std::vector<uint8_t>& file) {
    static const raster::Palette palette = raster::default_palette();
    return raster::decode_png(file, "capture", &palette).frame.pixels().data();
  });
}

// How fast what the encoder writes is read back: regress decodes a capture for every case.
void BM_DecodePngIndexed(benchmark::State& state) {
  decode_frames(state, raster::encode_indexed_png);
}
BENCHMARK(BM_DecodePngIndexed);

// `png` with each chunk's data passed through `edit(type, data)`, and written anew with its
// length and CRC.
template <class Edit>
std::vector<uint8_t> with_chunks_edited(const std::vector<uint8_t>& png, Edit edit) {
  std::vector<uint8_t> out(raster::kPngSignature.begin(), raster::kPngSignature.end());
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t length = load_u32_be(&png[at]);
    const std::string type(png.begin() + static_cast<std::ptrdiff_t>(at + 4),
                           png.begin() + static_cast<std::ptrdiff_t>(at + 8));
    std::vector<uint8_t> data(png.begin() + static_cast<std::ptrdiff_t>(at + 8),
                              png.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
    edit(std::string_view(type), data);
    raster::append_png_chunk(out, type, data);
    at += 12 + size_t{length};
  }
  return out;
}

// `bytes` compressed as a zlib stream by libdeflate at level 6, as a zlib-based tool's writer
// would compress them.
std::vector<uint8_t> zlib_level6(std::span<const uint8_t> bytes) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::vector<uint8_t> stream(libdeflate_zlib_compress_bound(c, bytes.size()));
  stream.resize(
      libdeflate_zlib_compress(c, bytes.data(), bytes.size(), stream.data(), stream.size()));
  libdeflate_free_compressor(c);
  return stream;
}

// `png` with its IDAT data inflated and compressed again by libdeflate at level 6, as another
// tool's zlib-based writer would have compressed it (the chunks otherwise as they were).
std::vector<uint8_t> recompressed_level6(const std::vector<uint8_t>& png) {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::vector<uint8_t> out =
      with_chunks_edited(png, [&](std::string_view type, std::vector<uint8_t>& data) {
        if (type != "IDAT") return;
        std::vector<uint8_t> rows(8 << 20);
        size_t got = 0;
        libdeflate_zlib_decompress(d, data.data(), data.size(), rows.data(), rows.size(), &got);
        data = zlib_level6({rows.data(), got});
      });
  libdeflate_free_decompressor(d);
  return out;
}

// The same frames as captures another tool wrote, its zlib stream compressed at level 6.
void BM_DecodePngIndexedLevel6(benchmark::State& state) {
  decode_frames(state, [](const raster::Framebuffer& frame, const raster::Palette& palette) {
    return recompressed_level6(raster::encode_indexed_png(frame, palette));
  });
}
BENCHMARK(BM_DecodePngIndexedLevel6);

// The frames with a palette only as long as their highest index needs, as capture tools and PNG
// optimisers write one: the reader must then check every index against the palette's length.
void BM_DecodePngIndexedShortPalette(benchmark::State& state) {
  decode_frames(state, [](const raster::Framebuffer& frame, const raster::Palette& palette) {
    uint8_t highest = 0;
    for (uint8_t index : frame.pixels()) highest = std::max(highest, index);
    return with_chunks_edited(raster::encode_indexed_png(frame, palette),
                              [&](std::string_view type, std::vector<uint8_t>& data) {
                                if (type == "PLTE") data.resize(3 * (size_t{highest} + 1));
                              });
  });
}
BENCHMARK(BM_DecodePngIndexedShortPalette);

// The frames' indices folded to 4 bits (index & 15) and written packed two to a byte with a
// 16-entry palette, as a PNG optimiser writes a frame of few colours (zlib level 6).
void BM_DecodePngIndexed4Bit(benchmark::State& state) {
  decode_frames(state, [](const raster::Framebuffer& frame, const raster::Palette& palette) {
    const size_t width = static_cast<size_t>(frame.width());
    const size_t row_bytes = (width + 1) / 2;
    std::vector<uint8_t> rows;
    for (int y = 0; y < frame.height(); ++y) {
      rows.push_back(0);  // filter: none
      const size_t start = rows.size();
      rows.resize(start + row_bytes);
      for (size_t x = 0; x < width; ++x)
        rows[start + x / 2] |=
            static_cast<uint8_t>((frame.at(static_cast<int>(x), y) & 15) << (x % 2 == 0 ? 4 : 0));
    }
    const std::vector<uint8_t> stream = zlib_level6(rows);
    // shapevm's own file of the frame, its header, palette and data made the packed image's.
    return with_chunks_edited(raster::encode_indexed_png(frame, palette),
                              [&](std::string_view type, std::vector<uint8_t>& data) {
                                if (type == "IHDR") data[8] = 4;  // the bit depth
                                if (type == "PLTE") data.resize(3 * 16);
                                if (type == "IDAT") data = stream;
                              });
  });
}
BENCHMARK(BM_DecodePngIndexed4Bit);

// An RGB capture (a screenshot tool's), read back and mapped onto the palette pixel by pixel.
void BM_DecodePngRgbCapture(benchmark::State& state) {
  decode_frames(state, [](const raster::Framebuffer& frame, const raster::Palette& palette) {
    return raster::encode_rgb_png(raster::frame_to_rgb(frame, palette));
  });
}
BENCHMARK(BM_DecodePngRgbCapture);

// A regress case's mask (nonzero = not compared), read for every case that names one: the
// generated frames as indexed masks, as an image editor would save one.
void BM_DecodeMaskPng(benchmark::State& state) {
  decode_frames(state, raster::encode_indexed_png, [](const std::vector<uint8_t>& file) {
    return raster::decode_mask_png(file, "mask").pixels().data();
  });
}
BENCHMARK(BM_DecodeMaskPng);

// The same masks saved as RGB, as an image editor exports a mask painted over a screenshot
// (nonzero = any colour but black).
void BM_DecodeMaskPngRgb(benchmark::State& state) {
  decode_frames(
      state,
      [](const raster::Framebuffer& frame, const raster::Palette& palette) {
        return raster::encode_rgb_png(raster::frame_to_rgb(frame, palette));
      },
      [](const std::vector<uint8_t>& file) {
        return raster::decode_mask_png(file, "mask").pixels().data();
      });
}
BENCHMARK(BM_DecodeMaskPngRgb);

}  // namespace

SHAPEVM_BENCHMARK_MAIN()
