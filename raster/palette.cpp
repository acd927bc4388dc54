#include "raster/palette.h"

#include <fmt/format.h>

#include "core/input_error.h"

namespace shapevm::raster {

namespace {

constexpr int kRampLength = 32;
constexpr std::array<Rgb, 7> kRampHues = {{
    {255, 0, 0},    // red
    {255, 128, 0},  // orange
    {255, 255, 0},  // yellow
    {0, 255, 0},    // green
    {0, 255, 255},  // cyan
    {0, 0, 255},    // blue
    {128, 0, 255},  // violet
}};

uint8_t ramp_channel(int hue, int step) {
  return static_cast<uint8_t>((hue * (step + 1) + kRampLength / 2) / kRampLength);
}

}  // namespace

Palette default_palette() {
  Palette palette;
  for (int k = 0; k < kRampLength; ++k) {
    auto grey = static_cast<uint8_t>((k * 255 + (kRampLength - 1) / 2) / (kRampLength - 1));
    palette.colors[static_cast<size_t>(k)] = {grey, grey, grey};
  }
  for (size_t ramp = 0; ramp < kRampHues.size(); ++ramp) {
    const Rgb& hue = kRampHues[ramp];
    for (int k = 0; k < kRampLength; ++k) {
      size_t index = (ramp + 1) * kRampLength + static_cast<size_t>(k);
      palette.colors[index] = {ramp_channel(hue.r, k), ramp_channel(hue.g, k),
                               ramp_channel(hue.b, k)};
    }
  }
  palette.colors[255] = {255, 0, 255};
  return palette;
}

Palette palette_from_rgb8(std::span<const uint8_t> rgb, const std::string& source) {
  if (rgb.size() != 768) {
    throw InputError(
        source, fmt::format("expected 768 bytes of 8-bit RGB (256 triplets), got {}", rgb.size()));
  }
  Palette palette;
  for (size_t i = 0; i < 256; ++i) {
    palette.colors[i] = {rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]};
  }
  return palette;
}

}  // namespace shapevm::raster
