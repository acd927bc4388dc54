#include "raster/depth_fill.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <new>
#include <stdexcept>

#include "raster/scan_table.h"

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

// The colour a pixel takes before blending; false when a transparent texel leaves it alone.
// The pixel's depth (1/w), u and v (times 1/w when perspective) and shade come as scalars, so the
// pixel loop keeps them in registers (held in an array, they were stored and read back on every
// pixel). Always inline: GCC kept it out of line once the fill had two instantiations.
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

// kReference evaluates each row's attributes afresh where its edges cross it (edge_value, two
// divisions per attribute and row) and divides in 128 bits; otherwise each side's attributes are
// stepped down its edge with the exact steppers, which give the same values, and the gradients
// divide through scan::divide_truncating (fill_depth_reference is the test of both).
template <bool kReference>
void fill_depth_rows(Framebuffer& frame, DepthBuffer* depth, std::span<const ScreenVertex> polygon,
                     const DepthStyle& style, const FillRules& rules) {
  check_depth(frame, depth);
  check_style(style);
  if (polygon.size() < 3) return;
  const ClipRect clip = effective_clip(frame, rules);
  if (clip.empty()) return;
  Work& work = work_area();
  const int64_t first_row = scan::build_ylr(polygon, clip.top, clip.bottom, work);
  if (work.rows.empty()) return;
  work.vertex.resize(polygon.size());
  for (size_t i = 0; i < polygon.size(); ++i) {
    const int64_t q = depth_of(polygon[i].inv_w);
    const bool p = style.perspective && style.texture != nullptr;
    work.vertex[i] = {q, p ? int64_t{polygon[i].u} * q : polygon[i].u,
                      p ? int64_t{polygon[i].v} * q : polygon[i].v, polygon[i].shade};
  }
  // The pixels' copy of the style: read through the caller's reference, its fields would be read
  // again after every pixel's store (which may alias them as far as the compiler knows).
  const DepthStyle pixel_style = style;
  [[maybe_unused]] scan::SideAttributes<kAttributes> left_side, right_side;
  for (size_t index = 0; index < work.rows.size(); ++index) {
    const scan::RowCrossings& crossings = work.rows[index];
    if (crossings.left_edge < 0) continue;
    const int64_t row = first_row + static_cast<int64_t>(index);
    const int64_t span_begin = fixed_floor64(crossings.left_x);
    const int64_t span_end = fixed_floor64(crossings.right_x) + (rules.no_overlap ? 0 : 1);
    const int64_t draw_begin = std::max<int64_t>(span_begin, clip.left);
    const int64_t draw_end = std::min<int64_t>(span_end, clip.right);
    if (draw_begin >= draw_end) continue;
    uint8_t* out = frame.row(static_cast<int>(row));
    uint32_t* depth_row = depth != nullptr ? depth->row(static_cast<int>(row)) : nullptr;
    const int64_t width = std::max<int64_t>(crossings.right_x - crossings.left_x, kFixedOne);
    const int64_t skipped = draw_begin - span_begin;
    Attributes value{}, step{};
    if constexpr (kReference) {
      const scan::Edge& left = work.edges[static_cast<size_t>(crossings.left_edge)];
      const scan::Edge& right = work.edges[static_cast<size_t>(crossings.right_edge)];
      for (size_t a = 0; a < kAttributes; ++a) {
        const int64_t l = scan::edge_value(polygon, left, work.vertex[left.top][a],
                                           work.vertex[left.bottom][a], row);
        const int64_t r = scan::edge_value(polygon, right, work.vertex[right.top][a],
                                           work.vertex[right.bottom][a], row);
        // In 128 bits throughout, as the reference for divide_truncating's 64-bit shortcut too.
        step[a] = static_cast<int64_t>(static_cast<Wide>(r - l) * kFixedOne / width);
        value[a] = l + step[a] * skipped;
      }
    } else {
      constexpr unsigned kEvery = (1u << kAttributes) - 1;
      left_side.reach(polygon, work.edges, work.vertex, crossings.left_edge, row, kEvery);
      right_side.reach(polygon, work.edges, work.vertex, crossings.right_edge, row, kEvery);
      for (size_t a = 0; a < kAttributes; ++a) {
        const int64_t l = left_side.values[a].value();
        step[a] = scan::divide_truncating(
            static_cast<Wide>(right_side.values[a].value() - l) * kFixedOne, width);
        value[a] = l + step[a] * skipped;
      }
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

}  // namespace

void fill_depth(Framebuffer& frame, DepthBuffer* depth, std::span<const ScreenVertex> polygon,
                const DepthStyle& style, const FillRules& rules) {
  fill_depth_rows<false>(frame, depth, polygon, style, rules);
}

void fill_depth_reference(Framebuffer& frame, DepthBuffer* depth,
                          std::span<const ScreenVertex> polygon, const DepthStyle& style,
                          const FillRules& rules) {
  fill_depth_rows<true>(frame, depth, polygon, style, rules);
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
