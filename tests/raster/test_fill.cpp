// The rasterizer: fill conventions and the fact sheet's raster goldens, Gouraud and texture
// interpolation, transparency, clipping (screen and near plane), projection, lines and points,
// fixed-point saturation, and determinism.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "raster/clip.h"
#include "raster/fixed_point.h"
#include "raster/framebuffer.h"
#include "raster/polygon_fill.h"
#include "raster/projection.h"
#include "raster/texture.h"

namespace raster_fill_tests {

using namespace shapevm::raster;

namespace {

// Spelled out in full: GCC 12 warns about designated initializers that omit a member.
const FillRules kNoOverlap{true, std::nullopt};

// A vertex at pixel coordinates given in halves (x2 = 2 * x), so fractional edges stay exact.
ScreenVertex half_px(int32_t x2, int32_t y2) {
  ScreenVertex v;
  v.x = x2 * (kFixedOne / 2);
  v.y = y2 * (kFixedOne / 2);
  return v;
}

ScreenVertex px(int32_t x, int32_t y) {
  return half_px(2 * x, 2 * y);
}

ScreenVertex px_shade(int32_t x, int32_t y, int32_t shade) {
  ScreenVertex v = px(x, y);
  v.shade = to_fixed(shade);
  return v;
}

ScreenVertex px_uv(int32_t x, int32_t y, int32_t u, int32_t v, int32_t inv_w = kInvWOne) {
  ScreenVertex vertex = px(x, y);
  vertex.u = to_fixed(u);
  vertex.v = to_fixed(v);
  vertex.inv_w = inv_w;
  return vertex;
}

size_t count_index(const Framebuffer& frame, uint8_t index) {
  size_t count = 0;
  for (uint8_t p : frame.pixels()) count += (p == index);
  return count;
}

// Adds 1 to `counts` for every pixel the polygon paints (filled alone on a clean frame).
void accumulate_coverage(std::vector<int>& counts, int width, int height,
                         const std::vector<ScreenVertex>& polygon, const FillRules& rules) {
  Framebuffer frame(width, height, 0);
  fill_flat(frame, polygon, 1, rules);
  for (size_t i = 0; i < counts.size(); ++i) counts[i] += frame.pixels()[i];
}

// Ten vertical stripes: texel column c has index 100 + c.
Texture stripe_texture() {
  Texture texture;
  texture.width = 10;
  texture.height = 4;
  texture.transparent_index = Texture::kNoTransparency;
  for (int y = 0; y < texture.height; ++y) {
    for (int x = 0; x < texture.width; ++x) texture.pixels.push_back(static_cast<uint8_t>(100 + x));
  }
  return texture;
}

uint64_t fnv1a(std::span<const uint8_t> bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (uint8_t b : bytes) {
    hash ^= b;
    hash *= 1099511628211ull;
  }
  return hash;
}

// A scene that exercises every fill kind, clipping and overlap.
Framebuffer draw_reference_scene() {
  Framebuffer frame(320, 200, 3);
  const std::vector<ScreenVertex> flat = {half_px(-41, -13), half_px(401, 77), half_px(117, 433)};
  fill_flat(frame, flat, 40);
  const std::vector<ScreenVertex> gouraud = {px_shade(10, 10, 32), px_shade(300, 30, 63),
                                             px_shade(150, 190, 200)};
  fill_gouraud(frame, gouraud, kNoOverlap);
  Texture texture = stripe_texture();
  texture.transparent_index = 104;
  const std::vector<ScreenVertex> affine = {px_uv(20, 120, 0, 0), px_uv(140, 110, 10, 0),
                                            px_uv(150, 190, 10, 4), px_uv(30, 199, 0, 4)};
  fill_textured_affine(frame, affine, texture);
  const std::vector<ScreenVertex> perspective = {
      px_uv(170, 20, 0, 0, kInvWOne), px_uv(310, 60, 10, 0, kInvWOne / 3),
      px_uv(310, 150, 10, 4, kInvWOne / 3), px_uv(170, 190, 0, 4, kInvWOne)};
  fill_textured_perspective(frame, perspective, texture,
                            FillRules{false, ClipRect{0, 0, 300, 180}});
  draw_line(frame, px(-50, -20), px(400, 260), 250);
  draw_point(frame, px(5, 5), 251);
  return frame;
}

}  // namespace

TEST_SUITE("raster") {
  TEST_CASE("fill: triangle (10,10),(20,10),(10,30) covers exactly 120 pixels") {
    Framebuffer frame(64, 64, 0);
    const std::vector<ScreenVertex> triangle = {px(10, 10), px(20, 10), px(10, 30)};
    fill_flat(frame, triangle, 7);
    CHECK(count_index(frame, 7) == 120);
    // Rows 10..29; at y=10 the span is 10..20 inclusive.
    CHECK(frame.at(20, 10) == 7);
    CHECK(frame.at(21, 10) == 0);
    CHECK(frame.at(10, 29) == 7);
    CHECK(frame.at(10, 30) == 0);
    CHECK(frame.at(10, 9) == 0);
  }

  TEST_CASE("fill: the triangle's right bound at y=11 is 19.5, so row 11 spans 10..19") {
    const std::vector<ScreenVertex> triangle = {px(10, 10), px(20, 10), px(10, 30)};
    const auto rows = scanline_bounds(triangle);
    REQUIRE(rows.size() == 20);
    CHECK(rows.front().y == 10);
    CHECK(rows.back().y == 29);
    const ScanlineBounds& row11 = rows[1];
    CHECK(row11.y == 11);
    CHECK(row11.left == to_fixed(10));
    CHECK(row11.right == to_fixed(19) + kFixedOne / 2);
    Framebuffer frame(64, 64, 0);
    fill_flat(frame, triangle, 7);
    CHECK(frame.at(19, 11) == 7);
    CHECK(frame.at(20, 11) == 0);
  }

  TEST_CASE("fill: rows run from ceil(ymin) to ceil(ymax) - 1") {
    // y from 0.5 to 3.5: rows 1, 2, 3; x from 1.5 to 4.5: pixels floor(1.5)=1 .. floor(4.5)=4.
    const std::vector<ScreenVertex> quad = {half_px(3, 1), half_px(9, 1), half_px(9, 7),
                                            half_px(3, 7)};
    const auto rows = scanline_bounds(quad);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].y == 1);
    CHECK(rows[2].y == 3);
    Framebuffer frame(8, 8, 0);
    fill_flat(frame, quad, 1);
    CHECK(count_index(frame, 1) == 3 * 4);
    CHECK(frame.at(1, 1) == 1);
    CHECK(frame.at(4, 3) == 1);
    CHECK(frame.at(5, 3) == 0);
    CHECK(frame.at(1, 0) == 0);
    CHECK(frame.at(1, 4) == 0);
    // With no_overlap the right edge is exclusive: floor(1.5)=1 .. floor(4.5)-1=3.
    frame.clear(0);
    fill_flat(frame, quad, 1, kNoOverlap);
    CHECK(count_index(frame, 1) == 3 * 3);
    CHECK(frame.at(4, 2) == 0);
  }

  TEST_CASE("fill: quad x 1900..2400, y 700..900 is 501 x 200 pixels") {
    // The fact sheet's golden in plain pixels on a large canvas: the inclusive span rule gives
    // 2400 - 1900 + 1 columns and the half-open row rule 900 - 700 rows.
    Framebuffer frame(2560, 1024, 0);
    const std::vector<ScreenVertex> quad = {px(1900, 700), px(2400, 700), px(2400, 900),
                                            px(1900, 900)};
    fill_flat(frame, quad, 9);
    CHECK(count_index(frame, 9) == 501u * 200u);
    CHECK(frame.at(1900, 700) == 9);
    CHECK(frame.at(2400, 899) == 9);
    CHECK(frame.at(2401, 800) == 0);
    CHECK(frame.at(1899, 800) == 0);
    CHECK(frame.at(2000, 900) == 0);
    CHECK(frame.at(2000, 699) == 0);
  }

  TEST_CASE("fill: Gouraud ramp c 10 -> 74 over 64 pixels gives 10 + x") {
    Framebuffer frame(64, 4, 0);
    const std::vector<ScreenVertex> quad = {px_shade(0, 0, 10), px_shade(64, 0, 74),
                                            px_shade(64, 4, 74), px_shade(0, 4, 10)};
    fill_gouraud(frame, quad, kNoOverlap);
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 64; ++x) {
        CAPTURE(x);
        CHECK(frame.at(x, y) == 10 + x);
      }
    }
  }

  TEST_CASE("fill: Gouraud shade is clamped to 0..255") {
    Framebuffer frame(40, 1, 1);
    const std::vector<ScreenVertex> quad = {px_shade(0, 0, -100), px_shade(40, 0, 400),
                                            px_shade(40, 1, 400), px_shade(0, 1, -100)};
    fill_gouraud(frame, quad, kNoOverlap);
    CHECK(frame.at(0, 0) == 0);
    CHECK(frame.at(39, 0) == 255);
  }

  TEST_CASE("fill: tiles meeting at x=32 with no_overlap paint each pixel once") {
    const int width = 64;
    const int height = 32;
    const std::vector<ScreenVertex> left = {px(0, 0), px(32, 0), px(32, 32), px(0, 32)};
    const std::vector<ScreenVertex> right = {px(32, 0), px(64, 0), px(64, 32), px(32, 32)};
    std::vector<int> counts(static_cast<size_t>(width * height), 0);
    accumulate_coverage(counts, width, height, left, kNoOverlap);
    accumulate_coverage(counts, width, height, right, kNoOverlap);
    for (int c : counts) REQUIRE(c == 1);

    // Without no_overlap the shared column 32 is painted by both.
    std::vector<int> overlap(static_cast<size_t>(width * height), 0);
    accumulate_coverage(overlap, width, height, left, {});
    accumulate_coverage(overlap, width, height, right, {});
    for (int y = 0; y < height; ++y) CHECK(overlap[static_cast<size_t>(y * width + 32)] == 2);
  }

  TEST_CASE("fill: polygons sharing fractional and diagonal edges paint each pixel once") {
    const int size = 48;
    // A fan of triangles around an off-grid centre covers a quad exactly; with no_overlap every
    // pixel inside is painted once and none twice.
    const ScreenVertex centre = half_px(47, 41);
    const std::vector<ScreenVertex> ring = {half_px(21, 3),  half_px(69, 5),  half_px(91, 25),
                                            half_px(89, 71), half_px(67, 93), half_px(25, 89),
                                            half_px(3, 67),  half_px(5, 23)};
    std::vector<int> counts(static_cast<size_t>(size * size), 0);
    for (size_t i = 0; i < ring.size(); ++i) {
      accumulate_coverage(counts, size, size, {centre, ring[i], ring[(i + 1) % ring.size()]},
                          kNoOverlap);
    }
    std::vector<int> whole(static_cast<size_t>(size * size), 0);
    accumulate_coverage(whole, size, size, ring, kNoOverlap);
    size_t painted = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      REQUIRE(counts[i] <= 1);
      painted += static_cast<size_t>(counts[i]);
    }
    CHECK(painted > 1000);
    // The octagon is convex, so its YLR fill is exact and equals the union of the fan.
    CHECK(counts == whole);
  }

  TEST_CASE("fill: perspective puts stripe 2 at the span midpoint where affine puts stripe 5") {
    // u goes 0 -> 10 texels across 64 pixels; 1/w goes 1 -> 0.25. At the midpoint 1/w = 0.625 and
    // u/w = 1.25, so u = 2; a linear interpolation gives u = 5.
    const Texture texture = stripe_texture();
    const std::vector<ScreenVertex> quad = {
        px_uv(0, 0, 0, 0, kInvWOne), px_uv(64, 0, 10, 0, kInvWOne / 4),
        px_uv(64, 4, 10, 4, kInvWOne / 4), px_uv(0, 4, 0, 4, kInvWOne)};
    Framebuffer perspective(64, 4, 0);
    fill_textured_perspective(perspective, quad, texture, kNoOverlap);
    Framebuffer affine(64, 4, 0);
    fill_textured_affine(affine, quad, texture, kNoOverlap);
    CHECK(perspective.at(32, 1) == 100 + 2);
    CHECK(affine.at(32, 1) == 100 + 5);
    CHECK(perspective.at(0, 1) == 100);
    CHECK(affine.at(0, 1) == 100);
    CHECK(perspective.at(63, 1) == 109);
    CHECK(affine.at(63, 1) == 109);
    // Perspective compresses the near (1/w = 1) side: the stripes widen toward the far side.
    for (int x = 1; x < 64; ++x) CHECK(perspective.at(x, 2) >= perspective.at(x - 1, 2));
  }

  TEST_CASE("fill: equal 1/w everywhere makes perspective identical to affine") {
    const Texture texture = stripe_texture();
    for (int32_t inv_w : {kInvWOne, kInvWOne / 7, 1000}) {
      const std::vector<ScreenVertex> triangle = {
          px_uv(3, 2, 0, 0, inv_w), px_uv(60, 10, 10, 1, inv_w), px_uv(20, 30, 4, 4, inv_w)};
      Framebuffer perspective(64, 32, 0);
      Framebuffer affine(64, 32, 0);
      fill_textured_perspective(perspective, triangle, texture);
      fill_textured_affine(affine, triangle, texture);
      CHECK(perspective == affine);
    }
  }

  TEST_CASE("fill: transparent texels leave the background; -1 draws every texel") {
    Texture texture = stripe_texture();
    texture.transparent_index = 103;
    const std::vector<ScreenVertex> quad = {px_uv(0, 0, 0, 0), px_uv(10, 0, 10, 0),
                                            px_uv(10, 2, 10, 2), px_uv(0, 2, 0, 2)};
    Framebuffer frame(10, 2, 7);
    fill_textured_affine(frame, quad, texture, kNoOverlap);
    CHECK(frame.at(2, 0) == 102);
    CHECK(frame.at(3, 0) == 7);
    CHECK(frame.at(4, 0) == 104);
    frame.clear(7);
    fill_textured_perspective(frame, quad, texture, kNoOverlap);
    CHECK(frame.at(3, 1) == 7);
    texture.transparent_index = Texture::kNoTransparency;
    fill_textured_affine(frame, quad, texture, kNoOverlap);
    CHECK(frame.at(3, 0) == 103);
  }

  TEST_CASE("fill: texcoords outside the texture clamp to its edge texels") {
    const Texture texture = stripe_texture();
    const std::vector<ScreenVertex> quad = {px_uv(0, 0, -20, -5), px_uv(30, 0, 40, -5),
                                            px_uv(30, 3, 40, 9), px_uv(0, 3, -20, 9)};
    Framebuffer frame(30, 3, 0);
    fill_textured_affine(frame, quad, texture, kNoOverlap);
    CHECK(frame.at(0, 0) == 100);
    CHECK(frame.at(29, 2) == 109);
    CHECK(count_index(frame, 0) == 0);
  }

  TEST_CASE("fill: an invalid texture is refused") {
    Framebuffer frame(8, 8, 0);
    Texture texture;
    texture.width = 4;
    texture.height = 4;
    texture.pixels.resize(15);
    const std::vector<ScreenVertex> triangle = {px(0, 0), px(8, 0), px(0, 8)};
    CHECK_THROWS_AS(fill_textured_affine(frame, triangle, texture), std::invalid_argument);
    CHECK_THROWS_AS(fill_textured_perspective(frame, triangle, texture), std::invalid_argument);
  }

  TEST_CASE("fill: polygons far off screen are clipped per scanline and never write outside") {
    // ASan guards the framebuffer's storage; the canvas checks below guard the clip rectangle.
    Framebuffer frame(37, 23, 0);
    const Texture texture = stripe_texture();
    const std::vector<std::vector<ScreenVertex>> polygons = {
        {px(-30000, -30000), px(30000, -29000), px(100, 30000)},
        {px(-5, -5), px(50, 3), px(12, 40)},
        {px_shade(-100, 10, 0), px_shade(200, 11, 900), px_shade(36, 22, 50)},
        {half_px(-65535, 3), half_px(65535, 4), half_px(65535, 40), half_px(-65535, 41)},
        {px(100, 100), px(200, 100), px(150, 150)},
        {px(-10, 5), px(-1, 5), px(-5, 20)},
    };
    for (const auto& polygon : polygons) {
      fill_flat(frame, polygon, 1);
      fill_gouraud(frame, polygon);
      fill_textured_affine(frame, polygon, texture);
      fill_textured_perspective(frame, polygon, texture);
      draw_line(frame, polygon[0], polygon[1], 2);
    }
    CHECK(count_index(frame, 0) < frame.pixels().size());

    // A clip rectangle narrower than the frame: nothing outside it changes.
    Framebuffer clipped(40, 30, 0);
    const ClipRect window{5, 7, 31, 20};
    for (const auto& polygon : polygons) {
      fill_flat(clipped, polygon, 1, FillRules{false, window});
      fill_textured_perspective(clipped, polygon, texture, FillRules{false, window});
      draw_line(clipped, polygon[0], polygon[2], 2, FillRules{false, window});
      draw_point(clipped, polygon[1], 3, FillRules{false, window});
    }
    for (int y = 0; y < clipped.height(); ++y) {
      for (int x = 0; x < clipped.width(); ++x) {
        if (!window.contains(x, y)) REQUIRE(clipped.at(x, y) == 0);
      }
    }
    // A clip rectangle reaching past the frame is cut to the frame.
    fill_flat(clipped, polygons[0], 4, FillRules{false, ClipRect{-100, -100, 1000, 1000}});
    CHECK(count_index(clipped, 4) == clipped.pixels().size());
  }

  TEST_CASE("fill: clipping does not change the pixels inside the clip rectangle") {
    const Texture texture = stripe_texture();
    const std::vector<ScreenVertex> polygon = {px_uv(2, 3, 0, 0, kInvWOne),
                                               px_uv(61, 9, 10, 0, kInvWOne / 5),
                                               px_uv(40, 45, 6, 4, kInvWOne / 2)};
    Framebuffer full(64, 48, 0);
    fill_textured_perspective(full, polygon, texture);
    Framebuffer part(64, 48, 0);
    const ClipRect window{17, 11, 50, 30};
    fill_textured_perspective(part, polygon, texture, FillRules{false, window});
    for (int y = window.top; y < window.bottom; ++y) {
      for (int x = window.left; x < window.right; ++x) REQUIRE(part.at(x, y) == full.at(x, y));
    }
  }

  TEST_CASE("fill: a concave polygon fills from its leftmost to its rightmost crossing") {
    // A "U": the notch between x 4..8 above y 6 is filled by the YLR min/max rule.
    const std::vector<ScreenVertex> u_shape = {px(0, 0), px(4, 0),  px(4, 6),   px(8, 6),
                                               px(8, 0), px(12, 0), px(12, 10), px(0, 10)};
    Framebuffer frame(16, 12, 0);
    fill_flat(frame, u_shape, 1, kNoOverlap);
    CHECK(frame.at(6, 2) == 1);
    CHECK(count_index(frame, 1) == 12u * 10u);
  }

  TEST_CASE("fill: degenerate polygons draw nothing") {
    Framebuffer frame(16, 16, 0);
    fill_flat(frame, std::vector<ScreenVertex>{}, 1);
    fill_flat(frame, std::vector<ScreenVertex>{px(1, 1), px(9, 9)}, 1);
    fill_flat(frame, std::vector<ScreenVertex>{px(1, 1), px(9, 1), px(12, 1)}, 1);
    fill_flat(frame, std::vector<ScreenVertex>{px(3, 3), px(3, 3), px(3, 3)}, 1);
    CHECK(count_index(frame, 1) == 0);
  }

  TEST_CASE("fill: later primitives overwrite earlier ones (painter's algorithm)") {
    Framebuffer frame(16, 16, 0);
    const std::vector<ScreenVertex> back = {px(0, 0), px(16, 0), px(16, 16), px(0, 16)};
    const std::vector<ScreenVertex> front = {px(4, 4), px(12, 4), px(12, 12), px(4, 12)};
    fill_flat(frame, back, 1);
    fill_flat(frame, front, 2);
    CHECK(frame.at(8, 8) == 2);
    fill_flat(frame, back, 1);
    CHECK(frame.at(8, 8) == 1);
  }

  TEST_CASE("fill: short spans change only their own pixels, at the row's end and the frame's") {
    // Every span width 1..20 in a frame of rows already painted with distinct bytes, starting at
    // every column: spans of up to 16 pixels are written 16 bytes at a time where the row has
    // that much left (the other bytes put back as they were), and byte by byte near its end. The
    // last row's spans end at the frame's last byte, where AddressSanitizer builds check that
    // nothing is read or written past it.
    for (int width = 1; width <= 20; ++width) {
      for (int left = 0; left + width <= 20; ++left) {
        Framebuffer frame(20, 3, 0);
        for (int y = 0; y < 3; ++y)
          for (int x = 0; x < 20; ++x) frame.row(y)[x] = static_cast<uint8_t>(100 + 20 * y + x);
        const Framebuffer before = frame;
        // Rows 1 and 2 (a rectangle's top edge at y = 1 fills from row 1).
        fill_flat(frame,
                  std::vector<ScreenVertex>{px(left, 1), px(left + width, 1), px(left + width, 3),
                                            px(left, 3)},
                  7, kNoOverlap);
        for (int y = 0; y < 3; ++y) {
          for (int x = 0; x < 20; ++x) {
            const bool inside = y >= 1 && x >= left && x < left + width;
            INFO("span ", left, "..", left + width - 1, ", pixel (", x, ", ", y, ")");
            CHECK(frame.at(x, y) == (inside ? 7 : before.at(x, y)));
          }
        }
      }
    }
  }

  TEST_CASE("fill: lines are Bresenham, inclusive, and clipped per pixel") {
    Framebuffer frame(8, 4, 0);
    draw_line(frame, px(0, 0), px(6, 2), 5);
    // Slope 1/3: pixels (0,0) (1,0) (2,1) (3,1) (4,1) (5,2) (6,2) or an equivalent Bresenham set.
    CHECK(count_index(frame, 5) == 7);
    CHECK(frame.at(0, 0) == 5);
    CHECK(frame.at(6, 2) == 5);
    CHECK(frame.at(3, 1) == 5);

    // The part of a long line inside the frame is the same pixels as that line on a larger canvas.
    Framebuffer big(200, 200, 0);
    draw_line(big, px(-40, -30), px(150, 170), 6);
    // The same line moved by (-50, -50) on a 100x100 frame, so most of it is clipped.
    Framebuffer small(100, 100, 0);
    draw_line(small, px(-90, -80), px(100, 120), 6);
    for (int y = 0; y < 100; ++y) {
      for (int x = 0; x < 100; ++x) REQUIRE(small.at(x, y) == big.at(x + 50, y + 50));
    }

    Framebuffer point_frame(4, 4, 0);
    draw_point(point_frame, half_px(5, 3), 9);  // (2.5, 1.5) -> pixel (2, 1)
    draw_point(point_frame, px(4, 0), 9);       // outside
    draw_point(point_frame, px(-1, 0), 9);      // outside
    CHECK(point_frame.at(2, 1) == 9);
    CHECK(count_index(point_frame, 9) == 1);
  }

  TEST_CASE("fill: the same calls give the same bytes") {
    const Framebuffer first = draw_reference_scene();
    const Framebuffer second = draw_reference_scene();
    CHECK(first == second);
    // Pinned: catches any change of rounding across compilers, optimisation levels and edits.
    // Update deliberately (and say why) if a fill rule changes.
    CHECK(fnv1a(first.pixels()) == 0x46643997ba332ed4ull);
  }

  TEST_CASE("fill: fixed-point helpers round and saturate as documented") {
    CHECK(fixed_floor(to_fixed(3)) == 3);
    CHECK(fixed_floor(-1) == -1);
    CHECK(fixed_floor(to_fixed(-3) + 1) == -3);
    CHECK(fixed_ceil(to_fixed(3)) == 3);
    CHECK(fixed_ceil(to_fixed(3) + 1) == 4);
    CHECK(fixed_ceil(to_fixed(-3) + 1) == -2);
    CHECK(to_fixed(32767) == 32767 * 65536);
    CHECK(to_fixed(40000) == kSaturated);
    CHECK(to_fixed(-40000) == -kSaturated);
    CHECK(fixed_mul(to_fixed(3), to_fixed(-2)) == to_fixed(-6));
    CHECK(fixed_mul(to_fixed(30000), to_fixed(30000)) == kSaturated);
    CHECK(fixed_div(to_fixed(1), to_fixed(4)) == kFixedOne / 4);
    CHECK(fixed_div(to_fixed(-7), to_fixed(2)) == -(7 * kFixedOne / 2));
    CHECK(fixed_div(to_fixed(5), 0) == 0x70000000);
    CHECK(fixed_div(to_fixed(-5), 0) == -0x70000000);
    CHECK(fixed_div(to_fixed(30000), 1) == 0x70000000);
    CHECK(fixed_div(to_fixed(-30000), 1) == -0x70000000);
    CHECK(divide_saturating(std::numeric_limits<int64_t>::min(), -1) == kSaturated);
    CHECK(floor_div(-7, 2) == -4);
    CHECK(mul_div_floor(std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max(),
                        std::numeric_limits<int32_t>::max()) ==
          std::numeric_limits<int32_t>::max());
    CHECK(mul_div_floor(-3, 1, 2) == -2);
  }

  TEST_CASE("fill: projection maps view space to 16.16 screen coordinates") {
    const Projection projection = make_projection(640, 480, 320, 16);
    ScreenVertex out;
    REQUIRE(project(projection, ViewVertex{0, 0, 100}, out));
    CHECK(out.x == to_fixed(320));
    CHECK(out.y == to_fixed(240));
    REQUIRE(
        project(projection, ViewVertex{100, 50, 100, to_fixed(3), to_fixed(4), to_fixed(5)}, out));
    CHECK(out.x == to_fixed(640));
    CHECK(out.y == to_fixed(240 - 160));  // y up in view space, down on screen
    CHECK(out.u == to_fixed(3));
    CHECK(out.v == to_fixed(4));
    CHECK(out.shade == to_fixed(5));
    CHECK(out.inv_w == int64_t{kInvWOne} * 16 / 100);
    REQUIRE(project(projection, ViewVertex{-1, 0, 3 * 16}, out));
    CHECK(out.x == to_fixed(320) - (320 * kFixedOne + 47) / 48);  // floor of -320/48 px
    REQUIRE(project(projection, ViewVertex{0, 0, 16}, out));
    CHECK(out.inv_w == kInvWOne);
    CHECK_FALSE(project(projection, ViewVertex{0, 0, 15}, out));
    CHECK_FALSE(project(projection, ViewVertex{0, 0, -100}, out));
    // Extreme coordinates saturate instead of overflowing.
    REQUIRE(project(projection, ViewVertex{std::numeric_limits<int32_t>::max(), 0, 16}, out));
    // The quotient saturates like the engine's divide handler; the centre is then added.
    CHECK(out.x == to_fixed(320) + kSaturated);
  }

  TEST_CASE("fill: near-plane clipping cuts at z = near and interpolates the attributes") {
    const int32_t near_z = 10;
    // One vertex behind the plane: the triangle becomes a quad.
    const std::vector<ViewVertex> triangle = {
        {0, 0, 30, to_fixed(0), 0, to_fixed(100)},
        {20, 0, -10, to_fixed(40), 0, to_fixed(200)},
        {0, 20, 30, to_fixed(0), to_fixed(8), to_fixed(100)},
    };
    const auto clipped = clip_polygon_near(triangle, near_z);
    REQUIRE(clipped.size() == 4);
    int on_plane = 0;
    for (const ViewVertex& v : clipped) {
      CHECK(v.z >= near_z);
      on_plane += (v.z == near_z);
    }
    CHECK(on_plane == 2);
    // Edge 0 -> 1 crosses z = 10 halfway: x 10, u 20, shade 150.
    CHECK(clipped[1] == ViewVertex{10, 0, near_z, to_fixed(20), 0, to_fixed(150)});
    // The same edge walked the other way is cut at the same point.
    const std::vector<ViewVertex> reversed = {triangle[2], triangle[1], triangle[0]};
    const auto clipped_reversed = clip_polygon_near(reversed, near_z);
    REQUIRE(clipped_reversed.size() == 4);
    CHECK(clipped_reversed[2] == clipped[1]);

    CHECK(clip_polygon_near(triangle, 31).empty());
    CHECK(clip_polygon_near(triangle, -100).size() == 3);

    ViewVertex a = triangle[0];
    ViewVertex b = triangle[1];
    REQUIRE(clip_line_near(a, b, near_z));
    CHECK(a == triangle[0]);
    CHECK(b == clipped[1]);
    ViewVertex c{0, 0, 1};
    ViewVertex d{5, 5, 2};
    CHECK_FALSE(clip_line_near(c, d, near_z));
  }

  TEST_CASE("fill: polygons across the near plane are clipped, projected and filled in bounds") {
    Framebuffer frame(160, 100, 0);
    const Projection projection = make_projection(160, 100, 80, 4);
    const Texture texture = stripe_texture();
    // A large floor quad running from behind the camera to far ahead, and a sliver nearly
    // touching the eye: after clipping every vertex projects, and the fill stays in bounds.
    const std::vector<std::vector<ViewVertex>> polygons = {
        {{-1000, -20, -50, 0, 0, to_fixed(10)},
         {1000, -20, -50, to_fixed(10), 0, to_fixed(10)},
         {1000, -20, 2000, to_fixed(10), to_fixed(4), to_fixed(60)},
         {-1000, -20, 2000, 0, to_fixed(4), to_fixed(60)}},
        {{-3, -3, 1}, {3, -3, 5}, {0, 3000000, 4}},
        {{-5, -5, -5}, {5, -5, -5}, {0, 5, -1}},
    };
    size_t drawn = 0;
    for (const auto& polygon : polygons) {
      const auto clipped = clip_polygon_near(polygon, projection.near_z);
      std::vector<ScreenVertex> screen;
      for (const ViewVertex& v : clipped) {
        ScreenVertex s;
        REQUIRE(project(projection, v, s));
        screen.push_back(s);
      }
      drawn += screen.empty() ? 0 : 1;
      fill_gouraud(frame, screen);
      fill_textured_perspective(frame, screen, texture);
    }
    CHECK(drawn == 2);
    // The floor covers the lower half of the view.
    CHECK(frame.at(80, 90) != 0);
  }

  TEST_CASE("fill: framebuffer sizes and access are checked") {
    CHECK_THROWS_AS(Framebuffer(0, 10), std::invalid_argument);
    CHECK_THROWS_AS(Framebuffer(10, 8193), std::invalid_argument);
    CHECK_NOTHROW(Framebuffer(8192, 1));
    Framebuffer frame;
    CHECK(frame.width() == 640);
    CHECK(frame.height() == 480);
    frame.set(639, 479, 5);
    CHECK(frame.at(639, 479) == 5);
    CHECK(frame.row(479)[639] == 5);
    CHECK_THROWS_AS(frame.at(640, 0), std::out_of_range);
    CHECK_THROWS_AS(frame.set(0, -1, 1), std::out_of_range);
    CHECK_THROWS_AS(frame.row(480), std::out_of_range);
    frame.clear(9);
    CHECK(count_index(frame, 9) == 640u * 480u);
  }
}

}  // namespace raster_fill_tests
