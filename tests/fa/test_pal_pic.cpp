// FA PALETTE.PAL and PIC readers: 6-bit widening, dense and sparse PICs built byte by byte, the
// inline palette, every rejection, and a PIC drawn as a texture.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/fa/palette_pal.h"
#include "interp/fa/pic.h"
#include "raster/polygon_fill.h"
#include "tests/fa/pic_builder.h"

namespace fa_pal_pic_tests {

using shapevm::append_u16;
using shapevm::append_u32;
using shapevm::InputError;
using shapevm::put_u16;
using shapevm::put_u32;
using shapevm::test::build_dense_pic;
using namespace shapevm::fa;
namespace raster = shapevm::raster;

namespace {

// Header field offsets, as the fact sheet gives them.
constexpr size_t kWidth = 0x02, kHeight = 0x06, kPixelsOff = 0x0A, kPixelsSize = 0x0E,
                 kPalOff = 0x12, kPalSize = 0x16, kSpansOff = 0x1A, kSpansSize = 0x1E,
                 kRowHeadsOff = 0x22, kRowHeadsSize = 0x26;

// A dense PIC laid out the way the install does (build_dense_pic), with spans_size carrying a
// stale value, as in the shipped files.
std::vector<uint8_t> dense_pic(uint32_t width, uint32_t height, const std::vector<uint8_t>& pixels,
                               const std::vector<uint8_t>& palette6 = {}) {
  std::vector<uint8_t> bytes = build_dense_pic(width, height, pixels, palette6);
  put_u32(bytes, kSpansSize, 10 * (height + 1));
  return bytes;
}

struct Span {
  uint16_t row, x0, x1;
  std::vector<uint8_t> pixels;
};

// A sparse PIC: header, the span pixel data (at pixels_off = 64, each span's offset relative to
// it), then the span table with its 0xFFFF end record, 16-aligned over zero padding.
std::vector<uint8_t> sparse_pic(uint32_t width, uint32_t height, const std::vector<Span>& spans) {
  std::vector<uint8_t> bytes(64, 0);
  put_u16(bytes, 0, 1);
  put_u32(bytes, kWidth, width);
  put_u32(bytes, kHeight, height);
  put_u32(bytes, kPixelsOff, 64);
  std::vector<uint32_t> offsets;
  for (const Span& span : spans) {
    offsets.push_back(static_cast<uint32_t>(bytes.size() - 64));
    bytes.insert(bytes.end(), span.pixels.begin(), span.pixels.end());
  }
  put_u32(bytes, kPixelsSize, static_cast<uint32_t>(bytes.size() - 64));
  while (bytes.size() % 16 != 0) bytes.push_back(0);
  const size_t table = bytes.size();
  put_u32(bytes, kSpansOff, static_cast<uint32_t>(table));
  for (size_t i = 0; i < spans.size(); ++i) {
    append_u16(bytes, spans[i].row);
    append_u16(bytes, spans[i].x0);
    append_u16(bytes, spans[i].x1);
    append_u32(bytes, offsets[i]);
  }
  append_u16(bytes, 0xFFFF);
  append_u16(bytes, 0);
  append_u16(bytes, 0);
  append_u32(bytes, 0);
  put_u32(bytes, kSpansSize, static_cast<uint32_t>(10 * (spans.size() + 1)));
  return bytes;
}

std::vector<uint8_t> sequence(size_t count, uint8_t first) {
  std::vector<uint8_t> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(first + i);
  return out;
}

// Runs `parse` and returns the InputError it throws (failing the test if it does not).
template <typename Parse>
InputError expect_input_error(Parse parse) {
  try {
    parse();
  } catch (const InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  return InputError("", "");
}

}  // namespace

TEST_SUITE("fa") {
  TEST_CASE("PAL: 6-bit channels widen as (v << 2) | (v >> 4)") {
    CHECK(widen_6bit(63) == 255);
    CHECK(widen_6bit(60) == 243);
    CHECK(widen_6bit(32) == 130);
    CHECK(widen_6bit(1) == 4);
    CHECK(widen_6bit(0) == 0);
    for (int v = 1; v <= 63; ++v) {
      CHECK(widen_6bit(static_cast<uint8_t>(v)) > widen_6bit(static_cast<uint8_t>(v - 1)));
    }
  }

  TEST_CASE("PAL: a 768-byte PALETTE.PAL becomes 256 widened colours") {
    std::vector<uint8_t> pal(768);
    for (size_t i = 0; i < 256; ++i) {
      pal[3 * i] = static_cast<uint8_t>(i % 64);
      pal[3 * i + 1] = static_cast<uint8_t>(63 - i % 64);
      pal[3 * i + 2] = 32;
    }
    // The retail file's placeholder band: (63, 0, 63) at 192..254.
    pal[3 * 200] = 63;
    pal[3 * 200 + 1] = 0;
    pal[3 * 200 + 2] = 63;
    const raster::Palette palette = read_pal(pal, "PALETTE.PAL");
    CHECK(palette.colors[0] == raster::Rgb{0, 255, 130});
    CHECK(palette.colors[1] == raster::Rgb{4, 251, 130});
    CHECK(palette.colors[63] == raster::Rgb{255, 0, 130});
    CHECK(palette.colors[200] == raster::Rgb{255, 0, 255});
  }

  TEST_CASE("PAL: wrong length and out-of-range channels are InputErrors with offsets") {
    std::vector<uint8_t> pal(768, 10);
    std::vector<uint8_t> short_pal(pal.begin(), pal.end() - 1);
    auto error = expect_input_error([&] { read_pal(short_pal, "PALETTE.PAL"); });
    CHECK(error.source() == "PALETTE.PAL");
    CHECK(std::string(error.what()).find("767 bytes") != std::string::npos);

    std::vector<uint8_t> long_pal = pal;
    long_pal.push_back(0);
    error = expect_input_error([&] { read_pal(long_pal, "PALETTE.PAL"); });
    CHECK(error.offset() == 768);

    CHECK_THROWS_AS(read_pal({}, "EMPTY.PAL"), InputError);

    pal[301] = 64;
    error = expect_input_error([&] { read_pal(pal, "PALETTE.PAL"); });
    CHECK(error.has_offset());
    CHECK(error.offset() == 301);
    CHECK(std::string(error.what()).find("got 64") != std::string::npos);
  }

  TEST_CASE("PIC: dense pixels are row-major from the top; stale spans_size is ignored") {
    const std::vector<uint8_t> pixels = sequence(12, 1);  // 4x3
    const Pic pic = read_pic(dense_pic(4, 3, pixels), "T.PIC");
    CHECK(pic.header.format == kPicFormatDense);
    CHECK(pic.header.spans_size == 40);
    CHECK(pic.texture.width == 4);
    CHECK(pic.texture.height == 3);
    CHECK(pic.texture.valid());
    CHECK(pic.texture.pixels == pixels);
    CHECK(pic.texture.texel_clamped(3, 0) == 4);
    CHECK(pic.texture.texel_clamped(0, 2) == 9);
    CHECK(pic.texture.transparent_index == 0xFF);
    CHECK_FALSE(pic.inline_palette.has_value());
  }

  TEST_CASE("PIC: an inline palette overrides the first entries") {
    const std::vector<uint8_t> palette6 = {63, 0, 0, 0, 32, 1};  // two entries
    const Pic pic = read_pic(dense_pic(2, 2, {0, 1, 1, 0}, palette6), "P.PIC");
    REQUIRE(pic.inline_palette.has_value());
    REQUIRE(pic.inline_palette->size() == 2);
    CHECK((*pic.inline_palette)[0] == raster::Rgb{255, 0, 0});
    CHECK((*pic.inline_palette)[1] == raster::Rgb{0, 130, 4});
    raster::Palette base;
    base.colors.fill({9, 9, 9});
    const raster::Palette merged = apply_inline_palette(base, pic);
    CHECK(merged.colors[0] == raster::Rgb{255, 0, 0});
    CHECK(merged.colors[1] == raster::Rgb{0, 130, 4});
    CHECK(merged.colors[2] == raster::Rgb{9, 9, 9});
  }

  TEST_CASE("PIC: sparse spans use offsets relative to pixels_off; gaps are transparent") {
    const std::vector<Span> spans = {
        {0, 1, 3, {10, 11, 12}},
        {2, 0, 0, {20}},
        {2, 4, 5, {21, 22}},
    };
    const std::vector<uint8_t> bytes = sparse_pic(6, 3, spans);
    const Pic pic = read_pic(bytes, "S.PIC");
    CHECK(pic.header.format == kPicFormatSparse);
    const std::vector<uint8_t> expected = {
        0xFF, 10,   11,   12,   0xFF, 0xFF,  // row 0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // row 1: no span
        20,   0xFF, 0xFF, 0xFF, 21,   22,    // row 2
    };
    CHECK(pic.texture.pixels == expected);

    // Offsets are relative: moving the pixel block (and pixels_off with it) changes nothing.
    std::vector<uint8_t> moved(bytes.begin(), bytes.begin() + 64);
    moved.insert(moved.end(), 7, 0xEE);  // junk before the pixel block
    moved.insert(moved.end(), bytes.begin() + 64, bytes.end());
    put_u32(moved, kPixelsOff, 64 + 7);
    put_u32(moved, kSpansOff, static_cast<uint32_t>(pic.header.spans_off + 7));
    CHECK(read_pic(moved, "S.PIC").texture.pixels == expected);
  }

  TEST_CASE("PIC: a sparse PIC with no spans is fully transparent") {
    const Pic pic = read_pic(sparse_pic(3, 2, {}), "E.PIC");
    CHECK(pic.texture.pixels == std::vector<uint8_t>(6, 0xFF));
  }

  TEST_CASE("PIC: bad headers are InputErrors naming the offset") {
    const std::vector<uint8_t> good = dense_pic(4, 3, sequence(12, 1));

    std::vector<uint8_t> jpeg = good;
    jpeg[0] = 0xFF;
    jpeg[1] = 0xD8;
    auto error = expect_input_error([&] { read_pic(jpeg, "PHOTO.PIC"); });
    CHECK(error.offset() == 0);
    CHECK(std::string(error.what()).find("JPEG") != std::string::npos);

    std::vector<uint8_t> unknown = good;
    put_u16(unknown, 0, 2);
    error = expect_input_error([&] { read_pic(unknown, "U.PIC"); });
    CHECK(error.offset() == 0);
    CHECK(std::string(error.what()).find("0x0002") != std::string::npos);

    const std::vector<uint8_t> short_header(good.begin(), good.begin() + 40);
    error = expect_input_error([&] { read_pic(short_header, "H.PIC"); });
    CHECK(std::string(error.what()).find("64-byte PIC header") != std::string::npos);
    CHECK_THROWS_AS(read_pic({}, "EMPTY.PIC"), InputError);

    for (auto [field, value] : {std::pair{kWidth, 0u}, std::pair{kWidth, 4097u},
                                std::pair{kHeight, 0u}, std::pair{kHeight, 0xFFFFFFFFu}}) {
      std::vector<uint8_t> bad = good;
      put_u32(bad, field, value);
      CAPTURE(field);
      CAPTURE(value);
      error = expect_input_error([&] { read_pic(bad, "D.PIC"); });
      CHECK(error.offset() == field);
    }
    // 4096 is the largest accepted side (the pixels then run past the end instead).
    std::vector<uint8_t> wide = good;
    put_u32(wide, kWidth, 4096);
    error = expect_input_error([&] { read_pic(wide, "W.PIC"); });
    CHECK(error.offset() == 64);
  }

  TEST_CASE("PIC: dense pixels past the end of the file are refused") {
    std::vector<uint8_t> bytes = dense_pic(4, 3, sequence(12, 1));
    bytes.resize(64 + 11);
    auto error = expect_input_error([&] { read_pic(bytes, "D.PIC"); });
    CHECK(error.offset() == 64);
    std::vector<uint8_t> far = dense_pic(4, 3, sequence(12, 1));
    put_u32(far, kPixelsOff, 0xFFFFFFF0u);
    error = expect_input_error([&] { read_pic(far, "D.PIC"); });
    CHECK(error.offset() == 0xFFFFFFF0u);
  }

  TEST_CASE("PIC: bad spans are InputErrors naming the span") {
    const std::vector<Span> spans = {{0, 1, 2, {1, 2}}, {1, 0, 3, {3, 4, 5, 6}}};
    const std::vector<uint8_t> good = sparse_pic(4, 2, spans);
    const size_t table = read_pic(good, "S.PIC").header.spans_off;
    const size_t second = table + 10;

    std::vector<uint8_t> bad_row = good;
    put_u16(bad_row, second, 2);  // height is 2
    CHECK(expect_input_error([&] { read_pic(bad_row, "S.PIC"); }).offset() == second);

    std::vector<uint8_t> bad_x1 = good;
    put_u16(bad_x1, second + 4, 4);  // width is 4
    CHECK(expect_input_error([&] { read_pic(bad_x1, "S.PIC"); }).offset() == second + 2);

    std::vector<uint8_t> reversed = good;
    put_u16(reversed, second + 2, 3);
    put_u16(reversed, second + 4, 2);
    CHECK(expect_input_error([&] { read_pic(reversed, "S.PIC"); }).offset() == second + 2);

    std::vector<uint8_t> far_data = good;
    put_u32(far_data, second + 6, static_cast<uint32_t>(good.size()));
    auto error = expect_input_error([&] { read_pic(far_data, "S.PIC"); });
    CHECK(error.offset() == 64 + good.size());
    CHECK(std::string(error.what()).find("pixels_off") != std::string::npos);

    // No 0xFFFF end record: the walk stops at the end of the file with an error.
    std::vector<uint8_t> unterminated(good.begin(),
                                      good.begin() + static_cast<std::ptrdiff_t>(table + 20));
    error = expect_input_error([&] { read_pic(unterminated, "S.PIC"); });
    CHECK(error.offset() == table + 20);
    CHECK(std::string(error.what()).find("0xFFFF ends the table") != std::string::npos);

    std::vector<uint8_t> far_table = good;
    put_u32(far_table, kSpansOff, 0x7FFFFFFF);
    CHECK(expect_input_error([&] { read_pic(far_table, "S.PIC"); }).offset() == 0x7FFFFFFF);
  }

  TEST_CASE("PIC: bad inline palettes are InputErrors") {
    std::vector<uint8_t> bytes = dense_pic(2, 1, {0, 1}, {1, 2, 3, 4, 5, 6});
    const size_t pal_at = read_pic(bytes, "P.PIC").header.pal_off;

    std::vector<uint8_t> hot = bytes;
    hot[pal_at + 4] = 200;
    CHECK(expect_input_error([&] { read_pic(hot, "P.PIC"); }).offset() == pal_at + 4);

    std::vector<uint8_t> ragged = bytes;
    put_u32(ragged, kPalSize, 5);
    CHECK(expect_input_error([&] { read_pic(ragged, "P.PIC"); }).offset() == kPalSize);

    std::vector<uint8_t> huge = bytes;
    put_u32(huge, kPalSize, 771);
    CHECK(expect_input_error([&] { read_pic(huge, "P.PIC"); }).offset() == kPalSize);

    std::vector<uint8_t> beyond = bytes;
    put_u32(beyond, kPalSize, 9);  // three entries, only two present
    CHECK(expect_input_error([&] { read_pic(beyond, "P.PIC"); }).offset() == pal_at);
  }

  TEST_CASE("PIC: a sparse PIC drawn as a texture leaves its gaps transparent") {
    // 4x1: texels 0 and 3 present, 1 and 2 are gaps.
    const Pic pic = read_pic(sparse_pic(4, 1, {{0, 0, 0, {50}}, {0, 3, 3, {53}}}), "D.PIC");
    raster::Framebuffer frame(4, 1, 7);
    auto vertex = [](int x, int y, int u, int v) {
      raster::ScreenVertex out;
      out.x = raster::to_fixed(x);
      out.y = raster::to_fixed(y);
      out.u = raster::to_fixed(u);
      out.v = raster::to_fixed(v);
      return out;
    };
    const std::vector<raster::ScreenVertex> quad = {vertex(0, 0, 0, 0), vertex(4, 0, 4, 0),
                                                    vertex(4, 1, 4, 1), vertex(0, 1, 0, 1)};
    raster::fill_textured_affine(frame, quad, pic.texture, raster::FillRules{true, std::nullopt});
    CHECK(frame.at(0, 0) == 50);
    CHECK(frame.at(1, 0) == 7);
    CHECK(frame.at(2, 0) == 7);
    CHECK(frame.at(3, 0) == 53);
  }
}

}  // namespace fa_pal_pic_tests
