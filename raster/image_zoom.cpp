#include "raster/image_zoom.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace shapevm::raster {

namespace {

// [start, end) grown to at least `minimum` about its middle and by `margin` each side, then
// moved (not shrunk) to lie inside [0, limit).
std::pair<int32_t, int32_t> widen(int32_t start, int32_t end, int32_t limit) {
  start -= kZoomMargin;
  end += kZoomMargin;
  if (end - start < kZoomMinimum) {
    const int32_t grow = kZoomMinimum - (end - start);
    start -= grow / 2;
    end += grow - grow / 2;
  }
  if (end - start >= limit) return {0, limit};
  if (start < 0) {
    end -= start;
    start = 0;
  }
  if (end > limit) {
    start -= end - limit;
    end = limit;
  }
  return {start, end};
}

}  // namespace

ZoomRegion zoom_region(const ClipRect& differing, int width, int height) {
  ZoomRegion out;
  if (differing.empty() || width <= 0 || height <= 0) return out;
  if ((differing.right - differing.left) * 4 > width ||
      (differing.bottom - differing.top) * 4 > height)
    return out;
  const auto [left, right] = widen(differing.left, differing.right, width);
  const auto [top, bottom] = widen(differing.top, differing.bottom, height);
  out.rect = {left, top, right, bottom};
  const int longer = std::max(right - left, bottom - top);
  out.factor = std::clamp(kZoomTarget / longer, 2, 8);
  return out;
}

RgbImage crop_zoomed(const RgbImage& image, const ZoomRegion& region) {
  const ClipRect& r = region.rect;
  if (r.empty() || r.left < 0 || r.top < 0 || r.right > image.width || r.bottom > image.height ||
      region.factor < 1)
    throw std::invalid_argument("crop_zoomed: the region is empty or outside the image");
  RgbImage out;
  out.width = (r.right - r.left) * region.factor;
  out.height = (r.bottom - r.top) * region.factor;
  out.rgb.resize(static_cast<size_t>(out.width) * static_cast<size_t>(out.height) * 3);
  for (int y = 0; y < out.height; ++y) {
    const int sy = r.top + y / region.factor;
    for (int x = 0; x < out.width; ++x) {
      const int sx = r.left + x / region.factor;
      const size_t from = (static_cast<size_t>(sy) * static_cast<size_t>(image.width) + sx) * 3;
      const size_t to = (static_cast<size_t>(y) * static_cast<size_t>(out.width) + x) * 3;
      std::copy_n(image.rgb.begin() + static_cast<std::ptrdiff_t>(from), 3,
                  out.rgb.begin() + static_cast<std::ptrdiff_t>(to));
    }
  }
  return out;
}

}  // namespace shapevm::raster
