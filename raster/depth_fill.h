// Depth-tested fills for engines that drew through a depth buffer (Starlancer's Direct3D
// renderer) rather than in painter's order. Same scan conversion as polygon_fill.h (one YLR
// table, same span rules), plus a depth value per pixel and optional blending through a table.
//
// Depth is each vertex's inv_w (1/w, larger = nearer; kInvWOne on the near plane), carried at
// Q28 and interpolated linearly in screen space, which is exact for 1/z. The buffer is cleared
// to 0 (infinitely far) and a pixel passes when its depth is >= the stored one, so of two
// coplanar faces the later wins. All arithmetic is integer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "raster/framebuffer.h"
#include "raster/polygon_fill.h"
#include "raster/texture.h"

namespace shapevm::raster {

class DepthBuffer {
 public:
  // Cleared to 0. Throws std::invalid_argument unless 1 <= width, height <= kMaxDimension.
  DepthBuffer(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  void clear() { std::fill(values_.get(), values_.get() + size(), 0u); }
  // Checked (std::out_of_range outside the buffer).
  uint32_t at(int x, int y) const;
  uint32_t* row(int y) { return values_.get() + static_cast<size_t>(y) * width_; }

 private:
  size_t size() const { return static_cast<size_t>(width_) * static_cast<size_t>(height_); }
  struct Free {
    void operator()(uint32_t* p) const;
  };
  int width_;
  int height_;
  // From calloc, not a zero-filled vector: a 640x480 buffer is 1.2 MB, and fresh zeroed pages
  // from the system need no clearing and are only touched where faces are drawn. Writing the
  // zeros was a quarter of rendering one Starlancer model in its own process.
  std::unique_ptr<uint32_t[], Free> values_;
};

// The depth value a vertex with this inv_w stores (Q28, >= 1).
uint32_t depth_of(int32_t inv_w);

struct DepthStyle {
  uint8_t color = 0;                 // the colour when there is no texture
  const Texture* texture = nullptr;  // texel (u, v) replaces the colour; transparent: skipped
  bool perspective = true;           // texcoords interpolated with 1/w (else affine)
  bool repeat = false;               // texel coordinates wrap around the image (else clamp)
  // Rows of 256: the pixel's colour becomes rows[floor(shade) clamped][colour]. Empty: none.
  std::span<const uint8_t> shade_rows;
  // 65536 entries: the pixel becomes blend[colour * 256 + pixel already there]. Empty: replace.
  std::span<const uint8_t> blend;
  bool depth_write = true;  // passing pixels store their depth
};

// Fills `polygon` through `depth` (nullptr: no test, no write). Throws std::invalid_argument for
// a buffer of another size than the frame, an invalid texture or tables of the wrong size.
void fill_depth(Framebuffer& frame, DepthBuffer* depth, std::span<const ScreenVertex> polygon,
                const DepthStyle& style, const FillRules& rules = {});
// The same pixels with each row's depth, texture coordinates and shade evaluated afresh where the
// row crosses its two edges, rather than stepped down them: the reference the tests hold
// fill_depth to.
void fill_depth_reference(Framebuffer& frame, DepthBuffer* depth,
                          std::span<const ScreenVertex> polygon, const DepthStyle& style,
                          const FillRules& rules = {});

// draw_line's pixels (polygon_fill.h), each tested and written like a fill's with the depth
// interpolated from a to b; texture and shade are ignored (the style's colour is drawn).
void draw_line_depth(Framebuffer& frame, DepthBuffer* depth, const ScreenVertex& a,
                     const ScreenVertex& b, const DepthStyle& style, const FillRules& rules = {});

}  // namespace shapevm::raster
