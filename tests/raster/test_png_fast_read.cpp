// The libdeflate reader of 8-bit indexed PNGs (raster/png_fast_read.h) against libpng: every file
// it accepts decodes to exactly what libpng gives (indices, palette, entry count), over every row
// filter, split IDATs and ancillary chunks; files it must leave to libpng (bad CRC, other bit
// depths, interlace, a truncated or over-long stream, indices past the palette, no IEND) are
// declined, and decode_png then reports what libpng reports.
#include <doctest/doctest.h>
#include <libdeflate.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "raster/png_fast_read.h"
#include "raster/png_io.h"

namespace raster_png_fast_read_tests {

using namespace shapevm;
using namespace shapevm::raster;

namespace {

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void put_chunk(std::vector<uint8_t>& out, const char* type, const std::vector<uint8_t>& data,
               bool good_crc = true) {
  put_be32(out, static_cast<uint32_t>(data.size()));
  std::vector<uint8_t> typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  out.insert(out.end(), typed.begin(), typed.end());
  put_be32(out, libdeflate_crc32(0, typed.data(), typed.size()) ^ (good_crc ? 0u : 1u));
}

uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<uint8_t>(a);
  if (pb <= pc) return static_cast<uint8_t>(b);
  return static_cast<uint8_t>(c);
}

// The filtered scanlines of `pixels` (width x height, one byte each), row y with filter
// filters[y % filters.size()].
std::vector<uint8_t> filter_rows(const std::vector<uint8_t>& pixels, int width, int height,
                                 const std::vector<uint8_t>& filters) {
  std::vector<uint8_t> out;
  for (int y = 0; y < height; ++y) {
    const uint8_t f = filters[static_cast<size_t>(y) % filters.size()];
    out.push_back(f);
    for (int x = 0; x < width; ++x) {
      auto px = [&](int xx, int yy) -> int {
        return xx < 0 || yy < 0 ? 0 : pixels[static_cast<size_t>(yy * width + xx)];
      };
      const int raw = px(x, y), a = px(x - 1, y), b = px(x, y - 1), c = px(x - 1, y - 1);
      int v = raw;
      if (f == 1) v = raw - a;
      if (f == 2) v = raw - b;
      if (f == 3) v = raw - (a + b) / 2;
      if (f == 4) v = raw - paeth(a, b, c);
      out.push_back(static_cast<uint8_t>(v));
    }
  }
  return out;
}

std::vector<uint8_t> zlib(const std::vector<uint8_t>& data) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::vector<uint8_t> out(libdeflate_zlib_compress_bound(c, data.size()));
  out.resize(libdeflate_zlib_compress(c, data.data(), data.size(), out.data(), out.size()));
  libdeflate_free_compressor(c);
  REQUIRE(!out.empty());
  return out;
}

struct PngSpec {
  int width = 37;
  int height = 23;
  int palette_entries = 256;
  int max_index = 255;
  std::vector<uint8_t> filters;  // empty: 0, 1, 2, 3, 4 in turn
  size_t idat_parts = 1;
  bool ancillary = false;
  uint8_t bit_depth = 8;
  uint8_t interlace = 0;
  bool bad_crc_on_idat = false;
  bool end_chunk = true;
  int stream_extra_rows = 0;  // negative: rows missing from the stream
  bool trailing_bytes = false;
  uint32_t seed = 1;
};

std::vector<uint8_t> make_png(const PngSpec& spec) {
  std::mt19937 random(spec.seed);
  std::vector<uint8_t> pixels(static_cast<size_t>(spec.width * spec.height));
  for (auto& p : pixels)
    p = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, spec.max_index)(random));
  // Runs of one index, as a frame's background has.
  for (int y = 0; y < spec.height; y += 3)
    std::memset(pixels.data() + y * spec.width, 0, static_cast<size_t>(spec.width));
  const int rows = spec.height + spec.stream_extra_rows;
  std::vector<uint8_t> filters = spec.filters;
  if (filters.empty())
    for (uint8_t f = 0; f <= 4; ++f) filters.push_back(f);
  std::vector<uint8_t> scan = filter_rows(pixels, spec.width, spec.height, filters);
  if (spec.stream_extra_rows > 0) {
    // Further rows past the image's height.
    for (int i = 0; i < spec.stream_extra_rows * (spec.width + 1); ++i) scan.push_back(0);
  }
  scan.resize(static_cast<size_t>(rows * (spec.width + 1)));
  const std::vector<uint8_t> stream = zlib(scan);

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, static_cast<uint32_t>(spec.width));
  put_be32(ihdr, static_cast<uint32_t>(spec.height));
  ihdr.insert(ihdr.end(), {spec.bit_depth, 3, 0, 0, spec.interlace});
  put_chunk(png, "IHDR", ihdr);
  if (spec.ancillary) put_chunk(png, "tEXt", {'A', 0, 'b'});
  std::vector<uint8_t> plte;
  for (int i = 0; i < spec.palette_entries; ++i)
    plte.insert(plte.end(), {static_cast<uint8_t>(i), static_cast<uint8_t>(255 - i),
                             static_cast<uint8_t>(i * 7)});
  put_chunk(png, "PLTE", plte);
  if (spec.ancillary) put_chunk(png, "tRNS", {0, 255});
  const size_t part = (stream.size() + spec.idat_parts - 1) / spec.idat_parts;
  for (size_t at = 0; at < stream.size(); at += part) {
    const size_t n = std::min(part, stream.size() - at);
    put_chunk(png, "IDAT", std::vector<uint8_t>(stream.begin() + at, stream.begin() + at + n),
              !spec.bad_crc_on_idat);
  }
  if (spec.ancillary) put_chunk(png, "tIME", {7, 234, 12, 2, 6, 0, 0});
  if (spec.end_chunk) put_chunk(png, "IEND", {});
  if (spec.trailing_bytes) png.insert(png.end(), {1, 2, 3});
  return png;
}

void check_same_as_libpng(const std::vector<uint8_t>& png) {
  const std::optional<IndexedImage> fast = decode_indexed8_png(png);
  REQUIRE(fast.has_value());
  const IndexedImage reference = decode_png_libpng(png, "test.png");
  CHECK(fast->frame == reference.frame);
  CHECK(fast->palette.colors == reference.palette.colors);
  CHECK(fast->palette_entries == reference.palette_entries);
  CHECK(fast->mapped_from_rgb == reference.mapped_from_rgb);
}

}  // namespace

TEST_CASE("fast PNG read: the same indices and palette as libpng") {
  SUBCASE("every filter type, row by row") {
    check_same_as_libpng(make_png({}));
  }
  for (uint8_t f = 0; f <= 4; ++f) {
    CAPTURE(int{f});
    PngSpec spec;
    spec.filters = {f};
    check_same_as_libpng(make_png(spec));
  }
  SUBCASE("split IDATs and ancillary chunks") {
    PngSpec spec;
    spec.idat_parts = 7;
    spec.ancillary = true;
    check_same_as_libpng(make_png(spec));
  }
  SUBCASE("a short palette, every index inside it") {
    PngSpec spec;
    spec.palette_entries = 16;
    spec.max_index = 15;
    check_same_as_libpng(make_png(spec));
  }
  SUBCASE("bytes after IEND") {
    PngSpec spec;
    spec.trailing_bytes = true;
    check_same_as_libpng(make_png(spec));
  }
  SUBCASE("one pixel, and a wide frame") {
    PngSpec one;
    one.width = one.height = 1;
    check_same_as_libpng(make_png(one));
    PngSpec wide;
    wide.width = 640;
    wide.height = 48;
    check_same_as_libpng(make_png(wide));
  }
  SUBCASE("shapevm's own captures") {
    Framebuffer frame(64, 40, 3);
    for (int y = 10; y < 30; ++y)
      for (int x = 5; x < 50; ++x) frame.set(x, y, static_cast<uint8_t>(x * y));
    check_same_as_libpng(encode_indexed_png(frame, default_palette()));
  }
}

TEST_CASE("fast PNG read: declines what libpng must judge; decode_png still answers as libpng") {
  std::vector<PngSpec> declined(9);
  declined[0].bit_depth = 4;
  declined[0].width = 2;  // 4-bit: still a valid PNG, other depth
  declined[1].interlace = 1;
  declined[2].bad_crc_on_idat = true;
  declined[3].end_chunk = false;
  declined[4].stream_extra_rows = -2;
  declined[5].stream_extra_rows = 2;
  declined[6].palette_entries = 16;  // indices up to 255 with a 16-entry palette
  declined[7].filters = {5};         // no such filter type
  declined[8].palette_entries = 16;
  declined[8].max_index = 16;  // one index just past it
  for (size_t i = 0; i < declined.size(); ++i) {
    CAPTURE(i);
    const std::vector<uint8_t> png = make_png(declined[i]);
    CHECK_FALSE(decode_indexed8_png(png).has_value());
    std::string libpng_error, decode_error;
    std::optional<IndexedImage> via_libpng, via_decode;
    try {
      via_libpng = decode_png_libpng(png, "x.png");
    } catch (const InputError& e) {
      libpng_error = e.what();
    }
    try {
      via_decode = decode_png(png, "x.png");
    } catch (const InputError& e) {
      decode_error = e.what();
    }
    CHECK(decode_error == libpng_error);
    REQUIRE(via_decode.has_value() == via_libpng.has_value());
    if (via_decode) CHECK(via_decode->frame == via_libpng->frame);
  }
}

TEST_CASE("fast PNG read: not a PNG, cut short anywhere") {
  CHECK_FALSE(decode_indexed8_png(std::vector<uint8_t>{}).has_value());
  CHECK_FALSE(decode_indexed8_png(std::vector<uint8_t>{'P', 'N', 'G'}).has_value());
  const std::vector<uint8_t> png = make_png({});
  REQUIRE(decode_indexed8_png(png).has_value());
  // Every prefix short of IEND's end is declined (a bounds check on every field).
  for (size_t n = 0; n + 1 < png.size(); ++n)
    CHECK_FALSE(decode_indexed8_png(std::span(png.data(), n)).has_value());
}

}  // namespace raster_png_fast_read_tests
