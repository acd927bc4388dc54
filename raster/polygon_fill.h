// Screen-space polygon, line and point fills into an 8-bit indexed Framebuffer.
//
// Painter's algorithm: there is no depth buffer; every call overwrites what is underneath, so
// primitives must be issued in the order the engine drew them.
//
// Scan conversion follows the engines' per-scanline Left/Right ("YLR") table: every edge is walked
// over the rows it crosses, and each row keeps the smallest and the largest edge crossing. That is
// exact for convex polygons (every row crosses exactly two edges). A concave polygon is filled
// from its leftmost to its rightmost crossing on each row, i.e. its notches are filled in; shape
// programs emit convex or near-convex faces, and this is what a YLR rasterizer does with them.
//
// Fill conventions (pinned by tests, see docs/raster.md):
//   - rows ceil(ymin) .. ceil(ymax) - 1 (top inclusive, bottom exclusive);
//   - edges are evaluated exactly at integer y (row y samples the polygon at y.0), with floor
//     rounding of the 16.16 result;
//   - a row's pixels are floor(L) .. floor(R) inclusive;
//   - with FillRules::no_overlap the right edge is exclusive: floor(L) .. floor(R) - 1. Both ends
//     use the same floor, so two polygons sharing an edge (at any fractional x) paint each pixel of
//     that row exactly once, and rows were already half-open.
//   - attributes (shade, u, v, 1/w) start at their left-edge value on the first pixel and step by
//     (right - left) / max(R - L, 1 pixel) per pixel; no sub-pixel pre-step.
// All arithmetic is integer (see fixed_point.h), so the same call gives the same bytes anywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "raster/fixed_point.h"
#include "raster/framebuffer.h"
#include "raster/texture.h"

namespace shapevm::raster {

// 1.0 in the inv_w format (Q30): 1/w for w = 1.
inline constexpr int32_t kInvWOne = 1 << 30;

struct ScreenVertex {
  Fixed x = 0;  // 16.16 pixels, x to the right
  Fixed y = 0;  // 16.16 pixels, y down
  Fixed u = 0;  // 16.16 texels
  Fixed v = 0;  // 16.16 texels
  // 16.16 palette index for Gouraud fills (the integer part, clamped to 0..255, is drawn).
  Fixed shade = 0;
  // 1/w in Q30 (kInvWOne = 1.0) for perspective-correct texturing. Only ratios between the
  // vertices matter; values are clamped to 1..kInvWOne (w >= 1 in the projection's units).
  int32_t inv_w = kInvWOne;
};

// Spell out both members (FillRules{true, std::nullopt}): GCC 12's -Wmissing-field-initializers
// fires on designated initializers that omit one, and the build uses -Werror.
struct FillRules {
  // Right edge exclusive (an engine "no overlap" mode), so abutting polygons paint shared pixels
  // once. Lines and points ignore it.
  bool no_overlap = false;
  // Drawing is limited to this rectangle intersected with the framebuffer; nullopt = the whole
  // framebuffer. Clipping is per scanline and per span, so no vertex ever needs clipping to the
  // screen first (only to the near plane, see clip.h).
  std::optional<ClipRect> clip;
};

// A surface style for engines whose faces are more than one colour or one texture: stipple
// meshes, alternating two-colour patterns, shade tables indexed per pixel, remaps of the pixels
// already in the frame, and linearly addressed textures.
struct SurfaceStyle {
  uint8_t color = 0;
  uint8_t color2 = 0;  // pattern_alternates: the colour of clear pattern bits
  // 4x4 stipple: bit (y & 3) * 4 + (x & 3) set = the pixel is drawn (in `color`).
  uint16_t pattern = 0xFFFF;
  bool pattern_alternates = false;  // clear bits draw `color2` instead of nothing
  // Textured when set: the texel (u, v) replaces the colour; the texture's transparent index is
  // skipped. With linear_addressing the texel is pixels[v * width + u] when that address lies in
  // the image (so u == width reads the next row) and the pixel is omitted otherwise; without it
  // the coordinates are clamped (Texture::texel_clamped).
  const Texture* texture = nullptr;
  bool linear_addressing = false;
  // Rows of 256 entries: the pixel becomes rows[floor(shade) clamped to the rows][colour or
  // texel]. Empty: no shading.
  std::span<const uint8_t> shade_rows;
  // 256 entries: the pixel becomes remap[the pixel already in the frame]. Empty: no remap.
  std::span<const uint8_t> remap;
};

// Interpolates shade, u and v like fill_gouraud and fill_textured_affine and writes each pixel
// as `style` says. Throws std::invalid_argument for an invalid texture or tables of the wrong size.
void fill_styled(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                 const SurfaceStyle& style, const FillRules& rules = {});
// The same pixels, each decided from the whole style. fill_styled writes a row with a loop
// specialised for the style's kind (patterned, textured, shaded, remapped); this per-pixel form
// is what the tests hold it to.
void fill_styled_reference(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                           const SurfaceStyle& style, const FillRules& rules = {});

void fill_flat(Framebuffer& frame, std::span<const ScreenVertex> polygon, uint8_t color,
               const FillRules& rules = {});
// Shade interpolated across the polygon; each pixel gets index clamp(floor(shade), 0, 255).
void fill_gouraud(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                  const FillRules& rules = {});
// u, v interpolated linearly in screen space. Throws std::invalid_argument for an invalid texture.
void fill_textured_affine(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                          const Texture& texture, const FillRules& rules = {});
// u/w, v/w and 1/w interpolated linearly in screen space and divided per pixel (integer
// division), which is perspective-correct.
void fill_textured_perspective(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                               const Texture& texture, const FillRules& rules = {});

// A 1-pixel Bresenham line from (floor(a.x), floor(a.y)) to (floor(b.x), floor(b.y)), both ends
// included. Clipped per pixel, so the pixels drawn are exactly those of the unclipped line.
void draw_line(Framebuffer& frame, const ScreenVertex& a, const ScreenVertex& b, uint8_t color,
               const FillRules& rules = {});
// The pixel (floor(p.x), floor(p.y)) if it lies inside the clip rectangle.
void draw_point(Framebuffer& frame, const ScreenVertex& p, uint8_t color,
                const FillRules& rules = {});

// One row of the YLR table: the row and its left/right crossings in 16.16 pixels, before
// horizontal clipping and before the span rule is applied.
struct ScanlineBounds {
  int32_t y = 0;
  Fixed left = 0;
  Fixed right = 0;
  bool operator==(const ScanlineBounds&) const = default;
};

// The YLR table a fill would use, for rows inside `clip` (nullopt: every row). For tests and
// debugging views.
std::vector<ScanlineBounds> scanline_bounds(std::span<const ScreenVertex> polygon,
                                            std::optional<ClipRect> clip = std::nullopt);

}  // namespace shapevm::raster
