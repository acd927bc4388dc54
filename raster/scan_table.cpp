#include "raster/scan_table.h"

#include <algorithm>
#include <limits>

namespace shapevm::raster::scan {

int64_t build_ylr(std::span<const ScreenVertex> polygon, int64_t row_begin, int64_t row_end,
                  ScanTable& work) {
  work.edges.clear();
  work.rows.clear();
  if (polygon.size() < 3) return row_begin;
  Fixed y_min = polygon[0].y;
  Fixed y_max = polygon[0].y;
  for (const ScreenVertex& vertex : polygon) {
    y_min = std::min(y_min, vertex.y);
    y_max = std::max(y_max, vertex.y);
  }
  int64_t first_row = std::max(fixed_ceil64(y_min), row_begin);
  int64_t end_row = std::min(fixed_ceil64(y_max), row_end);
  if (first_row >= end_row) return first_row;
  work.rows.assign(static_cast<size_t>(end_row - first_row),
                   RowCrossings{std::numeric_limits<int64_t>::max(),
                                std::numeric_limits<int64_t>::min(), -1, -1});

  const size_t count = polygon.size();
  for (size_t i = 0; i < count; ++i) {
    const size_t next = (i + 1) % count;
    if (polygon[i].y == polygon[next].y) continue;
    const Edge edge = polygon[i].y < polygon[next].y
                          ? Edge{static_cast<uint32_t>(i), static_cast<uint32_t>(next)}
                          : Edge{static_cast<uint32_t>(next), static_cast<uint32_t>(i)};
    const ScreenVertex& top = polygon[edge.top];
    const ScreenVertex& bottom = polygon[edge.bottom];
    // The edge covers rows ceil(top.y) .. ceil(bottom.y) - 1: half-open, so a vertex row belongs
    // to exactly one of the two edges meeting there (or to both when it lies at an integer y on
    // a vertical extreme, which min/max handles).
    const int64_t edge_first = std::max(fixed_ceil64(top.y), first_row);
    const int64_t edge_end = std::min(fixed_ceil64(bottom.y), end_row);
    if (edge_first >= edge_end) continue;
    const auto edge_index = static_cast<int32_t>(work.edges.size());
    work.edges.push_back(edge);

    EdgeStepper x(top, bottom, edge_first, edge_end - edge_first);
    RowCrossings* crossings = work.rows.data() + (edge_first - first_row);
    for (int64_t row = edge_first; row < edge_end; ++row, ++crossings, x.advance()) {
      // Strict comparisons: on a tie the earlier edge keeps the row, deterministically. Written
      // as selects rather than branches: which edge wins a row is data the branch predictor
      // cannot learn, and mispredictions were most of this loop's time.
      const int64_t value = x.value();
      const bool further_left = value < crossings->left_x;
      const bool further_right = value > crossings->right_x;
      crossings->left_x = further_left ? value : crossings->left_x;
      crossings->left_edge = further_left ? edge_index : crossings->left_edge;
      crossings->right_x = further_right ? value : crossings->right_x;
      crossings->right_edge = further_right ? edge_index : crossings->right_edge;
    }
  }
  return first_row;
}

}  // namespace shapevm::raster::scan
