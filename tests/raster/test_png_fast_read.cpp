// The libdeflate reader of 8-bit indexed PNGs (raster/png_fast_read.h) against libpng: every file
// it accepts decodes to exactly what libpng gives (indices, palette, entry count), over every row
// filter, split IDATs and ancillary chunks; files it must leave to libpng (bad CRC, other bit
// depths, interlace, a truncated or over-long stream, indices past the palette, no IEND) are
// declined, and decode_png then reports what libpng reports.
#include <doctest/doctest.h>
#include <libdeflate.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "raster/colour_index.h"
#include "raster/diff_image.h"
#include "raster/palette.h"
#include "raster/png_fast_read.h"
#include "raster/png_fast_write.h"
#include "raster/png_io.h"

namespace raster_png_fast_read_tests {

using namespace shapevm;
using namespace shapevm::raster;

namespace {

// A chunk as the encoder writes one, its CRC's lowest bit flipped unless `good_crc`.
void put_chunk(std::vector<uint8_t>& out, const char* type, const std::vector<uint8_t>& data,
               bool good_crc = true) {
  append_png_chunk(out, type, data);
  if (!good_crc) out.back() ^= 1;
}

uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<uint8_t>(a);
  if (pb <= pc) return static_cast<uint8_t>(b);
  return static_cast<uint8_t>(c);
}

// The filtered scanlines of `pixels` (width x height, `bpp` bytes each), row y with filter
// filters[y % filters.size()]; a byte's left neighbour is the same byte of the pixel before.
std::vector<uint8_t> filter_rows(const std::vector<uint8_t>& pixels, int width, int height,
                                 const std::vector<uint8_t>& filters, int bpp = 1) {
  std::vector<uint8_t> out;
  const int row_bytes = width * bpp;
  for (int y = 0; y < height; ++y) {
    const uint8_t f = filters[static_cast<size_t>(y) % filters.size()];
    out.push_back(f);
    for (int x = 0; x < row_bytes; ++x) {
      auto px = [&](int xx, int yy) -> int {
        return xx < 0 || yy < 0 ? 0 : pixels[static_cast<size_t>(yy * row_bytes + xx)];
      };
      const int raw = px(x, y), a = px(x - bpp, y), b = px(x, y - 1), c = px(x - bpp, y - 1);
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
  size_t stream_bytes_dropped = 0;  // the zlib stream cut short by this many bytes
  uint32_t seed = 1;
  int poke_at = -1;  // a pixel (row-major) given poke_value after the others are made
  uint8_t poke_value = 0;
};

// One sample a byte (its low `depth` bits), width x height, packed `depth` bits a sample (8 / depth
// to a byte, the first in the highest bits, a row's last byte padded with zero bits).
std::vector<uint8_t> pack_samples(const std::vector<uint8_t>& samples, int width, int height,
                                  int depth) {
  if (depth == 8) return samples;
  const int row_bytes = (width * depth + 7) / 8;
  std::vector<uint8_t> out(static_cast<size_t>(row_bytes * height));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int bit = x * depth;
      const uint8_t v = samples[static_cast<size_t>(y * width + x)] & ((1 << depth) - 1);
      out[static_cast<size_t>(y * row_bytes + bit / 8)] |=
          static_cast<uint8_t>(v << (8 - depth - bit % 8));
    }
  }
  return out;
}

std::vector<uint8_t> make_png(const PngSpec& spec) {
  std::mt19937 random(spec.seed);
  std::vector<uint8_t> pixels(static_cast<size_t>(spec.width * spec.height));
  for (auto& p : pixels)
    p = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, spec.max_index)(random));
  // Runs of one index, as a frame's background has.
  for (int y = 0; y < spec.height; y += 3)
    std::memset(pixels.data() + y * spec.width, 0, static_cast<size_t>(spec.width));
  if (spec.poke_at >= 0) pixels[static_cast<size_t>(spec.poke_at)] = spec.poke_value;
  const int rows = spec.height + spec.stream_extra_rows;
  std::vector<uint8_t> filters = spec.filters;
  if (filters.empty())
    for (uint8_t f = 0; f <= 4; ++f) filters.push_back(f);
  const int depth = spec.bit_depth == 16 ? 8 : spec.bit_depth;  // 16: laid out as 8, declined
  const int row_bytes = (spec.width * depth + 7) / 8;
  std::vector<uint8_t> scan = filter_rows(pack_samples(pixels, spec.width, spec.height, depth),
                                          row_bytes, spec.height, filters);
  if (spec.stream_extra_rows > 0) {
    // Further rows past the image's height.
    for (int i = 0; i < spec.stream_extra_rows * (row_bytes + 1); ++i) scan.push_back(0);
  }
  scan.resize(static_cast<size_t>(rows * (row_bytes + 1)));
  std::vector<uint8_t> stream = zlib(scan);
  stream.resize(stream.size() - spec.stream_bytes_dropped);

  std::vector<uint8_t> png(kPngSignature.begin(), kPngSignature.end());
  std::vector<uint8_t> ihdr;
  append_u32_be(ihdr, static_cast<uint32_t>(spec.width));
  append_u32_be(ihdr, static_cast<uint32_t>(spec.height));
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

// An RGB (3 channels) or RGBA (4) capture, or a grey (1) or grey-and-alpha (2) image: `colours`
// (RGB triples; a grey image takes each one's red) laid out as the pixels given by
// `colour_of(x, y)`, alpha `alpha(x, y)` where there is an alpha channel.
struct RgbSpec {
  int width = 41;
  int height = 23;
  int channels = 3;
  std::vector<uint8_t> filters;  // empty: 0, 1, 2, 3, 4 in turn
  uint8_t bit_depth = 8;
  uint8_t interlace = 0;
  bool trns = false;
  bool plte = false;
  size_t idat_parts = 1;
};

std::vector<uint8_t> make_rgb_png(const RgbSpec& spec, const std::vector<Rgb>& colours,
                                  const std::function<size_t(int, int)>& colour_of,
                                  const std::function<uint8_t(int, int)>& alpha = nullptr) {
  const int bpp = std::max(1, spec.channels * (spec.bit_depth / 8));
  std::vector<uint8_t> pixels;
  for (int y = 0; y < spec.height; ++y) {
    for (int x = 0; x < spec.width; ++x) {
      const Rgb& c = colours[colour_of(x, y) % colours.size()];
      std::vector<uint8_t> samples = {c.r};
      if (spec.channels >= 3) samples.insert(samples.end(), {c.g, c.b});
      if (spec.channels % 2 == 0) samples.push_back(alpha ? alpha(x, y) : 255);
      for (uint8_t v : samples) {
        // Packed grey keeps the sample's top bits.
        pixels.push_back(spec.bit_depth < 8 ? static_cast<uint8_t>(v >> (8 - spec.bit_depth)) : v);
        if (spec.bit_depth == 16) pixels.push_back(0x5A);  // a low byte libpng strips
      }
    }
  }
  std::vector<uint8_t> filters = spec.filters;
  if (filters.empty())
    for (uint8_t f = 0; f <= 4; ++f) filters.push_back(f);
  std::vector<uint8_t> scan;
  if (spec.bit_depth < 8) {  // grey, packed: a filter's byte to the left is the byte before
    const int row_bytes = (spec.width * spec.bit_depth + 7) / 8;
    scan = filter_rows(pack_samples(pixels, spec.width, spec.height, spec.bit_depth), row_bytes,
                       spec.height, filters);
  } else {
    scan = filter_rows(pixels, spec.width, spec.height, filters, bpp);
  }
  const std::vector<uint8_t> stream = zlib(scan);

  std::vector<uint8_t> png(kPngSignature.begin(), kPngSignature.end());
  std::vector<uint8_t> ihdr;
  append_u32_be(ihdr, static_cast<uint32_t>(spec.width));
  append_u32_be(ihdr, static_cast<uint32_t>(spec.height));
  constexpr uint8_t kColourType[] = {0, 0, 4, 2, 6};  // by channels: grey, grey+alpha, RGB, RGBA
  ihdr.insert(ihdr.end(), {spec.bit_depth, kColourType[spec.channels], 0, 0, spec.interlace});
  put_chunk(png, "IHDR", ihdr);
  put_chunk(png, "gAMA", {0, 0, 0xB1, 0x8F});  // ancillary: skipped, as libpng's path does
  if (spec.plte) put_chunk(png, "PLTE", {1, 2, 3});
  if (spec.trns && spec.channels == 1) put_chunk(png, "tRNS", {0, colours[0].r});
  if (spec.trns && spec.channels == 3)
    put_chunk(png, "tRNS", {0, colours[0].r, 0, colours[0].g, 0, colours[0].b});
  const size_t part = (stream.size() + spec.idat_parts - 1) / spec.idat_parts;
  for (size_t at = 0; at < stream.size(); at += part) {
    const size_t n = std::min(part, stream.size() - at);
    put_chunk(png, "IDAT", std::vector<uint8_t>(stream.begin() + at, stream.begin() + at + n));
  }
  put_chunk(png, "IEND", {});
  return png;
}

// `decode()` and `reference()` give equal results (`same` checks them) or throw the same
// InputError: a file the fast reader declines is answered as libpng's path answers it.
template <class Decode, class Reference, class Same>
void check_same_answer(Decode decode, Reference reference, Same same) {
  std::string reference_error, decode_error;
  std::optional<decltype(reference())> via_reference, via_decode;
  try {
    via_reference = reference();
  } catch (const InputError& e) {
    reference_error = e.what();
  }
  try {
    via_decode = decode();
  } catch (const InputError& e) {
    decode_error = e.what();
  }
  CHECK(decode_error == reference_error);
  REQUIRE(via_decode.has_value() == via_reference.has_value());
  if (via_decode) same(*via_decode, *via_reference);
}

// `spec` with what the fast reader leaves to libpng, one at a time: a tRNS chunk, a suggested
// palette (in a grey image, one the format forbids), 16-bit samples, interlace, a filter type
// that does not exist.
std::vector<RgbSpec> declined_variants(const RgbSpec& spec) {
  std::vector<RgbSpec> out(5, spec);
  out[0].trns = true;
  out[1].plte = true;
  out[2].bit_depth = 16;
  out[3].interlace = 1;
  out[4].filters = {5};
  return out;
}

// decode_png's answer and libpng's for `png` mapped onto `palette`: the same image, or the
// same error.
void check_decode_as_libpng(const std::vector<uint8_t>& png, const Palette& palette) {
  check_same_answer([&] { return decode_png(png, "x.png", &palette); },
                    [&] { return decode_png_libpng(png, "x.png", &palette); },
                    [](const IndexedImage& decoded, const IndexedImage& reference) {
                      CHECK(decoded.frame == reference.frame);
                      CHECK(decoded.palette.colors == reference.palette.colors);
                      CHECK(decoded.palette_entries == reference.palette_entries);
                      CHECK(decoded.mapped_from_rgb == reference.mapped_from_rgb);
                    });
}

// Some of the palette's colours, the first one twice in the palette (at 5 and 200): it maps to 5.
Palette test_palette() {
  Palette p = default_palette();
  p.colors[200] = p.colors[5];
  return p;
}
std::vector<Rgb> palette_colours(const Palette& p) {
  return {p.colors[0], p.colors[5], p.colors[17], p.colors[99], p.colors[255], p.colors[200]};
}

// Runs longer and shorter than the reader's sixteen-pixel step, and single pixels.
size_t runs_and_noise(int x, int y) {
  if (y % 4 == 0) return 0;
  if (y % 4 == 1) return static_cast<size_t>(x / 19);
  return static_cast<size_t>(x * 7 + y * 3);
}

}  // namespace

TEST_CASE("fast PNG read: RGB and RGBA captures map onto the palette as libpng's path maps them") {
  const Palette palette = test_palette();
  const std::vector<Rgb> colours = palette_colours(palette);
  for (int channels : {3, 4}) {
    CAPTURE(channels);
    RgbSpec spec;
    spec.channels = channels;
    SUBCASE("every filter type, row by row") {
      const auto png = make_rgb_png(spec, colours, runs_and_noise);
      const std::optional<IndexedImage> fast = decode_rgb8_png(png, palette);
      REQUIRE(fast.has_value());
      CHECK(fast->mapped_from_rgb);
      CHECK(fast->frame.at(0, 0) == 0);
      check_decode_as_libpng(png, palette);
    }
    for (uint8_t f = 0; f <= 4; ++f) {
      CAPTURE(int{f});
      spec.filters = {f};
      spec.width = 64;
      const auto png = make_rgb_png(spec, colours, runs_and_noise);
      REQUIRE(decode_rgb8_png(png, palette).has_value());
      check_decode_as_libpng(png, palette);
    }
    SUBCASE("a colour the palette holds twice maps to its lower index") {
      const auto png = make_rgb_png(spec, colours, [](int, int) { return size_t{5}; });
      const std::optional<IndexedImage> fast = decode_rgb8_png(png, palette);
      REQUIRE(fast.has_value());
      CHECK(fast->frame.at(40, 22) == 5);
      check_decode_as_libpng(png, palette);
    }
    SUBCASE("one pixel, and split IDATs") {
      RgbSpec one = spec;
      one.width = one.height = 1;
      check_decode_as_libpng(make_rgb_png(one, colours, runs_and_noise), palette);
      spec.idat_parts = 5;
      const auto png = make_rgb_png(spec, colours, runs_and_noise);
      REQUIRE(decode_rgb8_png(png, palette).has_value());
      check_decode_as_libpng(png, palette);
    }
  }
  SUBCASE("shapevm's own RGB images") {
    Framebuffer frame(64, 40, 3);
    for (int y = 10; y < 30; ++y)
      for (int x = 5; x < 50; ++x) frame.set(x, y, static_cast<uint8_t>(x * y));
    const auto png = encode_rgb_png(frame_to_rgb(frame, default_palette()));
    const std::optional<IndexedImage> fast = decode_rgb8_png(png, default_palette());
    REQUIRE(fast.has_value());
    CHECK(fast->frame == frame);
  }
}

TEST_CASE("fast PNG read: RGB captures it must leave to libpng are declined, and named as before") {
  const Palette palette = test_palette();
  std::vector<Rgb> colours = palette_colours(palette);
  auto check_declined = [&](const std::vector<uint8_t>& png) {
    CHECK_FALSE(decode_rgb8_png(png, palette).has_value());
    check_decode_as_libpng(png, palette);
  };
  RgbSpec spec;
  SUBCASE("a colour not in the palette, after runs and as the very first pixel") {
    Rgb missing{1, 2, 3};
    REQUIRE_FALSE(ColourIndex(palette).find(1, 2, 3).has_value());
    colours.push_back(missing);
    check_declined(make_rgb_png(spec, colours, [&](int x, int y) {
      return x == 30 && y == 7 ? colours.size() - 1 : size_t{0};
    }));
    check_declined(make_rgb_png(spec, colours, [&](int, int) { return colours.size() - 1; }));
  }
  SUBCASE("black first where the palette has no black: no colour is taken for granted") {
    Palette no_black = palette;
    no_black.colors[0] = {9, 9, 9};
    spec.width = 48;  // whole rows of sixteen-pixel steps: no pixel left to look up one by one
    const auto png = make_rgb_png(spec, {Rgb{0, 0, 0}}, [](int, int) { return size_t{0}; });
    CHECK_FALSE(decode_rgb8_png(png, no_black).has_value());
    CHECK_THROWS_AS(decode_png(png, "x.png", &no_black), InputError);
  }
  SUBCASE("a translucent pixel, first and inside a run") {
    spec.channels = 4;
    check_declined(make_rgb_png(spec, colours, runs_and_noise, [](int x, int y) {
      return uint8_t(x == 33 && y == 4 ? 254 : 255);
    }));
    check_declined(make_rgb_png(
        spec, colours, [](int, int) { return size_t{0}; }, [](int, int) { return uint8_t{0}; }));
  }
  SUBCASE("tRNS, a suggested palette, 16-bit samples, interlace, an unknown filter") {
    for (const RgbSpec& declined : declined_variants(spec))
      check_declined(make_rgb_png(declined, colours, runs_and_noise));
  }
  SUBCASE("cut short anywhere") {
    const auto png = make_rgb_png(spec, colours, runs_and_noise);
    REQUIRE(decode_rgb8_png(png, palette).has_value());
    for (size_t n = 0; n + 1 < png.size(); ++n)
      CHECK_FALSE(decode_rgb8_png(std::span(png.data(), n), palette).has_value());
  }
}

TEST_CASE("colour index: the lowest index of a colour, none for a colour the palette lacks") {
  Palette p{};  // all black: black is index 0
  p.colors[7] = {10, 20, 30};
  p.colors[3] = {10, 20, 30};
  p.colors[255] = {255, 255, 255};
  const ColourIndex index(p);
  CHECK(index.find(0, 0, 0) == uint8_t{0});
  CHECK(index.find(10, 20, 30) == uint8_t{3});
  CHECK(index.find(255, 255, 255) == uint8_t{255});
  CHECK_FALSE(index.find(10, 20, 31).has_value());
  // 256 distinct colours: every one found at its own index.
  Palette all{};
  for (size_t i = 0; i < 256; ++i)
    all.colors[i] = {static_cast<uint8_t>(i), static_cast<uint8_t>(i * 3),
                     static_cast<uint8_t>(i ^ 0x55)};
  const ColourIndex full(all);
  for (size_t i = 0; i < 256; ++i) {
    const Rgb& c = all.colors[i];
    CHECK(full.find(c.r, c.g, c.b) == static_cast<uint8_t>(i));
  }
  CHECK_FALSE(full.find(1, 2, 3).has_value());
}

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
  declined[0].bit_depth = 16;  // 16-bit indices: not a valid PNG, libpng's to reject
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
    check_same_answer([&] { return decode_png(png, "x.png"); },
                      [&] { return decode_png_libpng(png, "x.png"); },
                      [](const IndexedImage& decoded, const IndexedImage& reference) {
                        CHECK(decoded.frame == reference.frame);
                      });
  }
}

TEST_CASE("fast PNG read: 1, 2 and 4-bit indexed captures are read as libpng reads them") {
  // Packed indices, as PNG optimisers write a frame of few colours: every filter, widths that
  // fill their last byte and ones that do not, one pixel; and a palette shorter than the
  // indices could reach, every index in it.
  for (const uint8_t depth : {1, 2, 4}) {
    for (uint8_t f = 0; f <= 4; ++f) {
      for (const int width : {37, 1, 8 / depth * 5}) {
        CAPTURE(int{depth});
        CAPTURE(int{f});
        CAPTURE(width);
        PngSpec spec;
        spec.bit_depth = depth;
        spec.width = width;
        spec.filters = {f};
        spec.palette_entries = 1 << depth;
        spec.max_index = (1 << depth) - 1;
        check_same_as_libpng(make_png(spec));
      }
    }
  }
  PngSpec short_palette;
  short_palette.bit_depth = 2;
  short_palette.palette_entries = 3;
  short_palette.max_index = 2;
  check_same_as_libpng(make_png(short_palette));
}

TEST_CASE(
    "fast PNG read: packed captures it must leave to libpng are declined, and answered "
    "as before") {
  auto check_declined = [](const std::vector<uint8_t>& png) {
    CHECK_FALSE(decode_indexed8_png(png).has_value());
    check_same_answer([&] { return decode_png(png, "x.png"); },
                      [&] { return decode_png_libpng(png, "x.png"); },
                      [](const IndexedImage& decoded, const IndexedImage& reference) {
                        CHECK(decoded.frame == reference.frame);
                        CHECK(decoded.palette_entries == reference.palette_entries);
                      });
  };
  auto packed = [](uint8_t depth, int palette_entries, int max_index) {
    PngSpec spec;
    spec.bit_depth = depth;
    spec.palette_entries = palette_entries;
    spec.max_index = max_index;
    return spec;
  };
  check_declined(make_png(packed(2, 3, 3)));  // an index past the palette
  // More entries than 1-bit indices reach: libpng drops the rest.
  check_declined(make_png(packed(1, 3, 1)));
  PngSpec laced = packed(4, 16, 15);
  laced.interlace = 1;
  check_declined(make_png(laced));
  const std::vector<uint8_t> png = make_png(packed(4, 16, 15));
  REQUIRE(decode_indexed8_png(png).has_value());
  for (size_t n = 0; n + 1 < png.size(); ++n)
    CHECK_FALSE(decode_indexed8_png(std::span(png.data(), n)).has_value());
}

TEST_CASE("fast PNG read: 1, 2 and 4-bit grey masks are read as libpng reads them") {
  // libpng scales packed grey to 8 bits; the mask is 1 where the sample is not zero.
  const std::vector<Rgb> colours = {
      {0, 0, 0}, {0x80, 0, 0}, {0x40, 0, 0}, {0x10, 0, 0}, {0xFF, 0, 0}};
  for (const uint8_t depth : {1, 2, 4}) {
    for (uint8_t f = 0; f <= 4; ++f) {
      CAPTURE(int{depth});
      CAPTURE(int{f});
      RgbSpec spec;  // 41 wide: no depth fills the last byte of a row
      spec.channels = 1;
      spec.bit_depth = depth;
      spec.filters = {f};
      const std::vector<uint8_t> png = make_rgb_png(spec, colours, runs_and_noise);
      const Framebuffer reference = decode_mask_png_libpng(png, "m.png");
      const std::optional<Framebuffer> fast = decode_mask8_png(png);
      REQUIRE(fast.has_value());
      CHECK(*fast == reference);
      int ones = 0;
      for (const uint8_t p : reference.pixels()) ones += p;
      CHECK(ones > 0);
      CHECK(ones < reference.width() * reference.height());
    }
  }
}

TEST_CASE("fast PNG read: an index past a short palette is found wherever it lies") {
  // The indices are checked sixteen at a time and then one by one: one index past the palette
  // in any of the sixteen places, in the first and the last sixteen, and in the bytes after
  // the last whole sixteen (37 x 23 = 851 pixels: 53 sixteens and 3 more), declines the file.
  PngSpec spec;
  spec.palette_entries = 16;
  spec.max_index = 15;
  REQUIRE(decode_indexed8_png(make_png(spec)).has_value());
  std::vector<int> places;
  for (int i = 0; i < 16; ++i) places.insert(places.end(), {i, 16 * 30 + i, 16 * 52 + i});
  places.insert(places.end(), {848, 849, 850});
  for (const int at : places) {
    CAPTURE(at);
    spec.poke_at = at;
    spec.poke_value = 16;
    CHECK_FALSE(decode_indexed8_png(make_png(spec)).has_value());
    spec.poke_value = 15;  // the last entry is still in the palette
    CHECK(decode_indexed8_png(make_png(spec)).has_value());
  }
}

TEST_CASE("fast PNG read: the padding after the stream is never read as stream") {
  // The reader gives libdeflate the stream followed by zero bytes. A stream one byte short
  // whose missing byte is a zero (the Adler-32's last) decodes whole with a padding byte in its
  // place: the reader must still decline it, by the count of bytes used.
  PngSpec spec;
  std::optional<PngSpec> found;
  for (uint32_t seed = 1; seed < 5000 && !found; ++seed) {
    spec.seed = seed;
    const std::vector<uint8_t> png = make_png(spec);
    // The stream's last byte is the byte before IDAT's CRC (one IDAT here), IEND after it.
    const size_t last = png.size() - 12 - 4 - 1;
    if (png[last] == 0) found = spec;
  }
  REQUIRE(found.has_value());
  REQUIRE(decode_indexed8_png(make_png(*found)).has_value());
  found->stream_bytes_dropped = 1;
  const std::vector<uint8_t> short_png = make_png(*found);
  CHECK_FALSE(decode_indexed8_png(short_png).has_value());
  // libpng's path decides, as for any file the reader declines.
  std::string libpng_error, decode_error;
  try {
    (void)decode_png_libpng(short_png, "x.png");
  } catch (const InputError& e) {
    libpng_error = e.what();
  }
  try {
    (void)decode_png(short_png, "x.png");
  } catch (const InputError& e) {
    decode_error = e.what();
  }
  CHECK(decode_error == libpng_error);
}

TEST_CASE("fast PNG read: an 8-bit indexed mask is read as libpng reads it") {
  // decode_mask_png takes the libdeflate reader for 8-bit indexed masks: nonzero indices are 1,
  // as libpng's path makes them, whatever the filters. (What the reader declines goes through
  // libpng's path as before.)
  auto expected_mask = [](const std::vector<uint8_t>& png) {
    Framebuffer mask = decode_png_libpng(png, "m.png").frame;
    for (uint8_t& p : mask.pixels()) p = p != 0 ? 1 : 0;
    return mask;
  };
  PngSpec spec;  // every index value, and rows of zeros; 37 wide, not a multiple of 8
  for (uint8_t f = 0; f <= 4; ++f) {
    CAPTURE(int{f});
    spec.filters = {f};
    const std::vector<uint8_t> png = make_png(spec);
    REQUIRE(decode_indexed8_png(png).has_value());
    CHECK(decode_mask_png(png, "m.png") == expected_mask(png));
  }
}

TEST_CASE("fast PNG read: grey, grey-and-alpha, RGB and RGBA masks are read as libpng reads them") {
  // 1 where the colour is not black, whatever the alpha: black with full alpha, and colours
  // nonzero in one byte only (each byte of the colour counts, and only those) under alpha 0.
  const std::vector<Rgb> colours = {{0, 0, 0}, {1, 0, 0},       {0, 1, 0},    {0, 0, 1},
                                    {0, 0, 0}, {255, 255, 255}, {0, 0x80, 0}, {7, 0, 9}};
  auto alpha = [](int x, int y) { return static_cast<uint8_t>(x * 37 + y * 11); };
  for (int channels = 1; channels <= 4; ++channels) {
    for (uint8_t f = 0; f <= 4; ++f) {
      CAPTURE(channels);
      CAPTURE(int{f});
      RgbSpec spec;  // 41 wide: rows end on a pixel that is not a whole step of eight
      spec.channels = channels;
      spec.filters = {f};
      const std::vector<uint8_t> png = make_rgb_png(spec, colours, runs_and_noise, alpha);
      const Framebuffer reference = decode_mask_png_libpng(png, "m.png");
      const std::optional<Framebuffer> fast = decode_mask8_png(png);
      REQUIRE(fast.has_value());
      CHECK(*fast == reference);
      CHECK(decode_mask_png(png, "m.png") == reference);
      // The test sees both values, and each row's last pixel both ways.
      int ones = 0, last_ones = 0;
      for (int y = 0; y < reference.height(); ++y) {
        for (int x = 0; x < reference.width(); ++x) ones += reference.at(x, y);
        last_ones += reference.at(reference.width() - 1, y);
      }
      CHECK(ones > 0);
      CHECK(ones < reference.width() * reference.height());
      CHECK(last_ones > 0);
      CHECK(last_ones < reference.height());
    }
  }
}

TEST_CASE("fast PNG read: masks it must leave to libpng are declined, and read as before") {
  const std::vector<Rgb> colours = {{0, 0, 0}, {9, 0, 0}, {0, 0, 200}};
  auto check_declined = [&](const std::vector<uint8_t>& png) {
    CHECK_FALSE(decode_mask8_png(png).has_value());
    check_same_answer([&] { return decode_mask_png(png, "m.png"); },
                      [&] { return decode_mask_png_libpng(png, "m.png"); },
                      [](const Framebuffer& decoded, const Framebuffer& reference) {
                        CHECK(decoded == reference);
                      });
  };
  for (int channels : {1, 3}) {
    CAPTURE(channels);
    RgbSpec spec;
    spec.channels = channels;
    for (const RgbSpec& declined : declined_variants(spec))
      check_declined(make_rgb_png(declined, colours, runs_and_noise));
    const auto png = make_rgb_png(spec, colours, runs_and_noise);
    REQUIRE(decode_mask8_png(png).has_value());
    for (size_t n = 0; n + 1 < png.size(); ++n)
      CHECK_FALSE(decode_mask8_png(std::span(png.data(), n)).has_value());
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
