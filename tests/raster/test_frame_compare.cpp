// Frame comparison and diff images (raster/frame_compare, raster/diff_image): identical frames,
// one differing pixel, palette-only differences, exclusions, RGB captures with repeated colours.
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "raster/diff_image.h"
#include "raster/frame_compare.h"
#include "raster/png_io.h"

namespace raster_frame_compare_tests {

using namespace shapevm::raster;

namespace {

Framebuffer pattern(int w, int h) {
  Framebuffer f(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.set(x, y, static_cast<uint8_t>((x * 5 + y * 11) & 0xFF));
  return f;
}

Rgb pixel(const RgbImage& image, int x, int y) {
  const size_t at =
      (static_cast<size_t>(y) * static_cast<size_t>(image.width) + static_cast<size_t>(x)) * 3;
  return {image.rgb[at], image.rgb[at + 1], image.rgb[at + 2]};
}

}  // namespace

TEST_CASE("compare: identical frames have no differing pixels and an empty bounding box") {
  const Framebuffer a = pattern(32, 24);
  const FrameComparison c = compare_frames(a, pattern(32, 24));
  CHECK(c.identical());
  CHECK(c.differing == 0);
  CHECK(c.bounds.empty());
  CHECK_FALSE(c.first.has_value());
}

TEST_CASE("compare: one differing pixel is counted with its box and both indices") {
  const Framebuffer a = pattern(32, 24);
  Framebuffer b = a;
  b.set(17, 9, static_cast<uint8_t>(a.at(17, 9) + 1));
  const FrameComparison c = compare_frames(a, b);
  CHECK_FALSE(c.identical());
  CHECK(c.differing == 1);
  CHECK(c.bounds == ClipRect{17, 9, 18, 10});
  REQUIRE(c.first.has_value());
  CHECK(*c.first == PixelDifference{17, 9, a.at(17, 9), b.at(17, 9)});
}

TEST_CASE("compare: the first difference is the top-most then left-most and the box spans all") {
  const Framebuffer a(40, 30, 3);
  Framebuffer b = a;
  b.set(30, 20, 9);
  b.set(5, 4, 7);
  b.set(12, 4, 8);
  const FrameComparison c = compare_frames(a, b);
  CHECK(c.differing == 3);
  CHECK(c.first->x == 5);
  CHECK(c.first->y == 4);
  CHECK(c.bounds == ClipRect{5, 4, 31, 21});
}

TEST_CASE("compare: frames of different sizes are different without pixel statistics") {
  const FrameComparison c = compare_frames(Framebuffer(10, 10), Framebuffer(10, 11));
  CHECK_FALSE(c.same_size);
  CHECK_FALSE(c.identical());
}

TEST_CASE("compare: excluded pixels (mask and rectangles) are not compared") {
  const Framebuffer a(16, 16, 1);
  Framebuffer b = a;
  b.set(2, 2, 5);    // excluded by the rectangle
  b.set(10, 12, 5);  // excluded by the mask pixel
  b.set(15, 15, 5);  // still compared
  Framebuffer excluded(16, 16, 0);
  exclude_rect(excluded, {0, 0, 4, 4});
  excluded.set(10, 12, 1);
  exclude_rect(excluded, {14, 14, 100, 100});  // clipped to the frame, covers (15, 15) too
  CompareOptions options;
  options.excluded = &excluded;
  FrameComparison c = compare_frames(a, b, options);
  CHECK(c.identical());
  CHECK(c.excluded == 16 + 1 + 4);
  excluded.set(15, 15, 0);
  c = compare_frames(a, b, options);
  CHECK(c.differing == 1);
  CHECK(c.first->x == 15);
  Framebuffer wrong(8, 8);
  options.excluded = &wrong;
  CHECK_THROWS_AS(compare_frames(a, b, options), std::invalid_argument);
}

TEST_CASE("compare: rows that match still count their excluded pixels, row by row") {
  // Every row of a and b matches but one; the excluded count covers matching rows and the
  // differing one alike.
  const Framebuffer a(32, 8, 3);
  Framebuffer b = a;
  b.set(20, 5, 4);
  Framebuffer excluded(32, 8, 0);
  exclude_rect(excluded, {0, 0, 2, 8});  // two columns in every row
  excluded.set(31, 0, 1);
  CompareOptions options;
  options.excluded = &excluded;
  const FrameComparison c = compare_frames(a, b, options);
  CHECK(c.excluded == 2 * 8 + 1);
  CHECK(c.differing == 1);
  CHECK(c.bounds == ClipRect{20, 5, 21, 6});
  CHECK(compare_frames(a, a, options).excluded == 2 * 8 + 1);
  CHECK(compare_frames(a, a).excluded == 0);
}

TEST_CASE("compare: on matching rows every nonzero mask byte is one excluded pixel, at any width") {
  // Matching rows count their excluded pixels sixteen mask bytes at a time (their lanes summed
  // every 255 blocks), then eight, then one: each byte value and position, and the bytes past the
  // last whole sixteen and eight, must count exactly as one pixel each, in rows wider than 255
  // blocks too.
  for (const int width : {1, 7, 8, 9, 15, 16, 17, 31, 33, 640, 4079, 4080, 4081, 8192}) {
    const Framebuffer a(width, 4, 9);
    Framebuffer excluded(width, 4, 0);
    const uint8_t values[] = {1, 0x7F, 0x80, 0x81, 0xFE, 0xFF, 2, 0x40};
    uint64_t expected = 0;
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < width; ++x) {
        // A pattern that leaves some bytes zero, differently in each row.
        if ((x * 7 + y * 3) % 5 == 0) continue;
        excluded.set(x, y, values[static_cast<size_t>(x + y) % 8]);
        ++expected;
      }
    }
    CompareOptions options;
    options.excluded = &excluded;
    CAPTURE(width);
    CHECK(compare_frames(a, a, options).excluded == expected);
  }
  // A row wholly clear and a row wholly excluded, 512 blocks each: a lane that counted past 255
  // zeros would wrap.
  const Framebuffer wide(8192, 2, 9);
  Framebuffer mask(8192, 2, 0);
  exclude_rect(mask, {0, 1, 8192, 2});
  CompareOptions wide_options;
  wide_options.excluded = &mask;
  CHECK(compare_frames(wide, wide, wide_options).excluded == 8192);
}

TEST_CASE("compare: with a same-colour palette, indices showing the same colour are equal") {
  Palette p = default_palette();
  p.colors[200] = p.colors[7];  // a repeated colour: an RGB capture maps it to 7
  const Framebuffer a(4, 4, 7);
  const Framebuffer b(4, 4, 200);
  CHECK(compare_frames(a, b).differing == 16);
  CompareOptions options;
  options.same_colour = &p;
  CHECK(compare_frames(a, b, options).identical());
}

TEST_CASE("compare: a palette-only difference is found among the entries the frames use") {
  const Framebuffer frame(8, 8, 12);
  const Palette p = default_palette();
  Palette q = p;
  q.colors[40] = {1, 2, 3};  // not used by the frame: no visible difference
  CHECK(compare_palettes(frame, p, 256, frame, q, 256).identical());
  CHECK(compare_palettes(frame, p, 256, frame, p, 256).identical());
  CHECK(compare_palettes(frame, p, 0, frame, q, 0).identical());
  q.colors[12] = {9, 9, 9};  // used: same indices, different colour
  const PaletteComparison c = compare_palettes(frame, p, 256, frame, q, 256);
  CHECK(c.differing == 1);
  REQUIRE(c.first.has_value());
  CHECK(c.first->index == 12);
  CHECK(c.first->expected == p.colors[12]);
  CHECK(c.first->actual == Rgb{9, 9, 9});
  // Entries beyond what a file's PLTE defined are not compared.
  CHECK(compare_palettes(frame, p, 12, frame, q, 256).identical());
}

TEST_CASE("diff image: capture, ours and highlight side by side with the difference in red") {
  const Palette p = default_palette();
  const Framebuffer a(6, 5, 20);
  Framebuffer b = a;
  b.set(3, 2, 100);
  Framebuffer excluded(6, 5, 0);
  excluded.set(0, 0, 1);
  DiffInput in{&a, &p, &b, &p, {}};
  in.options.excluded = &excluded;
  const RgbImage image = side_by_side_diff(in);
  CHECK(image.width == 3 * 6 + 2 * kDiffPanelGap);
  CHECK(image.height == 5);
  CHECK(pixel(image, 3, 2) == p.colors[20]);                       // capture panel
  CHECK(pixel(image, 6 + kDiffPanelGap + 3, 2) == p.colors[100]);  // ours panel
  const int right = 12 + 2 * kDiffPanelGap;
  CHECK(pixel(image, right + 3, 2) == kDiffPixelColour);
  CHECK(pixel(image, right + 0, 0) == kDiffExcludedColour);
  const Rgb same = pixel(image, right + 1, 1);
  CHECK(same != kDiffPixelColour);
  CHECK(same.r == same.g);                             // dimmed grey
  CHECK(pixel(image, 6, 0) == kDiffBackgroundColour);  // the gap
}

TEST_CASE("diff image: palette-only differences are yellow and size mismatches red") {
  const Palette p = default_palette();
  Palette q = p;
  q.colors[20] = {1, 1, 1};
  const Framebuffer a(4, 4, 20);
  const Framebuffer b(5, 3, 20);
  const RgbImage panel = difference_panel({&a, &p, &b, &q, {}});
  CHECK(panel.width == 5);
  CHECK(panel.height == 4);
  CHECK(pixel(panel, 0, 0) == kDiffPaletteColour);
  CHECK(pixel(panel, 4, 0) == kDiffPixelColour);  // only ours has it
  CHECK(pixel(panel, 0, 3) == kDiffPixelColour);  // only the capture has it
}

TEST_CASE("png: RGB images round-trip and masks read nonzero as excluded") {
  const Palette p = default_palette();
  const Framebuffer frame = pattern(9, 7);
  const auto png = encode_rgb_png(frame_to_rgb(frame, p));
  CHECK(png == encode_rgb_png(frame_to_rgb(frame, p)));  // deterministic bytes
  const IndexedImage back = decode_png(png, "rgb.png", &p);
  CHECK(back.mapped_from_rgb);
  // Every index of `pattern` below 256 maps back to itself unless the palette repeats a colour.
  CHECK(compare_frames(frame, back.frame, CompareOptions{nullptr, &p}).identical());

  Framebuffer mask_indices(9, 7, 0);
  mask_indices.set(4, 3, 17);
  const Framebuffer from_indexed = decode_mask_png(encode_indexed_png(mask_indices, p), "m.png");
  CHECK(from_indexed.at(4, 3) == 1);
  CHECK(from_indexed.at(0, 0) == 0);
  const Framebuffer from_rgb =
      decode_mask_png(encode_rgb_png(frame_to_rgb(mask_indices, p)), "m.png");
  CHECK(from_rgb.at(4, 3) == 1);
  CHECK(from_rgb.at(8, 6) == 0);  // index 0 of the built-in palette is black
  const std::vector<uint8_t> junk{1, 2, 3};
  CHECK_THROWS_AS(decode_mask_png(junk, "junk.png"), shapevm::InputError);
}

}  // namespace raster_frame_compare_tests
