// Frames in and out: indexed PNG round trips and deterministic bytes, RGB/grey captures mapped
// onto a palette, bad PNGs, raw index dumps, and the built-in palette.
#include <doctest/doctest.h>
#include <png.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "raster/diff_image.h"
#include "raster/framebuffer.h"
#include "raster/palette.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace raster_png_tests {

using namespace shapevm::raster;
using shapevm::InputError;

namespace {

Framebuffer pattern_frame(int width, int height) {
  Framebuffer frame(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) frame.set(x, y, static_cast<uint8_t>((x * 7 + y * 13) & 0xFF));
  }
  return frame;
}

// A PNG written by libpng's simplified API in one of its formats (RGB, RGBA, GRAY, or a colour-
// mapped format with `colormap`).
std::vector<uint8_t> simplified_png(int width, int height, uint32_t format,
                                    const std::vector<uint8_t>& pixels,
                                    const std::vector<uint8_t>& colormap = {}) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = format;
  image.colormap_entries = static_cast<png_uint_32>(colormap.size() / 3);
  const void* map = colormap.empty() ? nullptr : colormap.data();
  png_alloc_size_t size = 0;
  REQUIRE(png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(), 0, map) != 0);
  std::vector<uint8_t> out(size);
  REQUIRE(png_image_write_to_memory(&image, out.data(), &size, 0, pixels.data(), 0, map) != 0);
  out.resize(size);
  return out;
}

std::vector<std::string> chunk_types(const std::vector<uint8_t>& png) {
  std::vector<std::string> types;
  size_t at = 8;
  while (at + 8 <= png.size()) {
    const uint32_t length = (uint32_t{png[at]} << 24) | (uint32_t{png[at + 1]} << 16) |
                            (uint32_t{png[at + 2]} << 8) | png[at + 3];
    types.emplace_back(reinterpret_cast<const char*>(png.data() + at + 4), 4);
    at += 12 + length;
  }
  return types;
}

}  // namespace

TEST_SUITE("raster") {
  TEST_CASE("png: indexed PNG round trip keeps every index and palette entry") {
    const Framebuffer frame = pattern_frame(97, 61);
    const Palette palette = default_palette();
    const std::vector<uint8_t> bytes = encode_indexed_png(frame, palette);
    const IndexedImage image = decode_png(bytes, "frame.png");
    CHECK(image.frame == frame);
    CHECK(image.palette == palette);
    CHECK(image.palette_entries == 256);
  }

  TEST_CASE("png: encoding is deterministic and writes only IHDR, PLTE, IDAT, IEND") {
    const Framebuffer frame = pattern_frame(640, 480);
    const std::vector<uint8_t> first = encode_indexed_png(frame, default_palette());
    const std::vector<uint8_t> second = encode_indexed_png(frame, default_palette());
    CHECK(first == second);
    const auto types = chunk_types(first);
    REQUIRE(types.size() >= 4);
    CHECK(types[0] == "IHDR");
    CHECK(types[1] == "PLTE");
    for (size_t i = 2; i + 1 < types.size(); ++i) CHECK(types[i] == "IDAT");
    CHECK(types.back() == "IEND");
    // IHDR: 8-bit, colour type 3 (palette).
    CHECK(first[8 + 8 + 8] == 8);
    CHECK(first[8 + 8 + 9] == 3);
  }

  TEST_CASE("png: written files decode through libpng to the same indices, palette and colours") {
    // libpng checks every chunk's CRC and the zlib stream's Adler-32, so each file must be
    // well formed as well as hold the image. Sizes from one pixel to a whole frame and the
    // widest and tallest frames allowed.
    uint64_t seed = 41;
    const auto next = [&seed] {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<uint8_t>(seed >> 56);
    };
    const std::pair<int, int> sizes[] = {{1, 1},     {3, 2},    {97, 61},
                                         {640, 480}, {8192, 2}, {2, 8192}};
    for (const auto& size : sizes) {
      const int width = size.first;
      const int height = size.second;
      CAPTURE(width);
      CAPTURE(height);
      Framebuffer frame(width, height);
      // Runs of one index (as a rendered frame has) and noise that does not compress.
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
          frame.set(x, y, (x / 5 + y) % 3 == 0 ? next() : static_cast<uint8_t>(y % 4));
      Palette palette;
      for (size_t i = 0; i < 256; ++i)  // distinct colours, so RGB maps back to one index
        palette.colors[i] = {static_cast<uint8_t>(i), next(), static_cast<uint8_t>(255 - i)};
      const IndexedImage indexed =
          decode_png_libpng(encode_indexed_png(frame, palette), "indexed.png");
      CHECK(indexed.frame == frame);
      CHECK(indexed.palette == palette);
      CHECK(indexed.palette_entries == 256);
      const std::vector<uint8_t> rgb = encode_rgb_png(frame_to_rgb(frame, palette));
      CHECK(chunk_types(rgb) == std::vector<std::string>{"IHDR", "IDAT", "IEND"});
      CHECK(decode_png_libpng(rgb, "rgb.png", &palette).frame == frame);
    }
  }

  TEST_CASE("png: write to a file and read it back") {
    ScratchDir dir;
    const Framebuffer frame = pattern_frame(33, 20);
    Palette palette = default_palette();
    palette.colors[7] = {1, 2, 3};
    write_indexed_png(dir / "out.png", frame, palette);
    // No temporary file is left behind.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      (void)entry;
      ++files;
    }
    CHECK(files == 1);
    const IndexedImage image = read_png(dir / "out.png");
    CHECK(image.frame == frame);
    CHECK(image.palette == palette);
    write_indexed_png(dir / "out.png", pattern_frame(2, 2), palette);  // overwrite is allowed
    CHECK(read_png(dir / "out.png").frame.width() == 2);
    CHECK_THROWS_AS(read_png(dir / "missing.png"), InputError);
  }

  TEST_CASE("png: RGB and grey captures map to the exact palette index") {
    const Palette palette = default_palette();
    // Pixels: palette entries 0, 31, 40, 200 (distinct colours), and 255 (magenta).
    const std::vector<int> indices = {0, 31, 40, 200, 255, 40};
    std::vector<uint8_t> rgb;
    std::vector<uint8_t> rgba;
    for (int index : indices) {
      const Rgb& c = palette.colors[static_cast<size_t>(index)];
      rgb.insert(rgb.end(), {c.r, c.g, c.b});
      rgba.insert(rgba.end(), {c.r, c.g, c.b, 255});
    }
    for (const auto& bytes :
         {simplified_png(3, 2, PNG_FORMAT_RGB, rgb), simplified_png(3, 2, PNG_FORMAT_RGBA, rgba)}) {
      const IndexedImage image = decode_png(bytes, "capture.png", &palette);
      CHECK(image.palette == palette);
      for (size_t i = 0; i < indices.size(); ++i) {
        CHECK(image.frame.pixels()[i] == indices[i]);
      }
    }
    // Grey 0 and 255 are the grey ramp's ends.
    const IndexedImage grey =
        decode_png(simplified_png(2, 1, PNG_FORMAT_GRAY, {0, 255}), "grey.png", &palette);
    CHECK(grey.frame.at(0, 0) == 0);
    CHECK(grey.frame.at(1, 0) == 31);
  }

  TEST_CASE("png: duplicate palette colours map to the lowest index") {
    Palette palette = default_palette();
    palette.colors[90] = palette.colors[200];
    const Rgb& c = palette.colors[200];
    const IndexedImage image =
        decode_png(simplified_png(1, 1, PNG_FORMAT_RGB, {c.r, c.g, c.b}), "dup.png", &palette);
    CHECK(image.frame.at(0, 0) == 90);
  }

  TEST_CASE("png: RGB pixels not in the palette, translucent pixels and a missing palette fail") {
    const Palette palette = default_palette();
    const auto off_palette =
        simplified_png(2, 2, PNG_FORMAT_RGB, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3});
    try {
      decode_png(off_palette, "capture.png", &palette);
      FAIL("expected an InputError");
    } catch (const InputError& error) {
      const std::string message = error.what();
      CHECK(message.find("capture.png") != std::string::npos);
      CHECK(message.find("pixel (1, 1)") != std::string::npos);
      CHECK(message.find("#010203") != std::string::npos);
    }
    const auto translucent = simplified_png(1, 1, PNG_FORMAT_RGBA, {0, 0, 0, 128});
    CHECK_THROWS_WITH_AS(decode_png(translucent, "t.png", &palette), doctest::Contains("alpha 128"),
                         InputError);
    CHECK_THROWS_WITH_AS(decode_png(off_palette, "n.png", nullptr),
                         doctest::Contains("needs a palette"), InputError);
  }

  TEST_CASE("png: low bit-depth indexed PNGs give one index per pixel") {
    // A four-colour map is written with 2-bit indices.
    const std::vector<uint8_t> colormap = {0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255};
    const std::vector<uint8_t> indices = {0, 1, 2, 3, 3, 2, 1, 0, 1, 1};
    const auto bytes = simplified_png(5, 2, PNG_FORMAT_RGB_COLORMAP, indices, colormap);
    const IndexedImage image = decode_png(bytes, "low.png");
    CHECK(image.palette_entries == 4);
    CHECK(image.palette.colors[1] == Rgb{255, 0, 0});
    for (size_t i = 0; i < indices.size(); ++i) CHECK(image.frame.pixels()[i] == indices[i]);
  }

  TEST_CASE("png: garbage and truncated files are InputErrors") {
    const std::vector<uint8_t> garbage = {'n', 'o', 't', ' ', 'a', ' ', 'p', 'n', 'g'};
    CHECK_THROWS_WITH_AS(decode_png(garbage, "g.png"), doctest::Contains("g.png"), InputError);
    CHECK_THROWS_AS(decode_png({}, "empty.png"), InputError);
    const std::vector<uint8_t> whole = encode_indexed_png(pattern_frame(64, 64), default_palette());
    for (size_t cut : {size_t{8}, size_t{20}, size_t{40}, whole.size() / 2, whole.size() - 13}) {
      const std::vector<uint8_t> truncated(whole.begin(),
                                           whole.begin() + static_cast<std::ptrdiff_t>(cut));
      CAPTURE(cut);
      CHECK_THROWS_AS(decode_png(truncated, "cut.png"), InputError);
    }
    // A flipped byte inside IDAT fails its CRC.
    std::vector<uint8_t> corrupt = whole;
    corrupt[corrupt.size() - 20] ^= 0x55;
    CHECK_THROWS_AS(decode_png(corrupt, "crc.png"), InputError);
  }

  TEST_CASE("png: raw 8-bit index dumps") {
    ScratchDir dir;
    const Framebuffer frame = pattern_frame(16, 9);
    shapevm::write_file_atomic(dir / "frame.raw",
                               std::vector<uint8_t>(frame.pixels().begin(), frame.pixels().end()));
    CHECK(read_raw_indexed(dir / "frame.raw", 16, 9) == frame);
    CHECK_THROWS_WITH_AS(read_raw_indexed(dir / "frame.raw", 16, 10),
                         doctest::Contains("expected exactly 160 bytes"), InputError);
    CHECK_THROWS_AS(read_raw_indexed(dir / "frame.raw", 0, 9), InputError);
    CHECK_THROWS_AS(read_raw_indexed(dir / "nope.raw", 16, 9), InputError);
  }

  TEST_CASE("png: the built-in palette is fixed and readable") {
    const Palette palette = default_palette();
    CHECK(palette == default_palette());
    CHECK(palette.colors[0] == Rgb{0, 0, 0});
    CHECK(palette.colors[31] == Rgb{255, 255, 255});
    CHECK(palette.colors[255] == Rgb{255, 0, 255});
    CHECK(palette.colors[63] == Rgb{255, 0, 0});  // top of the red ramp
    // Readable on black: a ramp starts at 12/43 of its hue, (255 * 12 + 21) / 43 = 71, and the
    // dimmest grey is 48.
    CHECK(palette.colors[32] == Rgb{71, 0, 0});  // bottom of the red ramp
    CHECK(palette.colors[1] == Rgb{48, 48, 48});
    CHECK(palette.colors[159] == Rgb{0, 255, 0});  // top of the green ramp
    for (int i = 1; i < 31; ++i) {
      CHECK(palette.colors[static_cast<size_t>(i)].r >
            palette.colors[static_cast<size_t>(i - 1)].r);
    }
  }

  TEST_CASE("png: palette_from_rgb8 takes exactly 768 bytes") {
    std::vector<uint8_t> rgb(768);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i * 3);
    const Palette palette = palette_from_rgb8(rgb);
    CHECK(palette.colors[1] == Rgb{9, 12, 15});
    rgb.pop_back();
    CHECK_THROWS_WITH_AS(palette_from_rgb8(rgb, "x.rgb"), doctest::Contains("x.rgb"), InputError);
  }
}

}  // namespace raster_png_tests
