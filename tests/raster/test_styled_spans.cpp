// Styled fills write each row with a loop specialised for the style's kind (patterned, textured,
// shaded, remapped: raster/polygon_fill.cpp, styled_span). Every kind must give exactly the
// pixels of the per-pixel reference, which decides each pixel from the whole style.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "raster/fixed_point.h"
#include "raster/framebuffer.h"
#include "raster/polygon_fill.h"
#include "raster/texture.h"
#include "tests/support/lcg.h"
#include "tests/support/span_ends.h"

namespace raster_styled_spans_tests {

using namespace shapevm::raster;
using shapevm::testing::Lcg;

namespace {

// Corners anywhere around a 96x80 frame, with shade and texture coordinates that run past the
// tables and the image on purpose (clamping, omitted addresses, the next row).
std::vector<ScreenVertex> random_polygon(Lcg& rng) {
  std::vector<ScreenVertex> polygon(static_cast<size_t>(rng.between(3, 6)));
  for (auto& v : polygon) {
    v.x = rng.between(-20, 115) * kFixedOne + rng.between(0, kFixedOne - 1);
    v.y = rng.between(-20, 99) * kFixedOne + rng.between(0, kFixedOne - 1);
    v.shade = rng.between(-2, 6) * kFixedOne + rng.between(0, kFixedOne - 1);
    v.u = rng.between(-4, 40) * kFixedOne + rng.between(0, kFixedOne - 1);
    v.v = rng.between(-4, 40) * kFixedOne + rng.between(0, kFixedOne - 1);
  }
  return polygon;
}

Texture random_texture(Lcg& rng) {
  Texture t;
  t.width = rng.between(1, 33);
  t.height = rng.between(1, 33);
  t.pixels.resize(static_cast<size_t>(t.width) * static_cast<size_t>(t.height));
  for (auto& p : t.pixels) p = static_cast<uint8_t>(rng.between(0, 7) == 0 ? 0xFF : rng.next());
  t.transparent_index =
      rng.between(0, 1) == 0 ? Texture::kDefaultTransparent : Texture::kNoTransparency;
  return t;
}

Framebuffer random_background(Lcg& rng) {
  Framebuffer frame(96, 80, 0);
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) frame.row(y)[x] = static_cast<uint8_t>(rng.next());
  return frame;
}

}  // namespace

TEST_CASE("every styled span kind draws the per-pixel reference's pixels") {
  Lcg rng{20261202};
  std::array<uint8_t, 256 * 5> shade_table{};
  for (auto& e : shade_table) e = static_cast<uint8_t>(rng.next());
  std::array<uint8_t, 256> remap{};
  for (auto& e : remap) e = static_cast<uint8_t>(rng.next());

  // Per kind (patterned | textured << 1 | shaded << 2 | remapped << 3): fills compared and pixels
  // those fills changed, so no kind passes by drawing nothing.
  std::array<int, 16> fills{};
  std::array<long, 16> changed{};
  for (int trial = 0; trial < 6000; ++trial) {
    const int kind = trial % 16;
    CAPTURE(trial);
    CAPTURE(kind);
    SurfaceStyle style;
    style.color = static_cast<uint8_t>(rng.next());
    style.color2 = static_cast<uint8_t>(rng.next());
    if (kind & 1) {
      // Never all set (that is the unpatterned kind); sometimes nothing set.
      style.pattern = rng.between(0, 9) == 0 ? 0 : static_cast<uint16_t>(rng.next() % 0xFFFF);
      style.pattern_alternates = rng.between(0, 1) == 1;
    } else {
      // An all-set pattern draws every pixel in `color`, alternating or not.
      style.pattern_alternates = rng.between(0, 1) == 1;
    }
    Texture texture;
    if (kind & 2) {
      texture = random_texture(rng);
      style.texture = &texture;
      style.linear_addressing = rng.between(0, 1) == 1;
    }
    if (kind & 4)
      style.shade_rows = std::span<const uint8_t>(shade_table).first(256 * rng.between(1, 5));
    if (kind & 8) style.remap = remap;
    FillRules rules;
    rules.no_overlap = rng.between(0, 1) == 1;
    if (rng.between(0, 2) == 0) {
      const int left = rng.between(0, 60), top = rng.between(0, 50);
      rules.clip = ClipRect{left, top, left + rng.between(0, 40), top + rng.between(0, 35)};
    }
    const auto polygon = random_polygon(rng);
    const Framebuffer background = random_background(rng);

    Framebuffer specialised = background;
    Framebuffer reference = background;
    fill_styled(specialised, polygon, style, rules);
    fill_styled_reference(reference, polygon, style, rules);
    REQUIRE(specialised.pixels().size() == reference.pixels().size());
    long differing = 0;
    for (size_t i = 0; i < reference.pixels().size(); ++i) {
      differing += specialised.pixels()[i] != reference.pixels()[i] ? 1 : 0;
      changed[static_cast<size_t>(kind)] += reference.pixels()[i] != background.pixels()[i] ? 1 : 0;
    }
    CHECK(differing == 0);
    ++fills[static_cast<size_t>(kind)];
  }
  for (size_t kind = 0; kind < 16; ++kind) {
    CAPTURE(kind);
    CHECK(fills[kind] >= 300);
    CHECK(changed[kind] > 10000);
  }
}

TEST_CASE("a styled span steps shade, u and v past the pixels it leaves unwritten") {
  // A mesh over a texture: the texel of a drawn pixel follows from its column even when the
  // pixels before it were skipped (pattern bit clear, transparent texel).
  Texture ramp;
  ramp.width = 16;
  ramp.height = 1;
  for (int x = 0; x < 16; ++x) ramp.pixels.push_back(static_cast<uint8_t>(x == 3 ? 0xFF : 100 + x));
  SurfaceStyle style;
  style.pattern = 0x8888;  // only x & 3 == 3 drawn, on every row
  style.texture = &ramp;
  std::vector<ScreenVertex> quad(4);
  quad[0].x = 0;
  quad[0].y = 0;
  quad[1].x = 16 * kFixedOne;
  quad[1].y = 0;
  quad[2].x = 16 * kFixedOne;
  quad[2].y = 2 * kFixedOne;
  quad[3].x = 0;
  quad[3].y = 2 * kFixedOne;
  quad[1].u = quad[2].u = 16 * kFixedOne;  // u = x
  Framebuffer frame(16, 2, 7);
  fill_styled(frame, quad, style, {true, std::nullopt});
  for (int x = 0; x < 16; ++x) {
    CAPTURE(x);
    const uint8_t expected = (x & 3) != 3 || x == 3 ? 7 : static_cast<uint8_t>(100 + x);
    CHECK(frame.row(0)[x] == expected);
  }
}

// A styled span reads its texels without a check, and its shade from one table row or without a
// clamp, when its first and last pixels show that every pixel allows it. Spans one row high whose
// texture coordinates end just inside or just outside the image (linear and clamped addressing),
// and whose shade stays in one table row, crosses into the next, or ends just inside or just
// outside either end of the table: each must still draw the per-pixel reference's pixels.
TEST_CASE("a styled span's per-span shortcuts hold up to the image's and the table's edges") {
  Lcg rng{31337};
  std::array<uint8_t, 256 * 4> shade_table{};
  for (auto& e : shade_table) e = static_cast<uint8_t>(rng.next());
  int trials = 0;
  for (const int width : {1, 5, 16, 33}) {
    for (const int height : {1, 3, 8}) {
      const Texture texture = shapevm::testing::random_opaque_image(rng, width, height);
      for (int trial = 0; trial < 200; ++trial, ++trials) {
        CAPTURE(width);
        CAPTURE(height);
        CAPTURE(trial);
        SurfaceStyle style;
        style.texture = &texture;
        style.linear_addressing = trial % 2 == 1;
        const int shade_rows = 1 + trial % 4;
        style.shade_rows = std::span<const uint8_t>(shade_table).first(256 * shade_rows);
        // Linear addressing: u ends near the end of the pixels, v near the first rows.
        const auto quad = shapevm::testing::span_probing_edges(
            rng, rng.between(1, 70), style.linear_addressing ? width * height : width,
            style.linear_addressing ? 0 : height, shade_rows);
        Framebuffer specialised(80, 1, 7);
        Framebuffer reference(80, 1, 7);
        fill_styled(specialised, quad, style, {true, std::nullopt});
        fill_styled_reference(reference, quad, style, {true, std::nullopt});
        CHECK(std::equal(specialised.pixels().begin(), specialised.pixels().end(),
                         reference.pixels().begin(), reference.pixels().end()));
      }
    }
  }
  CHECK(trials == 2400);
}

// A pattern's row written 16 pixels at a time from a styled row (a face the side walk declines,
// so its rows come from the YLR table) must not touch a byte past its span: the row ending at the
// frame's last pixel has nothing after it. With the room past the span wrong, the last part read
// and wrote back 16 bytes from there, past the frame's storage (AddressSanitizer reports it; the
// pixels do not show it). A fuzzed Apache record found it.
TEST_CASE("a patterned styled row that ends at the frame's last pixel stays inside the frame") {
  // A notch down from the top edge: not y-monotone, so the table gives the rows.
  const auto corner = [](int x, int y) {
    ScreenVertex v;
    v.x = x * kFixedOne;
    v.y = y * kFixedOne;
    return v;
  };
  const std::vector<ScreenVertex> notched{corner(0, 0), corner(10, 3), corner(20, 0), corner(20, 4),
                                          corner(0, 4)};
  std::array<uint8_t, 256> shade_row{};
  for (size_t i = 0; i < shade_row.size(); ++i) shade_row[i] = static_cast<uint8_t>(255 - i);
  for (const bool shaded : {false, true}) {
    for (const bool alternates : {false, true}) {
      CAPTURE(shaded);
      CAPTURE(alternates);
      SurfaceStyle style;
      style.color = 40;
      style.color2 = 50;
      style.pattern = 0x5A5A;
      style.pattern_alternates = alternates;
      if (shaded) style.shade_rows = shade_row;
      Framebuffer specialised(20, 4, 7), reference(20, 4, 7);
      fill_styled(specialised, notched, style, {false, std::nullopt});
      fill_styled_reference(reference, notched, style, {false, std::nullopt});
      CHECK(std::equal(specialised.pixels().begin(), specialised.pixels().end(),
                       reference.pixels().begin(), reference.pixels().end()));
      CHECK(specialised.at(18, 3) == (shaded ? 255 - 40 : 40));  // drawn up to the last pixels
    }
  }
}

TEST_CASE("an affine textured fill draws what the styled reference draws for a clamped texture") {
  // The same interpolation and texel rule by two routes: fill_textured_affine (whose spans skip
  // clamping when both ends of a span lie inside the image) and the per-pixel styled reference.
  Lcg rng{977};
  int inside_only = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    CAPTURE(trial);
    const Texture texture = random_texture(rng);
    SurfaceStyle style;
    style.texture = &texture;
    FillRules rules;
    rules.no_overlap = rng.between(0, 1) == 1;
    auto polygon = random_polygon(rng);
    if (trial % 2 == 0) {
      // Coordinates inside the image, so most spans take the unclamped loop.
      for (auto& v : polygon) {
        v.u = rng.between(0, texture.width * kFixedOne - 1);
        v.v = rng.between(0, texture.height * kFixedOne - 1);
      }
      ++inside_only;
    }
    const Framebuffer background = random_background(rng);
    Framebuffer affine = background;
    Framebuffer reference = background;
    fill_textured_affine(affine, polygon, texture, rules);
    fill_styled_reference(reference, polygon, style, rules);
    CHECK(std::equal(affine.pixels().begin(), affine.pixels().end(), reference.pixels().begin(),
                     reference.pixels().end()));
  }
  CHECK(inside_only == 1500);
}

}  // namespace raster_styled_spans_tests
