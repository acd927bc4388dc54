// One-row spans for the tests of the fills' per-span shortcuts (the styled rows of
// raster/polygon_fill.cpp, the depth rows of raster/depth_fill.cpp): a row decides from its first
// and last pixels whether its texels need checks, and whether one shade row serves all of it or
// its shade needs no clamp, so these spans put their ends just inside and just outside the image
// and the shade table.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/fixed_point.h"
#include "raster/polygon_fill.h"
#include "raster/texture.h"
#include "tests/support/lcg.h"

namespace shapevm::testing {

// A width x height image of random texels, none of them transparent.
inline raster::Texture random_opaque_image(Lcg& rng, int width, int height) {
  raster::Texture image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i) image.pixels.push_back(static_cast<uint8_t>(rng.next()));
  image.transparent_index = raster::Texture::kNoTransparency;
  return image;
}

// A quad one row high (y 0 to 1) and `columns` pixels wide from x = 0: u runs from near 0 to near
// u_far and v from near 0 to near v_far (each end up to a pixel either side of them), and the
// shade, for a table of `shade_rows` rows, stays in one row, crosses into the next, lies below
// the table, ends far past its last row, starts just below its first row, ends just past its last
// row, or runs from its first row to its last.
inline std::vector<raster::ScreenVertex> span_probing_edges(Lcg& rng, int columns, int u_far,
                                                            int v_far, int shade_rows) {
  using raster::Fixed;
  using raster::kFixedOne;
  const Fixed u0 = rng.between(-1, 1) * kFixedOne + rng.between(-2, 2);
  const Fixed u1 = (u_far + rng.between(-1, 2)) * kFixedOne + rng.between(-2, 2);
  const Fixed v0 = rng.between(-1, 0) * kFixedOne / 2 + rng.between(0, 2);
  const Fixed v1 = (v_far + rng.between(-1, 2)) * kFixedOne + rng.between(-2, 2);
  const Fixed last_row = (shade_rows - 1) * kFixedOne;
  // From inside the second row to far past the table (case 3), unless a case below says else.
  Fixed s0 = kFixedOne + rng.between(0, 99);
  Fixed s1 = 9 * kFixedOne;
  switch (rng.between(0, 5)) {
    case 0:
      s1 = kFixedOne + kFixedOne / 2;
      break;
    case 1:
      s1 = 2 * kFixedOne + rng.between(0, 99);
      break;
    case 2:
      s0 = -3 * kFixedOne;
      s1 = -kFixedOne;
      break;
    case 3:  // the defaults
      break;
    default: {
      // The first and last pixels' own shades (a row's first pixel takes its left end's value,
      // and each pixel after it one step more): just below the first row, just past the last,
      // or each just inside.
      const int kind = rng.between(4, 6);
      const Fixed first = kind == 4 ? -rng.between(1, 99) : rng.between(1, 99);
      const Fixed last = kind == 5 ? last_row + kFixedOne + rng.between(1, 99)
                                   : last_row + kFixedOne - rng.between(1, 99);
      const Fixed step = columns > 1 ? (last - first) / (columns - 1) : 0;
      s0 = first;
      s1 = last + step;
      break;
    }
  }
  std::vector<raster::ScreenVertex> quad(4);
  quad[0].x = quad[3].x = 0;
  quad[1].x = quad[2].x = columns * kFixedOne;
  quad[0].y = quad[1].y = 0;
  quad[2].y = quad[3].y = kFixedOne;
  quad[0].u = quad[3].u = u0;
  quad[1].u = quad[2].u = u1;
  quad[0].v = quad[3].v = v0;
  quad[1].v = quad[2].v = v1;
  quad[0].shade = quad[3].shade = s0;
  quad[1].shade = quad[2].shade = s1;
  return quad;
}

}  // namespace shapevm::testing
