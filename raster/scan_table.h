// The per-scanline Left/Right ("YLR") table every polygon fill walks (polygon_fill.h describes
// the conventions): shared by the painter's fills and the depth-tested fill (depth_fill.h) so
// both place edges identically. Internal to raster/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "raster/fixed_point.h"
#include "raster/polygon_fill.h"

namespace shapevm::raster::scan {

__extension__ using Wide = __int128;

// An edge oriented downward: `top` has the smaller y. Horizontal edges cross no row and are
// dropped, so bottom.y > top.y always.
struct Edge {
  uint32_t top;
  uint32_t bottom;
};

// One YLR row: the extreme crossings and the edges they came from (-1: no crossing).
struct RowCrossings {
  int64_t left_x;
  int64_t right_x;
  int32_t left_edge;
  int32_t right_edge;
};

struct ScanTable {
  std::vector<Edge> edges;
  std::vector<RowCrossings> rows;
};

// Builds the YLR table for rows [row_begin, row_end) into `work`; returns the row that
// work.rows[0] describes. Leaves work.rows empty when no row is covered.
int64_t build_ylr(std::span<const ScreenVertex> polygon, int64_t row_begin, int64_t row_end,
                  ScanTable& work);

// A value interpolated along `edge` (a0 at its top vertex, a1 at its bottom) where it crosses
// `row`, evaluated exactly with the same rounding as the x crossing.
inline int64_t edge_value(std::span<const ScreenVertex> polygon, const Edge& edge, int64_t a0,
                          int64_t a1, int64_t row) {
  const int64_t offset = row * kFixedOne - polygon[edge.top].y;
  const int64_t height = static_cast<int64_t>(polygon[edge.bottom].y) - polygon[edge.top].y;
  return a0 + mul_div_floor(a1 - a0, offset, height);
}

// The rectangle a fill may write: the frame, narrowed by the rules' clip when they give one.
inline ClipRect effective_clip(const Framebuffer& frame, const FillRules& rules) {
  ClipRect clip = frame.bounds();
  if (rules.clip) clip = clip.intersect(*rules.clip);
  return clip;
}

}  // namespace shapevm::raster::scan
