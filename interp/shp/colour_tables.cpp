#include "interp/shp/colour_tables.h"

#include <algorithm>
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

std::vector<uint8_t> build_blend(const raster::Palette& palette, Blend mode) {
  std::vector<uint8_t> built(65536);
  // Colours repeat in a blend table; a memo of the nearest entry per RGB keeps the build short.
  std::map<uint32_t, uint8_t> memo;
  for (size_t s = 0; s < 256; ++s) {
    for (size_t d = 0; d < 256; ++d) {
      const raster::Rgb c = blend_rgb(palette.colors[s], palette.colors[d], mode);
      const uint32_t key = uint32_t{c.r} << 16 | uint32_t{c.g} << 8 | c.b;
      auto it = memo.find(key);
      if (it == memo.end()) it = memo.emplace(key, nearest_index(palette, c)).first;
      built[s * 256 + d] = it->second;
    }
  }
  return built;
}

}  // namespace

std::shared_ptr<const ColourTables> colour_tables(const raster::Palette& palette) {
  static std::mutex lock;
  static std::map<std::array<uint8_t, 768>, std::shared_ptr<ColourTables>> cache;
  const std::lock_guard<std::mutex> guard(lock);
  const auto key = key_of(palette);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto t = std::make_shared<ColourTables>();
  t->palette = palette;
  t->shade_rows.resize(size_t{assumed::kShadeLevels} * 256);
  for (int level = 0; level < assumed::kShadeLevels; ++level) {
    for (size_t i = 0; i < 256; ++i) {
      const raster::Rgb c = palette.colors[i];
      const raster::Rgb shaded{channel_scale(c.r, level + 1, assumed::kShadeLevels),
                               channel_scale(c.g, level + 1, assumed::kShadeLevels),
                               channel_scale(c.b, level + 1, assumed::kShadeLevels)};
      t->shade_rows[size_t(level) * 256 + i] = level == assumed::kShadeLevels - 1
                                                   ? static_cast<uint8_t>(i)
                                                   : nearest_index(palette, shaded);
    }
  }
  const auto& u = assumed::kUntexturedRgb;
  const auto& w = assumed::kWireRgb;
  t->untextured = nearest_index(palette, {u[0], u[1], u[2]});
  t->wire = nearest_index(palette, {w[0], w[1], w[2]});
  t->add = build_blend(palette, Blend::kAdd);
  t->alpha = build_blend(palette, Blend::kAlpha);
  if (cache.size() > 16) cache.clear();  // a long viewer session with many palettes
  cache.emplace(key, t);
  return t;
}

}  // namespace shapevm::shp
