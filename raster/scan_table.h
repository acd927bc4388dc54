// The per-scanline Left/Right ("YLR") table every polygon fill walks (polygon_fill.h describes
// the conventions): shared by the painter's fills and the depth-tested fill (depth_fill.h) so
// both place edges identically. Internal to raster/.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
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

// numerator / denominator truncated toward zero, denominator > 0, as an int64_t: in 64 bits
// when the numerator fits (nearly always), since the 128-bit division is a library call several
// times slower.
inline int64_t divide_truncating(Wide numerator, int64_t denominator) {
  if (numerator >= std::numeric_limits<int64_t>::min() &&
      numerator <= std::numeric_limits<int64_t>::max())
    return static_cast<int64_t>(numerator) / denominator;
  return static_cast<int64_t>(numerator / denominator);
}

// floor(factor * multiplier / denominator) split into quotient and a remainder in
// [0, denominator); denominator > 0. The product is made in 64 bits when it fits there, as an
// edge's nearly always does: the 128-bit division is a library call several times slower (it was
// a tenth of a frame's time), and testing whether a 128-bit product fits in 64 bits cost more
// than the multiplication's own overflow flag.
inline void floor_divmod_product(int64_t factor, int64_t multiplier, int64_t denominator,
                                 int64_t& quotient, int64_t& remainder) {
  int64_t product = 0;
  if (__builtin_mul_overflow(factor, multiplier, &product)) [[unlikely]] {
    const Wide wide = static_cast<Wide>(factor) * multiplier;
    Wide q = wide / denominator;
    Wide r = wide % denominator;
    if (r < 0) {
      --q;
      r += denominator;
    }
    quotient = static_cast<int64_t>(q);
    remainder = static_cast<int64_t>(r);
    return;
  }
  quotient = product / denominator;
  remainder = product % denominator;
  // Without a branch: the remainder's sign follows the edge's slope, which faces mix at random.
  const int64_t negative = remainder >> 63;  // all ones when the remainder is negative
  quotient += negative;
  remainder += denominator & negative;
}

// Steps x(row) = top.x + floor(dx * (row - top.y) / dy) one row at a time with an exact
// quotient/remainder pair, so every row gets the same value a direct evaluation would, and a
// shared edge gives identical crossings to both polygons that use it.
class EdgeStepper {
 public:
  EdgeStepper() = default;
  // `stepped`: advance() will be called. Without it the step's division is left out: most edges
  // of a small face cover one row, and that division was a tenth of such a face's fill. Both
  // constructors always inline: GCC called them out of line once floor_divmod_product stood in
  // them, and the 400-face frame took 18% longer.
  [[gnu::always_inline]] EdgeStepper(int64_t start, int64_t delta, int64_t offset,
                                     int64_t denominator, bool stepped = true)
      : denominator_(static_cast<uint64_t>(denominator)) {
    int64_t remainder = 0;
    floor_divmod_product(delta, offset, denominator, value_, remainder);
    value_ += start;
    bias_remainder(remainder);
    if (stepped) {
      int64_t step_remainder = 0;
      floor_divmod_product(delta, kFixedOne, denominator, step_quotient_, step_remainder);
      step_remainder_ = static_cast<uint64_t>(step_remainder);
    }
  }
  // The edge from `top` to `bottom` (top.y < bottom.y), at `row`, for `rows` rows from there
  // (advance() called rows - 1 times).
  [[gnu::always_inline]] EdgeStepper(const ScreenVertex& top, const ScreenVertex& bottom,
                                     int64_t row, int64_t rows)
      : EdgeStepper(top.x, static_cast<int64_t>(bottom.x) - top.x, row * kFixedOne - top.y,
                    static_cast<int64_t>(bottom.y) - top.y, rows > 1) {}
  int64_t value() const { return value_; }
  void advance() {
    // Without a branch: whether the remainder carries follows the edge's slope, a pattern the
    // branch predictor misses on nearly every other row of a steep edge. The remainder is kept
    // less the denominator (modulo 2^64), so that it reaches the denominator exactly when the
    // step's addition overflows: the carry comes out of that addition (the value takes it with
    // adc): six instructions a side per row, where comparing took nine.
    uint64_t sum = 0;
    const bool carry = __builtin_add_overflow(biased_remainder_, step_remainder_, &sum);
    value_ += step_quotient_ + carry;
    biased_remainder_ = sum - (denominator_ & (uint64_t{0} - carry));
  }

 private:
  void bias_remainder(int64_t remainder) {
    biased_remainder_ = static_cast<uint64_t>(remainder) - denominator_;
  }
  uint64_t denominator_ = 1;
  int64_t value_ = 0;
  uint64_t biased_remainder_ = 0;  // remainder - denominator, modulo 2^64
  int64_t step_quotient_ = 0;
  uint64_t step_remainder_ = 0;
};

struct ScanTable {
  std::vector<Edge> edges;
  std::vector<RowCrossings> rows;
};

// Builds the YLR table for rows [row_begin, row_end) into `work`; returns the row that
// work.rows[0] describes. Leaves work.rows empty when no row is covered.
int64_t build_ylr(std::span<const ScreenVertex> polygon, int64_t row_begin, int64_t row_end,
                  ScanTable& work);

// One side of a y-monotone polygon walked downward row by row: the vertices from the top one
// onwards in one direction (step +1 or -1 around the polygon), each edge stepped exactly as
// build_ylr steps it. Horizontal edges and edges between two vertices in one row interval cover
// no row and are passed over.
class ChainWalker {
 public:
  ChainWalker(std::span<const ScreenVertex> polygon, size_t top, bool forward)
      : polygon_(polygon), current_(top), forward_(forward) {}
  // Moves to the edge covering `row`, which lies between the polygon's first and last rows.
  void enter(int64_t row) {
    for (size_t guard = polygon_.size(); guard > 0; --guard) {
      const size_t next = step(current_);
      const int64_t next_row = fixed_ceil64(polygon_[next].y);
      if (next_row > row) {
        x_ = EdgeStepper(polygon_[current_], polygon_[next], row, next_row - row);
        edge_end_ = next_row;
        return;
      }
      current_ = next;
    }
  }
  // The first row past the current edge.
  int64_t edge_end() const { return edge_end_; }
  // The current edge's stepper, for a caller to step through the edge's rows in its own copy
  // and hand back with resume().
  const EdgeStepper& stepper() const { return x_; }
  // To `row`, the row after the last one `stepped` (the caller's copy of stepper()) was read
  // for: one step further on the same edge, or onto the edge covering `row`.
  void resume(const EdgeStepper& stepped, int64_t row) {
    if (row < edge_end_) {
      x_ = stepped;
      x_.advance();
    } else {
      enter(row);
    }
  }

 private:
  size_t step(size_t i) const {
    const size_t n = polygon_.size();
    return forward_ ? (i + 1 == n ? 0 : i + 1) : (i == 0 ? n - 1 : i - 1);
  }
  std::span<const ScreenVertex> polygon_;
  size_t current_;
  bool forward_;
  EdgeStepper x_;
  int64_t edge_end_ = 0;
};

// The YLR table's rows without the table, for a polygon whose y goes down along one side and up
// along the other (y-monotone: every convex polygon, and most faces shape programs emit). Every
// row such a polygon covers is crossed by exactly one edge of each side, so the row's crossings
// are the smaller and the larger of two values, the ones build_ylr would find. Calls
// span(row, left_x, right_x) for each covered row in [row_begin, row_end), top to bottom, and
// returns true; returns false without calling it when the polygon is not y-monotone (or has
// fewer than three vertices), for build_ylr to handle. Before the first span, calls
// rows(first_row, end_row) once with the rows the spans will cover.
//
// A triangle (nearly every face of a mesh) is always y-monotone when it covers more than one
// y: it is walked by for_each_triangle_row, which finds the same edges for every row without the
// turn count and the chain walk.
template <typename SpanFn, typename RowsFn>
bool for_each_triangle_row(std::span<const ScreenVertex> triangle, int64_t row_begin,
                           int64_t row_end, SpanFn&& span, RowsFn&& rows) {
  // top, middle, bottom by y. Ties may go either way: an edge between two vertices of one y
  // covers no row, so either order gives the same edges for every row.
  const ScreenVertex* top = &triangle[0];
  const ScreenVertex* middle = &triangle[1];
  const ScreenVertex* bottom = &triangle[2];
  if (middle->y < top->y) std::swap(top, middle);
  if (bottom->y < middle->y) std::swap(middle, bottom);
  if (middle->y < top->y) std::swap(top, middle);
  if (top->y == bottom->y) return false;  // all on one row: no row covered
  const int64_t first_row = std::max(fixed_ceil64(top->y), row_begin);
  const int64_t end_row = std::min(fixed_ceil64(bottom->y), row_end);
  if (first_row >= end_row) return true;
  rows(first_row, end_row);
  // The long side, top to bottom, covers every row; the short side is top to middle, then
  // middle to bottom.
  EdgeStepper long_side(*top, *bottom, first_row, end_row - first_row);
  const int64_t middle_row = std::clamp(fixed_ceil64(middle->y), first_row, end_row);
  EdgeStepper short_side = first_row < middle_row
                               ? EdgeStepper(*top, *middle, first_row, middle_row - first_row)
                               : EdgeStepper(*middle, *bottom, first_row, end_row - first_row);
  for (int64_t row = first_row;;) {
    const int64_t xa = long_side.value();
    const int64_t xb = short_side.value();
    span(row, std::min(xa, xb), std::max(xa, xb));
    if (++row == end_row) break;
    long_side.advance();
    if (row == middle_row) {
      short_side = EdgeStepper(*middle, *bottom, row, end_row - row);
    } else {
      short_side.advance();
    }
  }
  return true;
}

template <typename SpanFn, typename RowsFn>
bool for_each_monotone_row(std::span<const ScreenVertex> polygon, int64_t row_begin,
                           int64_t row_end, SpanFn&& span, RowsFn&& rows) {
  const size_t n = polygon.size();
  if (n == 3) return for_each_triangle_row(polygon, row_begin, row_end, span, rows);
  if (n < 3) return false;
  // Count the turns between going down and going up around the closed polygon, ignoring
  // horizontal edges: a y-monotone polygon turns exactly twice, at its top and at its bottom.
  int turns = 0;
  int first_direction = 0;
  int direction = 0;
  size_t top = 0;
  for (size_t i = 0; i < n; ++i) {
    if (polygon[i].y < polygon[top].y) top = i;
    const Fixed y0 = polygon[i].y;
    const Fixed y1 = polygon[i + 1 == n ? 0 : i + 1].y;
    if (y0 == y1) continue;
    const int d = y1 > y0 ? 1 : -1;
    if (first_direction == 0) {
      first_direction = d;
    } else if (d != direction) {
      ++turns;
    }
    direction = d;
  }
  if (first_direction == 0) return false;  // all on one row: no row covered
  if (direction != first_direction) ++turns;
  if (turns != 2) return false;

  Fixed y_max = polygon[0].y;
  for (const ScreenVertex& vertex : polygon) y_max = std::max(y_max, vertex.y);
  const int64_t first_row = std::max(fixed_ceil64(polygon[top].y), row_begin);
  const int64_t end_row = std::min(fixed_ceil64(y_max), row_end);
  if (first_row >= end_row) return true;
  rows(first_row, end_row);
  ChainWalker a(polygon, top, true);
  ChainWalker b(polygon, top, false);
  a.enter(first_row);
  b.enter(first_row);
  for (int64_t row = first_row;;) {
    // The rows until either side reaches a vertex, stepped in local copies: the walkers live in
    // memory (enter() is out of line), and stepping them there put a store and a reload on each
    // row's chain of dependent steps. At least one row: a walker that found no edge (its edge
    // end behind the row) is entered again on every row, as it was when each row stepped both.
    const int64_t stretch_end = std::max(std::min({a.edge_end(), b.edge_end(), end_row}), row + 1);
    EdgeStepper xa = a.stepper();
    EdgeStepper xb = b.stepper();
    for (;;) {
      span(row, std::min(xa.value(), xb.value()), std::max(xa.value(), xb.value()));
      if (++row == stretch_end) break;
      xa.advance();
      xb.advance();
    }
    if (row >= end_row) break;
    a.resume(xa, row);
    b.resume(xb, row);
  }
  return true;
}
template <typename SpanFn>
bool for_each_monotone_row(std::span<const ScreenVertex> polygon, int64_t row_begin,
                           int64_t row_end, SpanFn&& span) {
  return for_each_monotone_row(polygon, row_begin, row_end, span, [](int64_t, int64_t) {});
}

// A value interpolated along `edge` (a0 at its top vertex, a1 at its bottom) where it crosses
// `row`, evaluated exactly with the same rounding as the x crossing.
inline int64_t edge_value(std::span<const ScreenVertex> polygon, const Edge& edge, int64_t a0,
                          int64_t a1, int64_t row) {
  const int64_t offset = row * kFixedOne - polygon[edge.top].y;
  const int64_t height = static_cast<int64_t>(polygon[edge.bottom].y) - polygon[edge.top].y;
  return a0 + mul_div_floor(a1 - a0, offset, height);
}

// The attributes where one side of a polygon (its left or its right crossings) meets each row,
// stepped down the edge the side is on with the x crossing's exact stepper: the same values
// edge_value gives, without its division per row and attribute. Entered afresh when the side
// moves to another edge (or a row is skipped).
template <size_t kCount>
struct SideAttributes {
  int32_t edge = -1;
  int64_t next_row = 0;
  std::array<EdgeStepper, kCount> values{};

  // To `row` on `edges[edge_index]`, whose vertices' attributes are `vertex_attributes[i][a]`;
  // only the attributes in `read` (bit a = attribute a) are kept.
  template <typename VertexAttributes>
  void reach(std::span<const ScreenVertex> polygon, std::span<const Edge> edges,
             const VertexAttributes& vertex_attributes, int32_t edge_index, int64_t row,
             unsigned read) {
    if (edge_index == edge && row == next_row) {
      for (size_t a = 0; a < kCount; ++a)
        if ((read >> a) & 1u) values[a].advance();
    } else {
      edge = edge_index;
      const Edge& e = edges[static_cast<size_t>(edge_index)];
      const int64_t offset = row * kFixedOne - polygon[e.top].y;
      const int64_t height = static_cast<int64_t>(polygon[e.bottom].y) - polygon[e.top].y;
      for (size_t a = 0; a < kCount; ++a) {
        if (((read >> a) & 1u) == 0) continue;
        const int64_t top = vertex_attributes[e.top][a];
        values[a] = EdgeStepper(top, vertex_attributes[e.bottom][a] - top, offset, height);
      }
    }
    next_row = row + 1;
  }
};

// A row's span by the fill rule (every fill's, the depth-tested one too): from floor(L) to floor(R)
// + 1 exclusive, or to floor(R) with no_overlap; then the part inside the clip's columns (empty
// when begin >= end).
struct Span {
  int64_t begin;       // floor(L): where the attributes start
  int64_t draw_begin;  // the clipped columns to write
  int64_t draw_end;
};
// `end_bias`: 1, or 0 with no_overlap (span_end_bias). A fill's row loop takes it as a value: read
// from the rules on every row, it was read again after each row's stores, which the compiler
// took to write anything.
inline Span row_span(int64_t left_x, int64_t right_x, int64_t end_bias, const ClipRect& clip) {
  const int64_t begin = fixed_floor64(left_x);
  const int64_t end = fixed_floor64(right_x) + end_bias;
  return {begin, std::max<int64_t>(begin, clip.left), std::min<int64_t>(end, clip.right)};
}
inline int64_t span_end_bias(const FillRules& rules) {
  return rules.no_overlap ? 0 : 1;
}
inline Span row_span(int64_t left_x, int64_t right_x, const FillRules& rules,
                     const ClipRect& clip) {
  return row_span(left_x, right_x, span_end_bias(rules), clip);
}

// The rectangle a fill may write: the frame, narrowed by the rules' clip when they give one.
inline ClipRect effective_clip(const Framebuffer& frame, const FillRules& rules) {
  ClipRect clip = frame.bounds();
  if (rules.clip) clip = clip.intersect(*rules.clip);
  return clip;
}

}  // namespace shapevm::raster::scan
