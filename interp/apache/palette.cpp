#include "interp/apache/palette.h"

#include <fmt/format.h>

#include <mutex>

#include "core/input_error.h"
#include "interp/apache/assumptions.h"

namespace shapevm::apache {
namespace {

int32_t distance2(const raster::Rgb& a, int32_t r, int32_t g, int32_t b) {
  const int32_t dr = a.r - r, dg = a.g - g, db = a.b - b;
  return dr * dr + dg * dg + db * db;
}

// The nearest model colour (lowest index on a tie).
uint8_t nearest(const std::array<raster::Rgb, 224>& colours, int32_t r, int32_t g, int32_t b) {
  int32_t best = INT32_MAX;
  uint8_t index = 0;
  for (size_t i = 0; i < colours.size(); ++i) {
    const int32_t d = distance2(colours[i], r, g, b);
    if (d < best) {
      best = d;
      index = static_cast<uint8_t>(i);
    }
  }
  return index;
}

}  // namespace

std::array<raster::Rgb, 224> read_3dpal(std::span<const uint8_t> bytes, const std::string& source) {
  if (bytes.size() != k3dPalBytes) {
    throw InputError(
        source, 0,
        fmt::format("expected 224 RGB colours (672 bytes), the file is {} bytes", bytes.size()));
  }
  std::array<raster::Rgb, 224> out{};
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = {bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2]};
  return out;
}

std::array<raster::Rgb, 224> default_3dpal() {
  const raster::Palette p = raster::default_palette();
  std::array<raster::Rgb, 224> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = p.colors[i];
  return out;
}

std::vector<uint8_t> encode_3dpal(const std::array<raster::Rgb, 224>& colours) {
  std::vector<uint8_t> out;
  for (const auto& c : colours) {
    out.push_back(c.r);
    out.push_back(c.g);
    out.push_back(c.b);
  }
  return out;
}

namespace {

ShadingTables compute_shading_tables(const std::array<raster::Rgb, 224>& colours) {
  ShadingTables t;
  t.model = colours;
  // Entries 224..255 (sky, fog, warzone terrain in the game) keep the built-in palette's.
  t.frame = raster::default_palette();
  for (size_t i = 0; i < colours.size(); ++i) t.frame.colors[i] = colours[i];

  constexpr int kLevels = assumed::kIntensityLevels;
  t.intensity.assign(size_t{kLevels} * 256, 0);
  for (int level = 0; level < kLevels; ++level) {
    const int32_t scale =
        assumed::kAmbientScale + (256 - assumed::kAmbientScale) * level / (kLevels - 1);  // of 256
    for (int c = 0; c < 256; ++c) {
      uint8_t out = static_cast<uint8_t>(c);
      if (c < assumed::kModelColours) {
        const raster::Rgb& rgb = colours[static_cast<size_t>(c)];
        out = level == kLevels - 1
                  ? static_cast<uint8_t>(c)
                  : nearest(colours, rgb.r * scale / 256, rgb.g * scale / 256, rgb.b * scale / 256);
      }
      t.intensity[static_cast<size_t>(level) * 256 + static_cast<size_t>(c)] = out;
    }
  }
  for (int c = 0; c < 256; ++c) {
    const raster::Rgb& rgb = t.frame.colors[static_cast<size_t>(c)];
    // Glass: 3/4 of the pixel plus 1/4 of a blue-grey (96, 112, 160). Haze: 1/8 toward white.
    t.glass[static_cast<size_t>(c)] =
        nearest(colours, (rgb.r * 3 + 96) / 4, (rgb.g * 3 + 112) / 4, (rgb.b * 3 + 160) / 4);
    t.haze[static_cast<size_t>(c)] =
        nearest(colours, (rgb.r * 7 + 255) / 8, (rgb.g * 7 + 255) / 8, (rgb.b * 7 + 255) / 8);
  }
  return t;
}

}  // namespace

ShadingTables build_shading_tables(const std::array<raster::Rgb, 224>& colours) {
  // Every Apache program opened builds these, nearly always from the same palette (a regression
  // run, a batch over an archive), and the nearest-colour searches cost more than most runs:
  // keep the last few, for any thread.
  static std::mutex lock;
  static std::vector<ShadingTables> recent;
  {
    const std::lock_guard<std::mutex> guard(lock);
    for (const ShadingTables& t : recent)
      if (t.model == colours) return t;
  }
  ShadingTables t = compute_shading_tables(colours);
  const std::lock_guard<std::mutex> guard(lock);
  if (recent.size() == 4) recent.erase(recent.begin());
  recent.push_back(t);
  return t;
}

}  // namespace shapevm::apache
