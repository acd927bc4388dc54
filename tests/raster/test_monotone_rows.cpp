// Flat fills of y-monotone polygons walk the polygon's two sides instead of building the YLR
// table (raster/scan_table.h, for_each_monotone_row). Every row must get exactly the crossings the
// table gives, and a flat fill exactly the pixels the table's rows and the span rule give.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "raster/fixed_point.h"
#include "raster/framebuffer.h"
#include "raster/polygon_fill.h"
#include "raster/scan_table.h"
#include "tests/support/lcg.h"

namespace raster_monotone_rows_tests {

using namespace shapevm::raster;
using shapevm::testing::Lcg;

namespace {

ScreenVertex at(Fixed x, Fixed y) {
  ScreenVertex v;
  v.x = x;
  v.y = y;
  return v;
}

ScreenVertex px(int32_t x, int32_t y) {
  return at(x * kFixedOne, y * kFixedOne);
}

// Vertices of several kinds: whole pixels (vertex rows at integer y), halves, any 16.16 value,
// and repeated y values (horizontal edges, plateaus at the top and bottom).
std::vector<ScreenVertex> random_polygon(Lcg& rng) {
  const int count = rng.between(3, 8);
  const int kind = rng.between(0, 3);
  std::vector<ScreenVertex> polygon;
  for (int i = 0; i < count; ++i) {
    Fixed x = rng.between(-40, 120) * kFixedOne;
    Fixed y = rng.between(-40, 100) * kFixedOne;
    if (kind == 1) {
      x += rng.between(0, 1) * (kFixedOne / 2);
      y += rng.between(0, 1) * (kFixedOne / 2);
    } else if (kind == 2) {
      x += rng.between(0, kFixedOne - 1);
      y += rng.between(0, kFixedOne - 1);
    } else if (kind == 3 && i > 0 && rng.between(0, 1) == 0) {
      y = polygon.back().y;
    }
    polygon.push_back(at(x, y));
  }
  return polygon;
}

// A convex polygon: points on a circle's outline (rounded), in angle order. Convex polygons are
// y-monotone, so these take the walk.
std::vector<ScreenVertex> random_convex(Lcg& rng) {
  static const int kCos[16] = {256,  237,  181,  98,  0, -98, -181, -237,
                               -256, -237, -181, -98, 0, 98,  181,  237};
  const int cx = rng.between(-20, 100);
  const int cy = rng.between(-20, 80);
  const int r = rng.between(1, 60);
  std::vector<ScreenVertex> polygon;
  for (int k = 0; k < 16; ++k) {
    if (rng.between(0, 2) != 0) continue;
    const int64_t x = int64_t{cx} * kFixedOne + int64_t{r} * kCos[k] * kFixedOne / 256;
    const int64_t y = int64_t{cy} * kFixedOne + int64_t{r} * kCos[(k + 12) % 16] * kFixedOne / 256;
    polygon.push_back(at(static_cast<Fixed>(x), static_cast<Fixed>(y)));
  }
  return polygon;
}

std::vector<ScanlineBounds> walked_rows(const std::vector<ScreenVertex>& polygon, ClipRect clip,
                                        bool& walked) {
  std::vector<ScanlineBounds> rows;
  walked = scan::for_each_monotone_row(
      polygon, clip.top, clip.bottom, [&](int64_t row, int64_t left, int64_t right) {
        rows.push_back(
            {static_cast<int32_t>(row), static_cast<Fixed>(left), static_cast<Fixed>(right)});
      });
  return rows;
}

// What a flat fill must draw: the table's rows, each from floor(L) to floor(R) (or floor(R) - 1
// with no_overlap), cut to the clip rectangle.
Framebuffer expected_flat(const std::vector<ScreenVertex>& polygon, ClipRect clip, bool no_overlap,
                          uint8_t color) {
  Framebuffer frame(100, 80, 0);
  for (const ScanlineBounds& row : scanline_bounds(polygon, clip)) {
    const int64_t begin = std::max<int64_t>(fixed_floor64(row.left), clip.left);
    const int64_t end =
        std::min<int64_t>(fixed_floor64(row.right) + (no_overlap ? 0 : 1), clip.right);
    for (int64_t x = begin; x < end; ++x) frame.row(row.y)[x] = color;
  }
  return frame;
}

bool same_pixels(const Framebuffer& a, const Framebuffer& b) {
  return std::equal(a.pixels().begin(), a.pixels().end(), b.pixels().begin(), b.pixels().end());
}

}  // namespace

TEST_CASE("monotone rows: the walk gives the YLR table's crossings on every row") {
  Lcg rng{12345};
  int walked_count = 0;
  int declined_count = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto polygon = i % 2 == 0 ? random_polygon(rng) : random_convex(rng);
    const ClipRect clip = i % 3 == 0 ? ClipRect{0, 0, 100, 80}
                                     : ClipRect{rng.between(-10, 50), rng.between(-10, 40),
                                                rng.between(50, 110), rng.between(40, 90)};
    bool walked = false;
    const auto rows = walked_rows(polygon, clip, walked);
    if (!walked) {
      CHECK(rows.empty());  // declined before calling anything
      ++declined_count;
      continue;
    }
    ++walked_count;
    const auto table = scanline_bounds(polygon, clip);
    if (rows != table) {
      CAPTURE(i);
      CHECK(rows == table);
    }
  }
  // Both paths were exercised, and most convex ones walked.
  CHECK(walked_count > 10000);
  CHECK(declined_count > 1000);
}

// Triangles take their own walk (for_each_triangle_row): the long side and the two short ones.
// Corners of every kind, y ties at the top and at the bottom, faces within one row, and clip rows
// that cut the triangle above, below and between its corners.
TEST_CASE("monotone rows: a triangle's walk gives the YLR table's crossings on every row") {
  Lcg rng{2026};
  int walked_count = 0;
  int tied = 0;
  int one_row = 0;
  for (int i = 0; i < 30000; ++i) {
    const int kind = rng.between(0, 4);
    // kind 4: within two pixels, as most faces of a dense mesh are
    const int low = kind == 4 ? 5 : -10;
    const int high = kind == 4 ? 6 : 70;
    std::vector<ScreenVertex> triangle;
    for (int k = 0; k < 3; ++k) {
      Fixed x = rng.between(low, high) * kFixedOne + rng.between(0, kFixedOne - 1);
      Fixed y = rng.between(low, high) * kFixedOne;
      if (kind == 1) y += rng.between(0, 1) * (kFixedOne / 2);
      if (kind >= 2) y += rng.between(0, kFixedOne - 1);
      if (kind == 3 && k > 0 && rng.between(0, 1) == 0) y = triangle[rng.between(0, k - 1)].y;
      triangle.push_back(at(x, y));
    }
    const ClipRect clip = i % 2 == 0 ? ClipRect{-20, -20, 100, 100}
                                     : ClipRect{-20, rng.between(low - 2, high + 2), 100,
                                                rng.between(low - 2, high + 2)};
    bool walked = false;
    const auto rows = walked_rows(triangle, clip, walked);
    const auto table = scanline_bounds(triangle, clip);
    if (!walked) {
      // Only a triangle on one y is declined; it covers no row.
      CHECK(triangle[0].y == triangle[1].y);
      CHECK(triangle[1].y == triangle[2].y);
      CHECK(table.empty());
      continue;
    }
    ++walked_count;
    tied += triangle[0].y == triangle[1].y || triangle[1].y == triangle[2].y ||
            triangle[0].y == triangle[2].y;
    one_row += rows.size() == 1;
    if (rows != table) {
      CAPTURE(i);
      CHECK(rows == table);
    }
  }
  CHECK(walked_count > 25000);
  CHECK(tied > 2500);
  CHECK(one_row > 2000);
}

TEST_CASE("monotone rows: flat fills draw what the YLR table and the span rule give") {
  Lcg rng{777};
  for (int i = 0; i < 5000; ++i) {
    const auto polygon = i % 2 == 0 ? random_polygon(rng) : random_convex(rng);
    const bool no_overlap = rng.between(0, 1) == 1;
    const std::optional<ClipRect> clip =
        i % 3 == 0 ? std::nullopt
                   : std::optional<ClipRect>(ClipRect{rng.between(-10, 50), rng.between(-10, 40),
                                                      rng.between(50, 110), rng.between(40, 90)});
    Framebuffer frame(100, 80, 0);
    fill_flat(frame, polygon, 9, FillRules{no_overlap, clip});
    const ClipRect effective = clip ? clip->intersect(frame.bounds()) : frame.bounds();
    if (!same_pixels(frame, expected_flat(polygon, effective, no_overlap, 9))) {
      CAPTURE(i);
      FAIL("fill_flat differs from the YLR table's rows");
    }
  }
}

TEST_CASE("flat fills: a span of every width from 1 to 80 pixels, at every alignment") {
  // Spans are written in several ways by width (a few bytes, overlapping 4- and 8-byte stores, a
  // library fill): each must write exactly its pixels.
  for (int32_t width = 1; width <= 80; ++width) {
    for (int32_t x = 0; x < 8; ++x) {
      Framebuffer frame(100, 3, 5);
      fill_flat(frame,
                std::vector<ScreenVertex>{px(x, 1), px(x + width, 1), px(x + width, 2), px(x, 2)},
                9, FillRules{true, std::nullopt});
      int32_t first = -1, last = -1, drawn = 0;
      for (int32_t column = 0; column < 100; ++column) {
        for (int32_t row = 0; row < 3; ++row) {
          const uint8_t pixel = frame.at(column, row);
          if (pixel == 5) continue;
          REQUIRE(pixel == 9);
          REQUIRE(row == 1);
          if (first < 0) first = column;
          last = column;
          ++drawn;
        }
      }
      CAPTURE(width);
      CAPTURE(x);
      CHECK(first == x);
      CHECK(last == x + width - 1);
      CHECK(drawn == width);
    }
  }
}

TEST_CASE("monotone rows: which polygons are walked") {
  bool walked = false;
  const ClipRect all{-100, -100, 200, 200};
  SUBCASE("a triangle, a quad with horizontal top and bottom, a pentagon") {
    for (const auto& polygon : {std::vector{px(10, 10), px(20, 10), px(10, 30)},
                                std::vector{px(0, 0), px(10, 0), px(12, 8), px(-2, 8)},
                                std::vector{px(5, 0), px(10, 4), px(8, 9), px(2, 9), px(0, 4)}}) {
      const auto rows = walked_rows(polygon, all, walked);
      CHECK(walked);
      CHECK(rows == scanline_bounds(polygon, all));
    }
  }
  SUBCASE("a polygon whose sides cross (a bow tie standing up) is still monotone") {
    const std::vector polygon{px(0, 0), px(10, 10), px(0, 20), px(10, 30)};
    // y goes 0 -> 10 -> 20 -> 30 -> back to 0: down three times, up once.
    const auto rows = walked_rows(polygon, all, walked);
    CHECK(walked);
    CHECK(rows.size() == 30);
    CHECK(rows == scanline_bounds(polygon, all));
  }
  SUBCASE("a W (two bottoms) is left to the table") {
    const std::vector polygon{px(0, 0), px(5, 10), px(10, 2), px(15, 10), px(20, 0)};
    const auto rows = walked_rows(polygon, all, walked);
    CHECK_FALSE(walked);
    CHECK(rows.empty());
    // The table fills the notch in: row 5 runs from the first edge to the last.
    const auto table = scanline_bounds(polygon, all);
    REQUIRE(table.size() == 10);
    CHECK(table[5].left == to_fixed(2) + kFixedOne / 2);
    CHECK(table[5].right == to_fixed(17) + kFixedOne / 2);
  }
  SUBCASE("a polygon on one row, and fewer than three vertices, cover nothing") {
    (void)walked_rows({px(0, 5), px(10, 5), px(20, 5)}, all, walked);
    CHECK_FALSE(walked);
    CHECK(scanline_bounds(std::vector{px(0, 5), px(10, 5), px(20, 5)}, all).empty());
    (void)walked_rows({px(0, 0), px(10, 10)}, all, walked);
    CHECK_FALSE(walked);
  }
  SUBCASE("rows outside [row_begin, row_end) are not visited") {
    const std::vector polygon{px(0, 0), px(40, 0), px(40, 40), px(0, 40)};
    const auto rows = walked_rows(polygon, ClipRect{0, 10, 40, 13}, walked);
    REQUIRE(walked);
    REQUIRE(rows.size() == 3);
    CHECK(rows.front().y == 10);
    CHECK(rows.back().y == 12);
    const auto none = walked_rows(polygon, ClipRect{0, 50, 40, 60}, walked);
    CHECK(walked);
    CHECK(none.empty());
  }
}

TEST_CASE(
    "edge stepping: each row's value is the floor of the exact product over the height, for "
    "products within 64 bits and past them, of both signs") {
  // An edge's start and step are each one division of a product that usually fits in 64 bits;
  // one that does not (a far vertex, a large attribute) is divided in 128 bits. Either way every
  // row must match a direct evaluation: start + floor(delta * (offset + k * 2^16) / height), as
  // mul_div_floor (fixed_point.h, edge_value's) gives it.
  __extension__ using Wide = __int128;
  Lcg rng{0x5eed'ed9e};
  int wide_cases = 0;
  for (int c = 0; c < 4000; ++c) {
    // Magnitudes from a few units to 2^52 for the slope, so both products (delta * offset and
    // delta * 2^16) cross 2^63 in some cases and not in others.
    const int shift = rng.between(0, 36);
    const int64_t magnitude = (int64_t{rng.between(1, 0xFFFF)} << shift) + rng.between(0, 999);
    const int64_t delta = (c % 2 == 0) ? magnitude : -magnitude;
    const int64_t offset =
        (int64_t{rng.between(0, 0xFFFF)} << rng.between(0, 24)) + rng.between(0, kFixedOne - 1);
    const int64_t height = (int64_t{rng.between(1, 0xFFFF)} << rng.between(0, 16)) + 1;
    const int64_t start = rng.between(-100000, 100000);
    // Values stay well inside int64 (an edge's lie between its two ends): cases whose last row
    // would not are drawn again.
    const Wide last = static_cast<Wide>(delta) * (offset + 12 * kFixedOne) / height;
    if (last > (Wide{1} << 60) || last < -(Wide{1} << 60)) continue;
    int64_t unused = 0;
    wide_cases += __builtin_mul_overflow(delta, offset, &unused) ||
                  __builtin_mul_overflow(delta, int64_t{kFixedOne}, &unused);
    scan::EdgeStepper edge(start, delta, offset, height);
    for (int64_t k = 0; k < 12; ++k) {
      const int64_t expected = start + mul_div_floor(delta, offset + k * kFixedOne, height);
      if (edge.value() != expected) {
        INFO("case " << c << " row " << k);
        CHECK(edge.value() == expected);
        break;
      }
      edge.advance();
    }
  }
  CHECK(wide_cases > 300);  // the 128-bit path was taken often enough to count
}

}  // namespace raster_monotone_rows_tests
