// A close-up of a small difference for people: a few hundred differing pixels are a speck in a
// 640-pixel frame, so reports show the region around them cropped and scaled up as well.
#pragma once

#include "raster/framebuffer.h"
#include "raster/png_io.h"

namespace shapevm::raster {

// This project's choices: a difference is small when its bounding box is at most a quarter of
// the frame each way; the close-up shows it with kZoomMargin pixels around it, at least
// kZoomMinimum pixels each way, scaled so its longer side is about kZoomTarget pixels (2..8x).
inline constexpr int kZoomMargin = 8;
inline constexpr int kZoomMinimum = 32;
inline constexpr int kZoomTarget = 256;

struct ZoomRegion {
  ClipRect rect;   // inside the frame; empty when the difference is not small (or there is none)
  int factor = 1;  // whole-number scale, nearest neighbour
};

// The close-up of `differing` (the differing pixels' bounding box) in a width x height frame.
ZoomRegion zoom_region(const ClipRect& differing, int width, int height);

// `image` cropped to `region.rect` and scaled `region.factor` times, nearest neighbour. Throws
// std::invalid_argument when the rectangle is empty or outside the image.
RgbImage crop_zoomed(const RgbImage& image, const ZoomRegion& region);

}  // namespace shapevm::raster
