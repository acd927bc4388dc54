#include "raster/projection.h"

#include <algorithm>

namespace shapevm::raster {

Projection make_projection(int width, int height, int32_t focal_pixels, int32_t near_z) {
  Projection projection;
  projection.focal_x = to_fixed(focal_pixels);
  projection.focal_y = to_fixed(focal_pixels);
  // Centre of the pixel grid: a 640-wide screen has its axis at x = 320.0, between pixels 319
  // and 320, so the two halves have the same number of pixels.
  projection.centre_x = saturate_to_int32(static_cast<int64_t>(width) * kFixedOne / 2);
  projection.centre_y = saturate_to_int32(static_cast<int64_t>(height) * kFixedOne / 2);
  projection.near_z = std::max(near_z, 1);
  return projection;
}

bool project(const Projection& projection, const ViewVertex& point, ScreenVertex& out) {
  const int64_t near_z = std::max(projection.near_z, 1);
  if (point.z < near_z) return false;
  const int64_t z = point.z;
  // |x * focal| < 2^62, so the products fit in int64; floor division keeps the mapping uniform
  // on both sides of the axis (truncation would make the pixel column at the axis twice as wide).
  const int64_t offset_x = floor_div(static_cast<int64_t>(point.x) * projection.focal_x, z);
  const int64_t offset_y = floor_div(static_cast<int64_t>(point.y) * projection.focal_y, z);
  out.x =
      saturate_to_int32(projection.centre_x + static_cast<int64_t>(saturate_to_int32(offset_x)));
  out.y =
      saturate_to_int32(projection.centre_y - static_cast<int64_t>(saturate_to_int32(offset_y)));
  out.u = point.u;
  out.v = point.v;
  out.shade = point.shade;
  out.inv_w = static_cast<int32_t>(std::max<int64_t>(floor_div(int64_t{kInvWOne} * near_z, z), 1));
  return true;
}

}  // namespace shapevm::raster
