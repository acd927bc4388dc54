// The framebuffer's clear refills only the rows written since the last clear to the same index;
// every way of writing a pixel must count, or a clear would leave a stale pixel behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "raster/framebuffer.h"

using shapevm::raster::Framebuffer;

namespace {

bool all_equal(const Framebuffer& f, uint8_t index) {
  const auto p = f.pixels();
  return std::all_of(p.begin(), p.end(), [index](uint8_t v) { return v == index; });
}

}  // namespace

TEST_CASE("a clear leaves every pixel at its index, whichever way pixels were written") {
  Framebuffer f(16, 12, 3);
  CHECK(all_equal(f, 3));
  f.set(0, 0, 9);
  f.set(15, 11, 9);
  f.clear(3);  // the same index: only rows 0 and 11 are refilled
  CHECK(all_equal(f, 3));
  f.row(5)[7] = 9;
  f.clear(3);
  CHECK(all_equal(f, 3));
  f.pixels()[16 * 8 + 2] = 9;  // raw access: the next clear fills everything
  f.clear(3);
  CHECK(all_equal(f, 3));
  f.row(2)[0] = 9;
  f.clear(4);  // another index: the whole frame
  CHECK(all_equal(f, 4));
  f.row(1)[1] = 9;
  f.row(10)[1] = 9;
  f.clear(4);
  CHECK(all_equal(f, 4));
  // Copies carry what was written since their last clear.
  f.set(3, 6, 9);
  Framebuffer g = f;
  g.clear(4);
  CHECK(all_equal(g, 4));
  CHECK(f.at(3, 6) == 9);
}

TEST_CASE("rows written through rows_for_writing are refilled by the next clear") {
  Framebuffer f(16, 12, 3);
  uint8_t* rows = f.rows_for_writing(4, 7);  // rows 4, 5, 6
  CHECK(rows == f.row(4));
  rows[0] = 9;
  rows[2 * 16 + 15] = 9;  // row 6, last column
  f.clear(3);
  CHECK(all_equal(f, 3));
  f.rows_for_writing(0, 12)[11 * 16] = 9;
  f.clear(3);
  CHECK(all_equal(f, 3));
  CHECK_THROWS_AS(f.rows_for_writing(-1, 3), std::out_of_range);
  CHECK_THROWS_AS(f.rows_for_writing(5, 13), std::out_of_range);
  CHECK_THROWS_AS(f.rows_for_writing(5, 5), std::out_of_range);
}

TEST_CASE("frames compare by size and pixels only") {
  Framebuffer a(4, 4, 0), b(4, 4, 1);
  b.clear(0);
  CHECK(a == b);  // cleared differently, same pixels
  b.set(1, 1, 2);
  CHECK_FALSE(a == b);
}
