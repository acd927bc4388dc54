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

}  // namespace shapevm::raster
