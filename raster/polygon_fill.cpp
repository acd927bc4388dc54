#include "raster/polygon_fill.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "raster/scan_table.h"
#include "raster/span_ends.h"

namespace shapevm::raster {

namespace {

using namespace scan;  // the YLR table's own names

// kStyled writes a row through a span function specialised for the style (styled_span);
// kStyledReference decides every pixel from the whole style (styled_pixel), the reference the
// specialised spans are tested against (fill_styled_reference).
enum class FillMode { kFlat, kGouraud, kAffine, kPerspective, kStyled, kStyledReference };

// How many values each fill interpolates: Gouraud {shade}; affine {u, v}; perspective
// {1/w, u/w, v/w}.
constexpr size_t attribute_count(FillMode mode) {
  switch (mode) {
    case FillMode::kFlat:
      return 0;
    case FillMode::kGouraud:
      return 1;
    case FillMode::kAffine:
      return 2;
    case FillMode::kPerspective:
    case FillMode::kStyled:
    case FillMode::kStyledReference:
      return 3;
  }
  return 0;
}

// The perspective kernel carries 1/w at Q28 (the vertex format's Q30 shifted down by two). With
// |u| < 2^31 that keeps u/w below 2^59, so span stepping (which may overshoot the right-hand
// value by up to one step) can never leave int64.
constexpr int kPerspectiveQShift = 2;
constexpr size_t kMaxAttributes = 3;
using Attributes = std::array<int64_t, kMaxAttributes>;

// Reused between calls so a fill allocates nothing once warm.
struct Scratch : ScanTable {
  std::vector<Attributes> vertex_attributes;
};

Scratch& scratch() {
  thread_local Scratch instance;
  return instance;
}

using scan::effective_clip;

template <FillMode kMode>
void vertex_attributes(const ScreenVertex& vertex, Attributes& out) {
  if constexpr (kMode == FillMode::kGouraud) {
    out[0] = vertex.shade;
  } else if constexpr (kMode == FillMode::kAffine) {
    out[0] = vertex.u;
    out[1] = vertex.v;
  } else if constexpr (kMode == FillMode::kStyled || kMode == FillMode::kStyledReference) {
    out[0] = vertex.shade;
    out[1] = vertex.u;
    out[2] = vertex.v;
  } else if constexpr (kMode == FillMode::kPerspective) {
    const int64_t inv_w = std::clamp<int64_t>(vertex.inv_w, 1, kInvWOne);
    const int64_t q = std::max<int64_t>(inv_w >> kPerspectiveQShift, 1);
    out[0] = q;
    out[1] = static_cast<int64_t>(vertex.u) * q;
    out[2] = static_cast<int64_t>(vertex.v) * q;
  }
}

// An attribute where `edge` crosses `row`, evaluated exactly (same rounding as the x crossing).
int64_t edge_attribute(std::span<const ScreenVertex> polygon, const Scratch& work, const Edge& edge,
                       size_t attribute, int64_t row) {
  return edge_value(polygon, edge, work.vertex_attributes[edge.top][attribute],
                    work.vertex_attributes[edge.bottom][attribute], row);
}

// Per-pixel increment of an attribute across a span of `width` (16.16, >= one pixel).
template <FillMode kMode>
int64_t span_step(int64_t delta, int64_t width) {
  if constexpr (kMode == FillMode::kPerspective) {
    // 1/w, u/w, v/w are not 16.16 values; they are bounded (see kPerspectiveQShift) and stepped
    // in 64 bits. Truncation toward zero, like the 16.16 case.
    return divide_truncating(static_cast<Wide>(delta) * kFixedOne, width);
  } else {
    // A 16.16 gradient as the engine computes it: a 32-bit quotient that saturates to
    // +-0x70000000 on overflow.
    return divide_saturating(delta * kFixedOne, width);
  }
}

#if defined(__SSE2__)
// Lanes 0 .. count - 1 set, the others clear (count <= 16): 16 bytes of a table of sixteen set
// bytes then sixteen clear ones, one load where comparing a broadcast count with the lane numbers
// took five instructions a row.
alignas(32) constexpr std::array<uint8_t, 32> kLaneMasks = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
inline __m128i first_lanes(size_t count) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLaneMasks.data() + 16 - count));
}

// The 16 bytes from `at`: where `put` is set they take `colours`' byte, elsewhere they keep
// their own (read and written back).
inline void blend_16(uint8_t* at, __m128i put, __m128i colours) {
  auto* lanes = reinterpret_cast<__m128i*>(at);
  const __m128i old = _mm_loadu_si128(lanes);
  _mm_storeu_si128(lanes, _mm_or_si128(_mm_and_si128(put, colours), _mm_andnot_si128(put, old)));
}
#endif

// `count` >= 1 bytes of `color` from `out`, where the row has `room` >= count bytes from `out` to
// its end. Most rows of most faces are short (in a generated corpus, three in five spans are 16
// pixels or fewer), and a library memset call costs more than the row's stores: up to 32 bytes are
// written here with overlapping unaligned stores. A span of up to 16 pixels with 16 bytes of row
// left takes no branch on its length: the 16 bytes are read, the first `count` replaced and all
// written back (the others with the values they had), which costs less than choosing a store
// width by the length: the generated corpus's frames took about 4% less time.
inline void fill_bytes(uint8_t* out, size_t count, size_t room, uint8_t color) {
#if defined(__SSE2__)  // every x86-64 compiler; elsewhere the stores below do it all
  if (count <= 16 && room >= 16) {
    blend_16(out, first_lanes(count), _mm_set1_epi8(static_cast<char>(color)));
    return;
  }
#else
  (void)room;
#endif
  if (count > 32) {
    std::memset(out, color, count);
    return;
  }
  const uint64_t pattern = 0x0101010101010101ull * color;
  const auto store8 = [pattern](uint8_t* at) { std::memcpy(at, &pattern, 8); };
  if (count >= 16) {
    store8(out);
    store8(out + 8);
    store8(out + count - 16);
    store8(out + count - 8);
  } else if (count >= 8) {
    store8(out);
    store8(out + count - 8);
  } else if (count >= 4) {
    const auto pattern4 = static_cast<uint32_t>(pattern);
    std::memcpy(out, &pattern4, 4);
    std::memcpy(out + count - 4, &pattern4, 4);
  } else {
    out[0] = color;
    out[count / 2] = color;
    out[count - 1] = color;
  }
}

// One pixel of a styled fill; `value` holds shade, u, v.
inline void styled_pixel(uint8_t* out, int64_t x, int64_t row, const SurfaceStyle& style,
                         const int64_t* value) {
  const bool bit = ((style.pattern >> (((row & 3) << 2) | (x & 3))) & 1) != 0;
  if (!bit && !style.pattern_alternates) return;
  uint8_t colour = bit ? style.color : style.color2;
  if (style.texture != nullptr) {
    const Texture& t = *style.texture;
    const int64_t u = fixed_floor64(value[1]);
    const int64_t v = fixed_floor64(value[2]);
    if (style.linear_addressing) {
      const int64_t address = v * t.width + u;
      if (u < 0 || v < 0 || address >= static_cast<int64_t>(t.pixels.size())) return;
      colour = t.pixels[static_cast<size_t>(address)];
    } else {
      colour = t.texel_clamped(u, v);
    }
    if (colour == t.transparent_index) return;
  }
  if (!style.shade_rows.empty()) {
    const int64_t rows = static_cast<int64_t>(style.shade_rows.size() / 256);
    const int64_t level = std::clamp<int64_t>(fixed_floor64(value[0]), 0, rows - 1);
    colour = style.shade_rows[static_cast<size_t>(level * 256 + colour)];
  }
  if (!style.remap.empty()) colour = style.remap[out[x]];
  out[x] = colour;
}

// A row of a styled fill, [begin, end), with the style's per-face decisions taken once: whether
// it is patterned (pattern != 0xFFFF; an all-set pattern draws every pixel in `color`, whether
// or not it alternates), textured, shaded, remapped. Each pixel is what styled_pixel gives it:
// the same steps in the same order, with the branches that cannot change within a face removed.
// That was most of an Apache frame's time, nearly all of it in styled fills.
using Values = std::array<int64_t, kMaxAttributes>;
using StyledSpan = void (*)(uint8_t* out, int64_t begin, int64_t end, int64_t row,
                            const SurfaceStyle& style, Values& value, const Values& step);

// A two-colour or see-through pattern's pixels, 16 at a time (defined below).
void patterned_span(uint8_t* out, int64_t begin, int64_t end, size_t room, int64_t row,
                    const SurfaceStyle& style, uint8_t set, uint8_t clear);

template <bool kPatterned, bool kTextured, bool kShaded, bool kRemapped>
void styled_span(uint8_t* out, int64_t begin, int64_t end, int64_t row, const SurfaceStyle& style,
                 Values& stepped, const Values& steps) {
  // Stepped in local copies: a pixel's store may alias the caller's arrays as far as the compiler
  // knows, which kept each value in memory and put a store and a reload on every pixel's chain.
  Values value = stepped;
  const Values step = steps;
  // The style's fields read once, for the same reason: each pixel's store would otherwise have
  // them read again.
  const unsigned row_bits = (static_cast<unsigned>(style.pattern) >> ((row & 3) << 2)) & 0xFu;
  const uint8_t colour_set = style.color;
  const uint8_t colour_clear = style.color2;
  const bool alternates = style.pattern_alternates;
  const Texture* texture = style.texture;
  const bool linear = style.linear_addressing;
  const uint8_t* texels = kTextured ? texture->pixels.data() : nullptr;
  const int64_t texture_width = kTextured ? texture->width : 0;
  const int64_t texture_size = kTextured ? static_cast<int64_t>(texture->pixels.size()) : 0;
  const int transparent = kTextured ? texture->transparent_index : 0;
  const uint8_t* shade_rows = style.shade_rows.data();
  const int64_t last_shade_row =
      kShaded ? static_cast<int64_t>(style.shade_rows.size() / 256) - 1 : 0;
  const uint8_t* remap = style.remap.data();

  // Decisions that hold for the whole span, read off its first and last pixels: shade, u and v
  // move by a constant step, so each is at its extremes there (the values at pixel k are the
  // first plus k steps). When every (u, v) addresses the image without a check (linear: u, v >= 0
  // and the last address in range; clamped: inside the image), the texel is read directly; when
  // the shade row is the same at both ends it is the same throughout, and when the shade is inside
  // the table at both ends it needs no clamp anywhere. The checks and clamps these leave out were
  // about half of a textured and shaded pixel's instructions.
  bool texels_direct = false;
  span_ends::ShadeDecision shade_decision;
  if (end - begin >= span_ends::kShortestDecidedRow) {
    const int64_t last = end - 1 - begin;
    if constexpr (kTextured) {
      const span_ends::FloorRange u = span_ends::floor_range(value[1], step[1], last);
      const span_ends::FloorRange v = span_ends::floor_range(value[2], step[2], last);
      texels_direct = u.low >= 0 && v.low >= 0 &&
                      (linear ? v.high * texture_width + u.high < texture_size
                              : u.high < texture_width && v.high < texture->height);
    }
    if constexpr (kShaded)
      shade_decision =
          span_ends::decide_shade_rows(shade_rows, last_shade_row, value[0], step[0], last);
  }
  const uint8_t* const shade_row = shade_decision.row;

  // The pixels, with the checks the decisions above left out compiled out (kDirect: texels
  // read directly; kShadeRows: shade_row for every pixel, or the level used unclamped).
  const auto write = [&](auto direct, auto shade_kind) {
    constexpr bool kDirect = decltype(direct)::value;
    constexpr span_ends::ShadeRows kShadeRows = decltype(shade_kind)::value;
    // A transparent texel leaves the pixel as it was: where nothing else can skip a pixel, the
    // pixel is written either way (with its own value then) instead of skipped, which took an
    // Apache archive's frames 8% less time.
    constexpr bool kChooseSeeThrough = kTextured && kDirect && !kPatterned && !kRemapped;
    for (int64_t x = begin; x < end;
         ++x, value[0] += step[0], value[1] += step[1], value[2] += step[2]) {
      uint8_t colour = colour_set;
      [[maybe_unused]] bool see_through = false;
      if constexpr (kPatterned) {
        const bool bit = ((row_bits >> (x & 3)) & 1u) != 0;
        if (!bit) {
          if (!alternates) continue;
          colour = colour_clear;
        }
      }
      if constexpr (kTextured) {
        const int64_t u = fixed_floor64(value[1]);
        const int64_t v = fixed_floor64(value[2]);
        if constexpr (kDirect) {
          colour = texels[static_cast<size_t>(v * texture_width + u)];
        } else if (linear) {
          const int64_t address = v * texture_width + u;
          if (u < 0 || v < 0 || address >= texture_size) continue;
          colour = texels[static_cast<size_t>(address)];
        } else {
          colour = texture->texel_clamped(u, v);
        }
        see_through = colour == transparent;
        if constexpr (!kChooseSeeThrough) {
          if (see_through) continue;
        }
      }
      if constexpr (kShaded)
        colour = span_ends::shaded_colour<kShadeRows>(shade_rows, shade_row, last_shade_row,
                                                      value[0], colour);
      if constexpr (kRemapped) colour = remap[out[x]];
      if constexpr (kChooseSeeThrough) {
        out[x] = see_through ? out[x] : colour;
      } else {
        out[x] = colour;
      }
    }
  };
  // Colours that do not change along the span (no texture or remap, and at most one shade row):
  // one colour is a fill, a pattern's two are written 16 pixels at a time, and the values are
  // stepped past the span as the loop would. Every other span runs the loop.
  bool constant_colours = false;
  if constexpr (!kTextured && !kRemapped)
    constant_colours = end > begin && (!kShaded || shade_row != nullptr);
  if (constant_colours) {
    const uint8_t set = kShaded ? shade_row[colour_set] : colour_set;
    // A styled row does not know how far its row goes on past the span: only the span's own
    // bytes count as room, so the pattern's last part is written byte by byte. (Room 0 was
    // wrong: patterned_span counts room down by 16 for each part it writes.)
    const auto room = static_cast<size_t>(end - begin);
    if constexpr (kPatterned) {
      patterned_span(out, begin, end, room, row, style, set,
                     kShaded ? shade_row[colour_clear] : colour_clear);
    } else {
      std::memset(out + begin, set, room);
    }
    for (size_t a = 0; a < value.size(); ++a) value[a] += step[a] * (end - begin);
  } else {
    span_ends::with_decisions<kTextured, kShaded>(texels_direct, shade_decision.rows, write);
  }
  stepped = value;
}

// The pixels styled_span<true, false, false, false> writes (a two-colour or see-through pattern,
// nothing else), 16 at a time. A row's pattern repeats every four pixels, so one 16-byte lane
// set of colours and of written pixels serves the whole span, rotated once for where it starts.
// That kind was a third of an Apache frame's time pixel by pixel. `room`: bytes from `out` +
// begin to the row's end, so the last part may read and write back 16 bytes when they fit.
// `set` and `clear` are the colours of set and clear pattern bits (the style's own, or shaded):
// the style gives only the pattern and whether clear bits are drawn.
void patterned_span(uint8_t* out, int64_t begin, int64_t end, size_t room, int64_t row,
                    const SurfaceStyle& style, uint8_t set, uint8_t clear) {
  const unsigned row_bits = (static_cast<unsigned>(style.pattern) >> ((row & 3) << 2)) & 0xFu;
  // Byte k: the pixels at x & 3 == k.
  uint32_t colours = 0;
  uint32_t written = 0;
  for (unsigned k = 0; k < 4; ++k) {
    const bool bit = ((row_bits >> k) & 1u) != 0;
    colours |= uint32_t{bit ? set : clear} << (8 * k);
    written |= uint32_t{bit || style.pattern_alternates ? 0xFFu : 0u} << (8 * k);
  }
  if (written == 0) return;
  // Byte i: the pixel at begin + i.
  const int phase = static_cast<int>(begin & 3) * 8;
  colours = std::rotr(colours, phase);
  written = std::rotr(written, phase);
  uint8_t* at = out + begin;
  auto count = static_cast<size_t>(end - begin);
#if defined(__SSE2__)  // every x86-64 compiler; elsewhere the loop below does it all
  const __m128i colour_lanes = _mm_set1_epi32(static_cast<int>(colours));
  const __m128i written_lanes = _mm_set1_epi32(static_cast<int>(written));
  for (; count >= 16; count -= 16, room -= 16, at += 16) {
    if (written == 0xFFFFFFFFu) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at), colour_lanes);
    } else {
      blend_16(at, written_lanes, colour_lanes);
    }
  }
  if (count > 0 && room >= 16) {
    blend_16(at, _mm_and_si128(first_lanes(count), written_lanes), colour_lanes);
    return;
  }
#else
  (void)room;
#endif
  for (size_t i = 0; i < count; ++i) {
    const unsigned shift = 8 * static_cast<unsigned>(i & 3);
    if ((written >> shift) & 0xFFu) at[i] = static_cast<uint8_t>(colours >> shift);
  }
}

// The span for each combination, indexed by patterned | textured << 1 | shaded << 2 |
// remapped << 3.
template <size_t... kIndex>
constexpr std::array<StyledSpan, sizeof...(kIndex)> styled_span_table(
    std::index_sequence<kIndex...>) {
  return {
      &styled_span<(kIndex & 1) != 0, (kIndex & 2) != 0, (kIndex & 4) != 0, (kIndex & 8) != 0>...};
}
constexpr auto kStyledSpans = styled_span_table(std::make_index_sequence<16>{});

StyledSpan styled_span_for(const SurfaceStyle& style) {
  const size_t index = (style.pattern != 0xFFFF ? 1u : 0u) | (style.texture != nullptr ? 2u : 0u) |
                       (!style.shade_rows.empty() ? 4u : 0u) | (!style.remap.empty() ? 8u : 0u);
  return kStyledSpans[index];
}

template <FillMode kMode>
void fill_polygon(Framebuffer& frame, std::span<const ScreenVertex> polygon, const FillRules& rules,
                  uint8_t color, const Texture* texture, const SurfaceStyle* style = nullptr) {
  if (polygon.size() < 3) return;
  const ClipRect clip = effective_clip(frame, rules);
  if (clip.empty()) return;
  if constexpr (kMode == FillMode::kFlat) {
    // A flat fill needs only each row's two crossings, not which edges they came from: for a
    // y-monotone polygon they are found walking its two sides, without building the table.
    // The rows are marked written once per polygon, and each row is found by arithmetic: the
    // row loop's own work per row is most of a typical face's fill.
    uint8_t* first_row_pixels = nullptr;
    int64_t first_row = 0;
    const auto stride = static_cast<size_t>(frame.width());
    const int64_t end_bias = span_end_bias(rules);
    const auto flat_rows = [&](int64_t top, int64_t bottom) {
      first_row_pixels = frame.rows_for_writing(static_cast<int>(top), static_cast<int>(bottom));
      first_row = top;
    };
    const auto flat_span = [&](int64_t row, int64_t left_x, int64_t right_x) {
      const Span span = row_span(left_x, right_x, end_bias, clip);
      if (span.draw_begin >= span.draw_end) return;
      fill_bytes(first_row_pixels + static_cast<size_t>(row - first_row) * stride +
                     static_cast<size_t>(span.draw_begin),
                 static_cast<size_t>(span.draw_end - span.draw_begin),
                 stride - static_cast<size_t>(span.draw_begin), color);
    };
    if (for_each_monotone_row(polygon, clip.top, clip.bottom, flat_span, flat_rows)) return;
  }
  // The attributes the fill reads (bit a = attribute a): every one of its mode's, except that a
  // styled fill reads shade (bit 0) only with shade rows and u, v (bits 1, 2) only with a
  // texture. The others are neither evaluated nor stepped, since no pixel depends on them.
  constexpr size_t kAttributes = attribute_count(kMode);
  [[maybe_unused]] unsigned attributes_read = (1u << kAttributes) - 1;
  [[maybe_unused]] StyledSpan span_of_style = nullptr;
  if constexpr (kMode == FillMode::kStyled) {
    span_of_style = styled_span_for(*style);
    attributes_read = (style->shade_rows.empty() ? 0u : 1u) | (style->texture ? 6u : 0u);
    if (attributes_read == 0) {
      // Meshes, two-colour patterns, remaps: like a flat fill, only the crossings are needed.
      Values unread{};
      const int64_t end_bias = span_end_bias(rules);
      const auto styled_row = [&](int64_t row, int64_t left_x, int64_t right_x) {
        const Span span = row_span(left_x, right_x, end_bias, clip);
        if (span.draw_begin >= span.draw_end) return;
        span_of_style(frame.row(static_cast<int>(row)), span.draw_begin, span.draw_end, row, *style,
                      unread, unread);
      };
      const auto width = static_cast<int64_t>(frame.width());
      const auto patterned_row = [&](int64_t row, int64_t left_x, int64_t right_x) {
        const Span span = row_span(left_x, right_x, end_bias, clip);
        if (span.draw_begin >= span.draw_end) return;
        patterned_span(frame.row(static_cast<int>(row)), span.draw_begin, span.draw_end,
                       static_cast<size_t>(width - span.draw_begin), row, *style, style->color,
                       style->color2);
      };
      // kStyledSpans[1]: patterned, and neither textured, shaded nor remapped.
      const bool patterned_only = span_of_style == kStyledSpans[1];
      if (patterned_only ? for_each_monotone_row(polygon, clip.top, clip.bottom, patterned_row)
                         : for_each_monotone_row(polygon, clip.top, clip.bottom, styled_row)) {
        return;
      }
    }
  }
  Scratch& work = scratch();
  const int64_t first_row = build_ylr(polygon, clip.top, clip.bottom, work);
  if (work.rows.empty()) return;

  if constexpr (kAttributes > 0) {
    work.vertex_attributes.resize(polygon.size());
    for (size_t i = 0; i < polygon.size(); ++i) {
      vertex_attributes<kMode>(polygon[i], work.vertex_attributes[i]);
    }
  }

  // The attributes each row's two crossings carry, stepped down the edge they lie on.
  [[maybe_unused]] SideAttributes<kAttributes> left_side, right_side;

  for (size_t index = 0; index < work.rows.size(); ++index) {
    const RowCrossings& crossings = work.rows[index];
    if (crossings.left_edge < 0) continue;
    const int64_t row = first_row + static_cast<int64_t>(index);
    const auto [span_begin, draw_begin, draw_end] =
        row_span(crossings.left_x, crossings.right_x, rules, clip);
    if (draw_begin >= draw_end) continue;
    uint8_t* out = frame.row(static_cast<int>(row));

    if constexpr (kMode == FillMode::kFlat) {
      std::memset(out + draw_begin, color, static_cast<size_t>(draw_end - draw_begin));
    } else {
      const int64_t width = std::max<int64_t>(crossings.right_x - crossings.left_x, kFixedOne);
      const int64_t skipped = draw_begin - span_begin;
      std::array<int64_t, kAttributes> value{};
      std::array<int64_t, kAttributes> step{};
      if constexpr (kMode == FillMode::kStyledReference) {
        // Each crossing's attributes evaluated afresh on every row.
        const Edge& left_edge = work.edges[static_cast<size_t>(crossings.left_edge)];
        const Edge& right_edge = work.edges[static_cast<size_t>(crossings.right_edge)];
        for (size_t a = 0; a < kAttributes; ++a) {
          const int64_t left = edge_attribute(polygon, work, left_edge, a, row);
          const int64_t right = edge_attribute(polygon, work, right_edge, a, row);
          step[a] = span_step<kMode>(right - left, width);
          value[a] = left + step[a] * skipped;
        }
      } else {
        left_side.reach(polygon, work.edges, work.vertex_attributes, crossings.left_edge, row,
                        attributes_read);
        right_side.reach(polygon, work.edges, work.vertex_attributes, crossings.right_edge, row,
                         attributes_read);
        for (size_t a = 0; a < kAttributes; ++a) {
          if (((attributes_read >> a) & 1u) == 0) continue;
          const int64_t left = left_side.values[a].value();
          const int64_t right = right_side.values[a].value();
          step[a] = span_step<kMode>(right - left, width);
          value[a] = left + step[a] * skipped;
        }
      }

      if constexpr (kMode == FillMode::kStyled) {
        span_of_style(out, draw_begin, draw_end, row, *style, value, step);
      } else if constexpr (kMode == FillMode::kStyledReference) {
        for (int64_t x = draw_begin; x < draw_end; ++x) {
          styled_pixel(out, x, row, *style, value.data());
          value[0] += step[0];
          value[1] += step[1];
          value[2] += step[2];
        }
      } else if constexpr (kMode == FillMode::kGouraud) {
        for (int64_t x = draw_begin; x < draw_end; ++x) {
          out[x] = static_cast<uint8_t>(std::clamp<int64_t>(fixed_floor64(value[0]), 0, 255));
          value[0] += step[0];
        }
      } else if constexpr (kMode == FillMode::kAffine) {
        const int transparent = texture->transparent_index;
        // u and v move by a constant step, so they are at their extremes on the span's first and
        // last pixels: when both ends lie inside the image no pixel between needs clamping.
        const int64_t last = draw_end - 1 - draw_begin;
        const int64_t u0 = fixed_floor64(value[0]), u1 = fixed_floor64(value[0] + step[0] * last);
        const int64_t v0 = fixed_floor64(value[1]), v1 = fixed_floor64(value[1] + step[1] * last);
        if (std::min(u0, u1) >= 0 && std::max(u0, u1) < texture->width && std::min(v0, v1) >= 0 &&
            std::max(v0, v1) < texture->height) {
          const uint8_t* texels = texture->pixels.data();
          const int64_t stride = texture->width;
          for (int64_t x = draw_begin; x < draw_end; ++x) {
            const uint8_t texel =
                texels[fixed_floor64(value[1]) * stride + fixed_floor64(value[0])];
            if (texel != transparent) out[x] = texel;
            value[0] += step[0];
            value[1] += step[1];
          }
          continue;
        }
        for (int64_t x = draw_begin; x < draw_end; ++x) {
          const uint8_t texel =
              texture->texel_clamped(fixed_floor64(value[0]), fixed_floor64(value[1]));
          if (texel != transparent) out[x] = texel;
          value[0] += step[0];
          value[1] += step[1];
        }
      } else if constexpr (kMode == FillMode::kPerspective) {
        const int transparent = texture->transparent_index;
        for (int64_t x = draw_begin; x < draw_end; ++x) {
          // Stepping may overshoot 1/w past the right-hand value by up to one step; keep the
          // divisor positive.
          const int64_t q = std::max<int64_t>(value[0], 1);
          const int64_t u = value[1] / q;
          const int64_t v = value[2] / q;
          const uint8_t texel = texture->texel_clamped(fixed_floor64(u), fixed_floor64(v));
          if (texel != transparent) out[x] = texel;
          value[0] += step[0];
          value[1] += step[1];
          value[2] += step[2];
        }
      }
    }
  }
}

void require_valid(const Texture& texture) {
  if (!texture.valid()) {
    throw std::invalid_argument("texture: width and height must be positive and match the pixels");
  }
}

}  // namespace

namespace {

void require_valid(const SurfaceStyle& style) {
  if (style.texture != nullptr) require_valid(*style.texture);
  if (style.shade_rows.size() % 256 != 0) {
    throw std::invalid_argument("fill_styled: shade rows must be whole rows of 256 entries");
  }
  if (!style.remap.empty() && style.remap.size() != 256) {
    throw std::invalid_argument("fill_styled: a remap has 256 entries");
  }
}

}  // namespace

void fill_styled(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                 const SurfaceStyle& style, const FillRules& rules) {
  require_valid(style);
  fill_polygon<FillMode::kStyled>(frame, polygon, rules, 0, nullptr, &style);
}

void fill_styled_reference(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                           const SurfaceStyle& style, const FillRules& rules) {
  require_valid(style);
  fill_polygon<FillMode::kStyledReference>(frame, polygon, rules, 0, nullptr, &style);
}

void fill_flat(Framebuffer& frame, std::span<const ScreenVertex> polygon, uint8_t color,
               const FillRules& rules) {
  fill_polygon<FillMode::kFlat>(frame, polygon, rules, color, nullptr);
}

void fill_gouraud(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                  const FillRules& rules) {
  fill_polygon<FillMode::kGouraud>(frame, polygon, rules, 0, nullptr);
}

void fill_textured_affine(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                          const Texture& texture, const FillRules& rules) {
  require_valid(texture);
  fill_polygon<FillMode::kAffine>(frame, polygon, rules, 0, &texture);
}

void fill_textured_perspective(Framebuffer& frame, std::span<const ScreenVertex> polygon,
                               const Texture& texture, const FillRules& rules) {
  require_valid(texture);
  fill_polygon<FillMode::kPerspective>(frame, polygon, rules, 0, &texture);
}

void draw_line(Framebuffer& frame, const ScreenVertex& a, const ScreenVertex& b, uint8_t color,
               const FillRules& rules) {
  const ClipRect clip = effective_clip(frame, rules);
  if (clip.empty()) return;
  int64_t x = fixed_floor(a.x);
  int64_t y = fixed_floor(a.y);
  const int64_t x_end = fixed_floor(b.x);
  const int64_t y_end = fixed_floor(b.y);
  // A line whose bounding box misses the clip rectangle draws nothing; skip the walk.
  if (std::max(x, x_end) < clip.left || std::min(x, x_end) >= clip.right ||
      std::max(y, y_end) < clip.top || std::min(y, y_end) >= clip.bottom) {
    return;
  }
  // All-octant Bresenham with one error term; walked from a to b, so the pixel set does not
  // depend on the clip rectangle (clipping is a per-pixel test). At most 2^17 steps.
  const int64_t dx = std::abs(x_end - x);
  const int64_t dy = -std::abs(y_end - y);
  const int64_t step_x = x < x_end ? 1 : -1;
  const int64_t step_y = y < y_end ? 1 : -1;
  int64_t error = dx + dy;
  while (true) {
    if (x >= clip.left && x < clip.right && y >= clip.top && y < clip.bottom) {
      frame.row(static_cast<int>(y))[x] = color;
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
  }
}

void draw_point(Framebuffer& frame, const ScreenVertex& p, uint8_t color, const FillRules& rules) {
  const ClipRect clip = effective_clip(frame, rules);
  const int32_t x = fixed_floor(p.x);
  const int32_t y = fixed_floor(p.y);
  if (clip.contains(x, y)) frame.row(y)[x] = color;
}

std::vector<ScanlineBounds> scanline_bounds(std::span<const ScreenVertex> polygon,
                                            std::optional<ClipRect> clip) {
  Scratch work;
  const int64_t row_begin = clip ? clip->top : std::numeric_limits<int32_t>::min();
  const int64_t row_end = clip ? clip->bottom : std::numeric_limits<int32_t>::max();
  const int64_t first_row = build_ylr(polygon, row_begin, row_end, work);
  std::vector<ScanlineBounds> out;
  for (size_t i = 0; i < work.rows.size(); ++i) {
    const RowCrossings& crossings = work.rows[i];
    if (crossings.left_edge < 0) continue;
    // Crossings lie between two vertex x values, so they fit in 16.16.
    out.push_back({static_cast<int32_t>(first_row + static_cast<int64_t>(i)),
                   static_cast<Fixed>(crossings.left_x), static_cast<Fixed>(crossings.right_x)});
  }
  return out;
}

}  // namespace shapevm::raster
