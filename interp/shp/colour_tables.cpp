#include "interp/shp/colour_tables.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "interp/shp/draw_assumptions.h"

namespace shapevm::shp {
namespace {

uint8_t channel_scale(uint8_t c, int numerator, int denominator) {
  return static_cast<uint8_t>(int{c} * numerator / denominator);
}

std::array<uint8_t, 768> key_of(const raster::Palette& p) {
  std::array<uint8_t, 768> k{};
  for (size_t i = 0; i < 256; ++i) {
    k[i * 3] = p.colors[i].r;
    k[i * 3 + 1] = p.colors[i].g;
    k[i * 3 + 2] = p.colors[i].b;
  }
  return k;
}

}  // namespace

uint8_t nearest_index(const raster::Palette& palette, raster::Rgb rgb) {
  int best = 0;
  int64_t best_distance = INT64_MAX;
  for (int i = 0; i < 256; ++i) {
    const raster::Rgb& c = palette.colors[static_cast<size_t>(i)];
    const int64_t dr = int{c.r} - rgb.r, dg = int{c.g} - rgb.g, db = int{c.b} - rgb.b;
    const int64_t d = dr * dr + dg * dg + db * db;
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return static_cast<uint8_t>(best);
}

void NearestIndexSearch::keep_possible(std::span<const Entry> from, int r0, int g0, int b0,
                                       int side, std::vector<Entry>& out) {
  // Squared distances from a level to the nearest and the farthest level of [low, low + side).
  const auto nearest_gap = [side](int c, int low) {
    const int gap = c < low ? low - c : c > low + side - 1 ? c - (low + side - 1) : 0;
    return gap * gap;
  };
  const auto farthest_gap = [side](int c, int low) {
    const int gap = std::max(std::abs(c - low), std::abs(c - (low + side - 1)));
    return gap * gap;
  };
  // Every colour of the cell has an entry within `bound` (the entry whose farthest point of the
  // cell is nearest), so an entry farther than that from the whole cell can be neither nearest
  // nor tied anywhere in it. Within a smaller cell the bound only shrinks, which is why a cell
  // need only look at its parent's entries.
  int bound = INT32_MAX;
  for (const Entry& e : from)
    bound = std::min(bound, farthest_gap(e.r, r0) + farthest_gap(e.g, g0) + farthest_gap(e.b, b0));
  for (const Entry& e : from)
    if (nearest_gap(e.r, r0) + nearest_gap(e.g, g0) + nearest_gap(e.b, b0) <= bound)
      out.push_back(e);
}

NearestIndexSearch::NearestIndexSearch(const raster::Palette& palette) {
  std::vector<Entry> all;
  for (size_t i = 0; i < 256; ++i) {
    const raster::Rgb& c = palette.colors[i];
    all.push_back({c.r, c.g, c.b, static_cast<uint8_t>(i)});
  }
  // Room for 16 candidates a cell (the built-in palette has 15 on average): growing from empty
  // copied the list and took fresh pages again at each doubling.
  candidates_.reserve(kCells * 16);
  constexpr int kSide = 1 << kCellShift;
  constexpr int kParentSide = 2 * kSide;
  std::vector<Entry> parent;
  for (int r = 0; r < 256; r += kParentSide) {
    for (int g = 0; g < 256; g += kParentSide) {
      for (int b = 0; b < 256; b += kParentSide) {
        parent.clear();
        keep_possible(all, r, g, b, kParentSide, parent);
        for (int r0 = r; r0 < r + kParentSide; r0 += kSide) {
          for (int g0 = g; g0 < g + kParentSide; g0 += kSide) {
            for (int b0 = b; b0 < b + kParentSide; b0 += kSide) {
              const size_t cell = cell_of(r0, g0, b0);
              cell_begin_[cell] = static_cast<uint32_t>(candidates_.size());
              keep_possible(parent, r0, g0, b0, kSide, candidates_);
              cell_end_[cell] = static_cast<uint32_t>(candidates_.size());
            }
          }
        }
      }
    }
  }
}

uint8_t NearestIndexSearch::operator()(raster::Rgb rgb) const {
  const size_t cell = cell_of(rgb.r, rgb.g, rgb.b);
  uint8_t best = 0;
  int best_distance = INT32_MAX;
  // The cell's candidates in ascending index order with a strict comparison: the lowest index
  // on a tie, as nearest_index.
  for (uint32_t k = cell_begin_[cell]; k < cell_end_[cell]; ++k) {
    const Entry& e = candidates_[k];
    const int dr = e.r - rgb.r, dg = e.g - rgb.g, db = e.b - rgb.b;
    const int d = dr * dr + dg * dg + db * db;
    if (d < best_distance) {
      best_distance = d;
      best = e.index;
    }
  }
  return best;
}

raster::Rgb blend_rgb(raster::Rgb s, raster::Rgb d, Blend mode) {
  auto add = [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(std::min(255, a + b)); };
  auto mix = [](uint8_t a, uint8_t b) {
    return static_cast<uint8_t>((a * assumed::kAlphaNumerator +
                                 b * (assumed::kAlphaDenominator - assumed::kAlphaNumerator)) /
                                assumed::kAlphaDenominator);
  };
  switch (mode) {
    case Blend::kAdd:
      return {add(s.r, d.r), add(s.g, d.g), add(s.b, d.b)};
    case Blend::kAlpha:
      return {mix(s.r, d.r), mix(s.g, d.g), mix(s.b, d.b)};
    case Blend::kNone:
      break;
  }
  return s;
}

namespace {

std::vector<uint8_t> build_blend(const raster::Palette& palette, const NearestIndexSearch& nearest,
                                 Blend mode) {
  std::vector<uint8_t> built(65536);
  for (size_t s = 0; s < 256; ++s)
    for (size_t d = 0; d < 256; ++d)
      built[s * 256 + d] = nearest(blend_rgb(palette.colors[s], palette.colors[d], mode));
  return built;
}

}  // namespace

std::span<const uint8_t> ColourTables::blend(Blend mode) const {
  if (mode == Blend::kNone) return {};
  LazyBlend& lazy = mode == Blend::kAdd ? add_ : alpha_;
  std::call_once(lazy.once, [&] {
    lazy.table = build_blend(palette, nearest, mode);
    lazy.built.store(true, std::memory_order_release);
  });
  return lazy.table;
}

bool ColourTables::blend_built(Blend mode) const {
  if (mode == Blend::kNone) return true;
  const LazyBlend& lazy = mode == Blend::kAdd ? add_ : alpha_;
  return lazy.built.load(std::memory_order_acquire);
}

std::shared_ptr<const ColourTables> colour_tables(const raster::Palette& palette) {
  static std::mutex lock;
  static std::map<std::array<uint8_t, 768>, std::shared_ptr<ColourTables>> cache;
  const std::lock_guard<std::mutex> guard(lock);
  const auto key = key_of(palette);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto t = std::make_shared<ColourTables>(palette);
  const NearestIndexSearch& nearest = t->nearest;
  t->shade_rows.resize(size_t{assumed::kShadeLevels} * 256);
  for (int level = 0; level < assumed::kShadeLevels; ++level) {
    for (size_t i = 0; i < 256; ++i) {
      const raster::Rgb c = palette.colors[i];
      const raster::Rgb shaded{channel_scale(c.r, level + 1, assumed::kShadeLevels),
                               channel_scale(c.g, level + 1, assumed::kShadeLevels),
                               channel_scale(c.b, level + 1, assumed::kShadeLevels)};
      t->shade_rows[size_t(level) * 256 + i] =
          level == assumed::kShadeLevels - 1 ? static_cast<uint8_t>(i) : nearest(shaded);
    }
  }
  const auto& u = assumed::kUntexturedRgb;
  const auto& w = assumed::kWireRgb;
  t->untextured = nearest({u[0], u[1], u[2]});
  t->wire = nearest({w[0], w[1], w[2]});
  if (cache.size() > 16) cache.clear();  // a long viewer session with many palettes
  cache.emplace(key, t);
  return t;
}

}  // namespace shapevm::shp
