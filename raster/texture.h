// An indexed texture for the textured fills. Engine-neutral: the readers of each engine's texture
// format produce one of these.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace shapevm::raster {

struct Texture {
  // The index engines commonly reserve as "no texel".
  static constexpr int kDefaultTransparent = 0xFF;
  static constexpr int kNoTransparency = -1;

  int width = 0;
  int height = 0;
  // Row-major, row 0 at the top, width * height bytes.
  std::vector<uint8_t> pixels;
  // Texels equal to this index are not drawn (the pixel keeps what is underneath); -1 draws every
  // texel. A face-colour-through policy belongs to an engine, not here.
  int transparent_index = kDefaultTransparent;

  bool valid() const {
    return width > 0 && height > 0 &&
           pixels.size() == static_cast<size_t>(width) * static_cast<size_t>(height);
  }

  // The texel under integer texel coordinates, clamped to the image. Clamping (not wrapping)
  // because the engines give texcoords in texel units inside the image, so anything outside is a
  // rounding overshoot at a polygon edge, not a repeat.
  uint8_t texel_clamped(int64_t x, int64_t y) const {
    int64_t cx = std::clamp<int64_t>(x, 0, width - 1);
    int64_t cy = std::clamp<int64_t>(y, 0, height - 1);
    return pixels[static_cast<size_t>(cy) * static_cast<size_t>(width) + static_cast<size_t>(cx)];
  }
};

}  // namespace shapevm::raster
