// View space to screen space: a fixed-point pinhole projection.
//
// This is the project's own projection, an assumption: the traced engines' projection routines are
// known only by their role (project a point, reject it behind the near plane), not by their
// arithmetic, screen centre or aspect set-up (see docs/raster.md). Engines that supply their own 2D
// coordinates bypass this and fill ScreenVertex directly.
//
// Conventions:
//   view space  integer units; x to the right, y UP, z forward (into the screen), z > 0 visible.
//   screen      16.16 pixels; x to the right, y DOWN; the view axis lands on (centre_x, centre_y).
//   x_screen = centre_x + floor(x * focal_x / z)
//   y_screen = centre_y - floor(y * focal_y / z)      (the minus turns y-up into y-down)
//   inv_w    = floor(2^30 * near_z / z)               (Q30; 1.0 exactly on the near plane)
// Quotients and sums that leave int32 saturate to +-0x70000000 like the engines' divide handler.
#pragma once

#include <algorithm>
#include <cstdint>

#include "raster/fixed_point.h"
#include "raster/polygon_fill.h"

namespace shapevm::raster {

// A point in view space with the attributes a fill interpolates (carried through unchanged).
struct ViewVertex {
  int32_t x = 0;
  int32_t y = 0;
  int32_t z = 0;
  Fixed u = 0;      // 16.16 texels
  Fixed v = 0;      // 16.16 texels
  Fixed shade = 0;  // 16.16 palette index
  bool operator==(const ViewVertex&) const = default;
};

struct Projection {
  Fixed focal_x = to_fixed(320);  // 16.16 pixels per unit of x/z (320: 90 degrees across 640)
  Fixed focal_y = to_fixed(320);  // separate, for non-square pixel modes such as 320x200
  Fixed centre_x = to_fixed(320);
  Fixed centre_y = to_fixed(240);
  int32_t near_z = 1;  // view units; points with z < near_z are behind the near plane (>= 1)
  bool operator==(const Projection&) const = default;
};

// A projection for a width x height screen with the view axis at its centre and a horizontal field
// of view given by focal length `focal_pixels` (the same for y: square pixels).
Projection make_projection(int width, int height, int32_t focal_pixels, int32_t near_z = 1);

// The screen position of a point already known to be on or beyond the near plane (16.16 pixels),
// without the division for inv_w: engines that only need where a vertex lands (a winding test)
// project every vertex of a model, and the third division was a third of that.
inline void project_position(const Projection& projection, int32_t x, int32_t y, int64_t z,
                             Fixed& out_x, Fixed& out_y) {
  // |x * focal| < 2^62, so the products fit in int64; floor division keeps the mapping uniform
  // on both sides of the axis (truncation would make the pixel column at the axis twice as wide).
  const int64_t offset_x = floor_div(static_cast<int64_t>(x) * projection.focal_x, z);
  const int64_t offset_y = floor_div(static_cast<int64_t>(y) * projection.focal_y, z);
  out_x =
      saturate_to_int32(projection.centre_x + static_cast<int64_t>(saturate_to_int32(offset_x)));
  out_y =
      saturate_to_int32(projection.centre_y - static_cast<int64_t>(saturate_to_int32(offset_y)));
}

// The inv_w of a point at depth z on or beyond the near plane: at least 1.
inline int32_t projected_inv_w(const Projection& projection, int64_t z) {
  const int64_t near_z = std::max(projection.near_z, 1);
  return static_cast<int32_t>(std::max<int64_t>(floor_div(int64_t{kInvWOne} * near_z, z), 1));
}

// Projects `point`; returns false (and leaves `out` untouched) when point.z < near_z. Inline:
// a frame projects every corner of every face.
inline bool project(const Projection& projection, const ViewVertex& point, ScreenVertex& out) {
  if (point.z < std::max(projection.near_z, 1)) return false;
  const int64_t z = point.z;
  project_position(projection, point.x, point.y, z, out.x, out.y);
  out.u = point.u;
  out.v = point.v;
  out.shade = point.shade;
  out.inv_w = projected_inv_w(projection, z);
  return true;
}

}  // namespace shapevm::raster
