#include "raster/depth_fill.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <utility>

#include "raster/scan_table.h"
#include "raster/span_ends.h"

namespace shapevm::raster {
namespace {

using scan::Wide;

// Like the perspective fill: 1/w at Q28 keeps u/w below 2^59.
constexpr int kQShift = 2;

// Attributes interpolated per pixel: depth (1/w), u, v (times 1/w when perspective), shade.
constexpr size_t kDepth = 0, kU = 1, kV = 2, kShade = 3, kAttributes = 4;
using Attributes = std::array<int64_t, kAttributes>;

struct Work : scan::ScanTable {
  std::vector<Attributes> vertex;
};

Work& work_area() {
  thread_local Work instance;
  return instance;
}

using scan::effective_clip;

void check_depth(const Framebuffer& frame, const DepthBuffer* depth) {
  if (depth != nullptr && (depth->width() != frame.width() || depth->height() != frame.height()))
    throw std::invalid_argument("depth buffer: its size must be the frame's");
}

int64_t wrap_or_clamp(int64_t t, int size, bool repeat) {
  if (repeat) {
    const int64_t m = t % size;
    return m < 0 ? m + size : m;
  }
  return std::clamp<int64_t>(t, 0, size - 1);
}

// The colour a pixel takes before blending, decided from the whole style; false when a
// transparent texel leaves it alone. The reference's pixels (fill_depth's spans make the same
// decisions with the style fixed at compile time: depth_span below). The pixel's depth (1/w), u
// and v (times 1/w when perspective) and shade come as scalars, so the pixel loop keeps them in
// registers (held in an array, they were stored and read back on every pixel).
[[gnu::always_inline]] inline bool source_colour(const DepthStyle& style, int64_t depth_q,
                                                 int64_t u, int64_t v, int64_t shade,
                                                 uint8_t& colour) {
  colour = style.color;
  if (style.texture != nullptr) {
    const Texture& t = *style.texture;
    if (style.perspective) {
      const int64_t q = std::max<int64_t>(depth_q, 1);
      u /= q;
      v /= q;
    }
    const int64_t x = wrap_or_clamp(fixed_floor64(u), t.width, style.repeat);
    const int64_t y = wrap_or_clamp(fixed_floor64(v), t.height, style.repeat);
    colour =
        t.pixels[static_cast<size_t>(y) * static_cast<size_t>(t.width) + static_cast<size_t>(x)];
    if (colour == t.transparent_index) return false;
  }
  if (!style.shade_rows.empty()) {
    const int64_t rows = static_cast<int64_t>(style.shade_rows.size() / 256);
    const int64_t level = std::clamp<int64_t>(fixed_floor64(shade), 0, rows - 1);
    colour = style.shade_rows[static_cast<size_t>(level * 256 + colour)];
  }
  return true;
}

[[gnu::always_inline]] inline void write_pixel(uint8_t* out, uint32_t* depth_row, int64_t x,
                                               uint32_t d, const DepthStyle& style,
                                               uint8_t colour) {
  if (depth_row != nullptr) {
    if (d < depth_row[x]) return;
    if (style.depth_write) depth_row[x] = d;
  }
  if (!style.blend.empty()) colour = style.blend[size_t{colour} * 256 + out[x]];
  out[x] = colour;
}

void check_style(const DepthStyle& style) {
  if (style.texture != nullptr && !style.texture->valid())
    throw std::invalid_argument("texture: width and height must be positive and match the pixels");
  if (style.shade_rows.size() % 256 != 0)
    throw std::invalid_argument("fill_depth: shade rows must be whole rows of 256 entries");
  if (!style.blend.empty() && style.blend.size() != 65536)
    throw std::invalid_argument("fill_depth: a blend table has 65536 entries");
}

}  // namespace

DepthBuffer::DepthBuffer(int width, int height) : width_(width), height_(height) {
  if (width < 1 || height < 1 || width > Framebuffer::kMaxDimension ||
      height > Framebuffer::kMaxDimension)
    throw std::invalid_argument("depth buffer: size out of range");
  values_.reset(static_cast<uint32_t*>(std::calloc(size(), sizeof(uint32_t))));
  if (!values_) throw std::bad_alloc();
}

void DepthBuffer::Free::operator()(uint32_t* p) const {
  std::free(p);
}

uint32_t DepthBuffer::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_)
    throw std::out_of_range("depth buffer: pixel outside the buffer");
  return values_[static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x)];
}

uint32_t depth_of(int32_t inv_w) {
  const int64_t clamped = std::clamp<int64_t>(inv_w, 1, kInvWOne);
  return static_cast<uint32_t>(std::max<int64_t>(clamped >> kQShift, 1));
}

namespace {

// The attributes a style reads (bit a = attribute a): depth when there is a buffer to test or a
// perspective texture to divide, u and v with a texture, shade with shade rows. The others are
// neither entered, stepped nor divided: no pixel depends on them.
unsigned attributes_read(const DepthStyle& style, bool tested) {
  const bool textured = style.texture != nullptr;
  return ((tested || (textured && style.perspective)) ? 1u << kDepth : 0u) |
         (textured ? (1u << kU) | (1u << kV) : 0u) |
         (!style.shade_rows.empty() ? 1u << kShade : 0u);
}

// A texel coordinate wrapped (repeat) or clamped into [0, size): wrap_or_clamp's answers, with
// the remainder taken as a mask when the size is a power of two (the floor modulo of a power of
// two is the low bits, negative coordinates included), as most textures' sizes are.
struct TexelAxis {
  int64_t size = 1;
  int64_t mask = -1;  // size - 1 when size is a power of two, else -1
  bool repeat = false;
  TexelAxis() = default;
  TexelAxis(int axis_size, bool wraps)
      : size(axis_size),
        mask((axis_size & (axis_size - 1)) == 0 ? axis_size - 1 : -1),
        repeat(wraps) {}
  int64_t operator()(int64_t t) const {
    if (!repeat) return std::clamp<int64_t>(t, 0, size - 1);
    if (mask >= 0) return t & mask;
    const int64_t m = t % size;
    return m < 0 ? m + size : m;
  }
};

// What a span's pixels read of the style, gathered once per polygon (texture, wrap, shade rows,
// blend table) rather than found again on every row.
struct SpanStyle {
  uint8_t color = 0;
  const uint8_t* texels = nullptr;
  int64_t texture_width = 0;
  int transparent = 0;
  TexelAxis u_axis, v_axis;
  const uint8_t* shade_rows = nullptr;
  int64_t shade_levels = 0;
  const uint8_t* blend = nullptr;
  bool depth_write = false;
};

// The pixels [begin, end) of one row, their attributes from `value` moving by `step`: the pixels
// source_colour and write_pixel give, with what the style reads fixed at compile time, so the
// pixel loop tests none of it. kPerspective only with kTextured. (The flags are not named after
// the attribute indices kShade and so on, which they would hide.)
template <bool kTextured, bool kPerspective, bool kShaded, bool kBlended, bool kTested>
void depth_span(uint8_t* out, uint32_t* depth_row, int64_t begin, int64_t end, const SpanStyle& s,
                const Attributes& value, const Attributes& step) {
  // Everything the pixels read, in locals: a pixel's byte store may alias `s` and `step` as far
  // as the compiler knows, so it would read them again after every pixel.
  const int64_t depth_step = step[kDepth], u_step = step[kU], v_step = step[kV],
                shade_step = step[kShade];
  const uint8_t color = s.color;
  const uint8_t* const texels = s.texels;
  const int64_t texture_width = s.texture_width;
  const int transparent = s.transparent;
  const TexelAxis u_axis = s.u_axis, v_axis = s.v_axis;
  const uint8_t* const shade_rows = s.shade_rows;
  const int64_t last_level = s.shade_levels - 1;
  const uint8_t* const blend = s.blend;
  const bool depth_write = s.depth_write;
  // Decisions that hold for the whole span, read off its first and last pixels (each attribute
  // moves by a constant step, so it is at its extremes there): an affine texture whose texel
  // coordinates stay inside the image at both ends needs neither wrapping nor clamping, a shade
  // whose table row is the same at both ends is that row throughout, and one inside the table at
  // both ends needs no clamp. Leaving out the per-pixel clamp and the row's multiply took a
  // full-screen shaded depth fill a third less time.
  bool texels_direct = false;
  span_ends::ShadeDecision shade_decision;
  if (end - begin >= span_ends::kShortestDecidedRow) {
    const int64_t last = end - 1 - begin;
    if constexpr (kTextured && !kPerspective) {
      const span_ends::FloorRange tu = span_ends::floor_range(value[kU], u_step, last);
      const span_ends::FloorRange tv = span_ends::floor_range(value[kV], v_step, last);
      texels_direct = tu.low >= 0 && tu.high < u_axis.size && tv.low >= 0 && tv.high < v_axis.size;
    }
    if constexpr (kShaded)
      shade_decision =
          span_ends::decide_shade_rows(shade_rows, last_level, value[kShade], shade_step, last);
  }
  const uint8_t* const shade_row = shade_decision.row;
  int64_t depth_q = value[kDepth], u = value[kU], v = value[kV], shade = value[kShade];
  // The pixels, with what the decisions above made unnecessary compiled out (kDirect: texel
  // coordinates used as they are; kShadeRows: shade_row for every pixel, or the level used
  // unclamped).
  const auto write = [&](auto direct, auto shade_kind) {
    constexpr bool kDirect = decltype(direct)::value;
    constexpr span_ends::ShadeRows kShadeRows = decltype(shade_kind)::value;
    for (int64_t x = begin; x < end; ++x) {
      const int64_t q = depth_q, pixel_u = u, pixel_v = v, pixel_shade = shade;
      depth_q += depth_step;
      u += u_step;
      v += v_step;
      shade += shade_step;
      uint8_t colour = color;
      if constexpr (kTextured) {
        int64_t tu = pixel_u, tv = pixel_v;
        if constexpr (kPerspective) {
          const int64_t divisor = std::max<int64_t>(q, 1);
          tu /= divisor;
          tv /= divisor;
        }
        const int64_t tx = kDirect ? fixed_floor64(tu) : u_axis(fixed_floor64(tu));
        const int64_t ty = kDirect ? fixed_floor64(tv) : v_axis(fixed_floor64(tv));
        colour = texels[static_cast<size_t>(ty * texture_width + tx)];
        if (colour == transparent) continue;
      }
      if constexpr (kShaded)
        colour = span_ends::shaded_colour<kShadeRows>(shade_rows, shade_row, last_level,
                                                      pixel_shade, colour);
      if constexpr (kTested) {
        const auto d = static_cast<uint32_t>(std::max<int64_t>(q, 1));
        if (d < depth_row[x]) continue;
        if (depth_write) depth_row[x] = d;
      }
      if constexpr (kBlended) colour = blend[size_t{colour} * 256 + out[x]];
      out[x] = colour;
    }
  };
  span_ends::with_decisions<kTextured && !kPerspective, kShaded>(texels_direct, shade_decision.rows,
                                                                 write);
}

using DepthSpan = void (*)(uint8_t*, uint32_t*, int64_t, int64_t, const SpanStyle&,
                           const Attributes&, const Attributes&);

// The span for each combination, indexed by textured | perspective << 1 | shaded << 2 |
// blended << 3 | tested << 4 (perspective only with a texture).
template <size_t... kIndex>
constexpr std::array<DepthSpan, sizeof...(kIndex)> depth_span_table(
    std::index_sequence<kIndex...>) {
  return {&depth_span<(kIndex & 1) != 0, (kIndex & 3) == 3, (kIndex & 4) != 0, (kIndex & 8) != 0,
                      (kIndex & 16) != 0>...};
}
constexpr auto kDepthSpans = depth_span_table(std::make_index_sequence<32>{});

// The vertices' attributes: depth at Q28, u and v (times the depth for a perspective texture),
// shade.
void vertex_attributes(std::span<const ScreenVertex> polygon, const DepthStyle& style,
                       std::vector<Attributes>& out) {
  out.resize(polygon.size());
  const bool p = style.perspective && style.texture != nullptr;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const int64_t q = depth_of(polygon[i].inv_w);
    out[i] = {q, p ? int64_t{polygon[i].u} * q : polygon[i].u,
              p ? int64_t{polygon[i].v} * q : polygon[i].v, polygon[i].shade};
  }
}

using Steppers = std::array<scan::EdgeStepper, kAttributes>;

// fill_depth's rows of one polygon: each row's span between its two crossings, with the
// attributes the style reads (found once, with the span's loop, for the polygon) divided across
// the span and written by that loop.
class DepthRows {
 public:
  DepthRows(Framebuffer& frame, DepthBuffer* depth, const DepthStyle& style, const FillRules& rules,
            const ClipRect& clip)
      : frame_(frame),
        depth_(depth),
        clip_(clip),
        rules_(rules),
        read_(attributes_read(style, depth != nullptr)) {
    span_style_.color = style.color;
    span_style_.depth_write = style.depth_write;
    const bool textured = style.texture != nullptr;
    if (textured) {
      const Texture& t = *style.texture;
      span_style_.texels = t.pixels.data();
      span_style_.texture_width = t.width;
      span_style_.transparent = t.transparent_index;
      span_style_.u_axis = TexelAxis(t.width, style.repeat);
      span_style_.v_axis = TexelAxis(t.height, style.repeat);
    }
    span_style_.shade_rows = style.shade_rows.data();
    span_style_.shade_levels = static_cast<int64_t>(style.shade_rows.size() / 256);
    span_style_.blend = style.blend.data();
    span_ = kDepthSpans[(textured ? 1u : 0u) | (textured && style.perspective ? 2u : 0u) |
                        (!style.shade_rows.empty() ? 4u : 0u) | (!style.blend.empty() ? 8u : 0u) |
                        (depth != nullptr ? 16u : 0u)];
  }
  unsigned read() const { return read_; }

  // Row `row`, crossed at left_x and right_x, where the attributes are `left` and `right`.
  void draw(int64_t row, int64_t left_x, int64_t right_x, const Steppers& left,
            const Steppers& right) const {
    const auto [span_begin, draw_begin, draw_end] = scan::row_span(left_x, right_x, rules_, clip_);
    if (draw_begin >= draw_end) return;
    const int64_t width = std::max<int64_t>(right_x - left_x, kFixedOne);
    const int64_t skipped = draw_begin - span_begin;
    Attributes value{}, step{};
    for (size_t a = 0; a < kAttributes; ++a) {
      if (((read_ >> a) & 1u) == 0) continue;
      const int64_t l = left[a].value();
      step[a] = scan::divide_truncating(static_cast<Wide>(right[a].value() - l) * kFixedOne, width);
      value[a] = l + step[a] * skipped;
    }
    span_(frame_.row(static_cast<int>(row)),
          depth_ != nullptr ? depth_->row(static_cast<int>(row)) : nullptr, draw_begin, draw_end,
          span_style_, value, step);
  }

 private:
  Framebuffer& frame_;
  DepthBuffer* depth_;
  ClipRect clip_;
  const FillRules& rules_;
  unsigned read_;
  SpanStyle span_style_;
  DepthSpan span_;
};

// One edge of a triangle walked down its rows: x and the attributes `read`, each stepped exactly
// as build_ylr steps x and SideAttributes the attributes, so every row gets their values; and the
// edge's place in the polygon's order, which settles a tie as build_ylr does.
struct WalkedEdge {
  scan::EdgeStepper x;
  Steppers values{};
  size_t order = 0;

  // The edge from vertex `top` to vertex `bottom` (top's y the smaller) at `row`, for `rows`
  // rows from there.
  WalkedEdge(std::span<const ScreenVertex> triangle, const std::vector<Attributes>& attributes,
             size_t top, size_t bottom, int64_t row, int64_t rows, unsigned read)
      : x(triangle[top], triangle[bottom], row, rows),
        order((top + 1) % 3 == bottom ? top : bottom) {
    const int64_t offset = row * kFixedOne - triangle[top].y;
    const int64_t height = static_cast<int64_t>(triangle[bottom].y) - triangle[top].y;
    for (size_t a = 0; a < kAttributes; ++a) {
      if (((read >> a) & 1u) == 0) continue;
      const int64_t first = attributes[top][a];
      values[a] = scan::EdgeStepper(first, attributes[bottom][a] - first, offset, height, rows > 1);
    }
  }
  void advance(unsigned read) {
    x.advance();
    for (size_t a = 0; a < kAttributes; ++a)
      if ((read >> a) & 1u) values[a].advance();
  }
};

// A triangle's rows without the YLR table, the way for_each_triangle_row walks them: the long
// edge (top to bottom) crosses every row, the short side (top to middle, then middle to bottom)
// the other crossing. Each row's left and right crossings are build_ylr's: the smaller and the
// larger x, and on a tie the edge earlier in the polygon for both.
void fill_depth_triangle(std::span<const ScreenVertex> triangle,
                         const std::vector<Attributes>& attributes, const ClipRect& clip,
                         const DepthRows& rows) {
  size_t top = 0, middle = 1, bottom = 2;
  if (triangle[middle].y < triangle[top].y) std::swap(top, middle);
  if (triangle[bottom].y < triangle[middle].y) std::swap(middle, bottom);
  if (triangle[middle].y < triangle[top].y) std::swap(top, middle);
  if (triangle[top].y == triangle[bottom].y) return;  // all on one row: no row covered
  const int64_t first_row = std::max<int64_t>(fixed_ceil64(triangle[top].y), clip.top);
  const int64_t end_row = std::min<int64_t>(fixed_ceil64(triangle[bottom].y), clip.bottom);
  if (first_row >= end_row) return;
  const int64_t middle_row = std::clamp(fixed_ceil64(triangle[middle].y), first_row, end_row);
  const unsigned read = rows.read();
  WalkedEdge long_side(triangle, attributes, top, bottom, first_row, end_row - first_row, read);
  WalkedEdge short_side =
      first_row < middle_row
          ? WalkedEdge(triangle, attributes, top, middle, first_row, middle_row - first_row, read)
          : WalkedEdge(triangle, attributes, middle, bottom, first_row, end_row - first_row, read);
  for (int64_t row = first_row;;) {
    const int64_t long_x = long_side.x.value();
    const int64_t short_x = short_side.x.value();
    const bool long_first = long_side.order < short_side.order;
    const bool long_left = long_x < short_x || (long_x == short_x && long_first);
    const bool long_right = long_x > short_x || (long_x == short_x && long_first);
    const WalkedEdge& left = long_left ? long_side : short_side;
    const WalkedEdge& right = long_right ? long_side : short_side;
    rows.draw(row, left.x.value(), right.x.value(), left.values, right.values);
    if (++row == end_row) break;
    long_side.advance(read);
    if (row == middle_row) {
      short_side = WalkedEdge(triangle, attributes, middle, bottom, row, end_row - row, read);
    } else {
      short_side.advance(read);
    }
  }
}

// What both fills check first (the buffer's size, the style's tables), and the rectangle they
// may write; nullopt when nothing can be drawn (fewer than three corners, an empty clip).
std::optional<ClipRect> drawable_clip(const Framebuffer& frame, const DepthBuffer* depth,
                                      std::span<const ScreenVertex> polygon,
                                      const DepthStyle& style, const FillRules& rules) {
  check_depth(frame, depth);
  check_style(style);
  if (polygon.size() < 3) return std::nullopt;
  const ClipRect clip = effective_clip(frame, rules);
  if (clip.empty()) return std::nullopt;
  return clip;
}

}  // namespace

// Each side's attributes are stepped down its edge with the exact steppers, which give the values
// of a direct evaluation, only the attributes the style reads are evaluated, and each span is
// written by one of kDepthSpans; a triangle is walked without the YLR table
// (fill_depth_reference is the test of all of it).
void fill_depth(Framebuffer& frame, DepthBuffer* depth, std::span<const ScreenVertex> polygon,
                const DepthStyle& style, const FillRules& rules) {
  const std::optional<ClipRect> clip = drawable_clip(frame, depth, polygon, style, rules);
  if (!clip) return;
  Work& work = work_area();
  vertex_attributes(polygon, style, work.vertex);
  const DepthRows rows(frame, depth, style, rules, *clip);
  if (polygon.size() == 3) {
    fill_depth_triangle(polygon, work.vertex, *clip, rows);
    return;
  }
  const int64_t first_row = scan::build_ylr(polygon, clip->top, clip->bottom, work);
  scan::SideAttributes<kAttributes> left_side, right_side;
  for (size_t index = 0; index < work.rows.size(); ++index) {
    const scan::RowCrossings& crossings = work.rows[index];
    if (crossings.left_edge < 0) continue;
    const int64_t row = first_row + static_cast<int64_t>(index);
    left_side.reach(polygon, work.edges, work.vertex, crossings.left_edge, row, rows.read());
    right_side.reach(polygon, work.edges, work.vertex, crossings.right_edge, row, rows.read());
    rows.draw(row, crossings.left_x, crossings.right_x, left_side.values, right_side.values);
  }
}

// Each row's attributes evaluated afresh where its edges cross it (edge_value, two divisions per
// attribute and row), divided in 128 bits, and each pixel drawn through source_colour and
// write_pixel with the whole style.
void fill_depth_reference(Framebuffer& frame, DepthBuffer* depth,
                          std::span<const ScreenVertex> polygon, const DepthStyle& style,
                          const FillRules& rules) {
  const std::optional<ClipRect> clip = drawable_clip(frame, depth, polygon, style, rules);
  if (!clip) return;
  Work& work = work_area();
  const int64_t first_row = scan::build_ylr(polygon, clip->top, clip->bottom, work);
  if (work.rows.empty()) return;
  vertex_attributes(polygon, style, work.vertex);
  // Read through the caller's reference, the style's fields would be read again after every
  // pixel's store (which may alias them as far as the compiler knows).
  const DepthStyle pixel_style = style;
  for (size_t index = 0; index < work.rows.size(); ++index) {
    const scan::RowCrossings& crossings = work.rows[index];
    if (crossings.left_edge < 0) continue;
    const int64_t row = first_row + static_cast<int64_t>(index);
    const auto [span_begin, draw_begin, draw_end] =
        scan::row_span(crossings.left_x, crossings.right_x, rules, *clip);
    if (draw_begin >= draw_end) continue;
    uint8_t* out = frame.row(static_cast<int>(row));
    uint32_t* depth_row = depth != nullptr ? depth->row(static_cast<int>(row)) : nullptr;
    const int64_t width = std::max<int64_t>(crossings.right_x - crossings.left_x, kFixedOne);
    const int64_t skipped = draw_begin - span_begin;
    const scan::Edge& left = work.edges[static_cast<size_t>(crossings.left_edge)];
    const scan::Edge& right = work.edges[static_cast<size_t>(crossings.right_edge)];
    Attributes value{}, step{};
    for (size_t a = 0; a < kAttributes; ++a) {
      const int64_t l = scan::edge_value(polygon, left, work.vertex[left.top][a],
                                         work.vertex[left.bottom][a], row);
      const int64_t r = scan::edge_value(polygon, right, work.vertex[right.top][a],
                                         work.vertex[right.bottom][a], row);
      // In 128 bits throughout, as the reference for divide_truncating's 64-bit shortcut too.
      step[a] = static_cast<int64_t>(static_cast<Wide>(r - l) * kFixedOne / width);
      value[a] = l + step[a] * skipped;
    }
    int64_t depth_q = value[kDepth], u = value[kU], v = value[kV], shade = value[kShade];
    for (int64_t x = draw_begin; x < draw_end; ++x) {
      uint8_t colour = 0;
      if (source_colour(pixel_style, depth_q, u, v, shade, colour)) {
        const auto d = static_cast<uint32_t>(std::max<int64_t>(depth_q, 1));
        write_pixel(out, depth_row, x, d, pixel_style, colour);
      }
      depth_q += step[kDepth];
      u += step[kU];
      v += step[kV];
      shade += step[kShade];
    }
  }
}

void draw_line_depth(Framebuffer& frame, DepthBuffer* depth, const ScreenVertex& a,
                     const ScreenVertex& b, const DepthStyle& style, const FillRules& rules) {
  check_depth(frame, depth);
  if (!style.blend.empty() && style.blend.size() != 65536)
    throw std::invalid_argument("draw_line_depth: a blend table has 65536 entries");
  const ClipRect clip = effective_clip(frame, rules);
  if (clip.empty()) return;
  int64_t x = fixed_floor(a.x);
  int64_t y = fixed_floor(a.y);
  const int64_t x_end = fixed_floor(b.x);
  const int64_t y_end = fixed_floor(b.y);
  if (std::max(x, x_end) < clip.left || std::min(x, x_end) >= clip.right ||
      std::max(y, y_end) < clip.top || std::min(y, y_end) >= clip.bottom)
    return;
  // The same Bresenham walk as draw_line; depth goes from a's to b's over the longer axis.
  const int64_t dx = std::abs(x_end - x);
  const int64_t dy = -std::abs(y_end - y);
  const int64_t step_x = x < x_end ? 1 : -1;
  const int64_t step_y = y < y_end ? 1 : -1;
  const int64_t steps = std::max<int64_t>(std::max(dx, -dy), 1);
  const int64_t d0 = depth_of(a.inv_w), d1 = depth_of(b.inv_w);
  int64_t error = dx + dy;
  int64_t taken = 0;
  while (true) {
    if (x >= clip.left && x < clip.right && y >= clip.top && y < clip.bottom) {
      const auto d = static_cast<uint32_t>(d0 + mul_div_floor(d1 - d0, taken, steps));
      uint32_t* depth_row = depth != nullptr ? depth->row(static_cast<int>(y)) : nullptr;
      write_pixel(frame.row(static_cast<int>(y)), depth_row, x, d, style, style.color);
    }
    if (x == x_end && y == y_end) break;
    const int64_t doubled = 2 * error;
    if (doubled >= dy) {
      error += dy;
      x += step_x;
    }
    if (doubled <= dx) {
      error += dx;
      y += step_y;
    }
    ++taken;
  }
}

}  // namespace shapevm::raster
