#include "raster/palette.h"

#include <fmt/format.h>

#include "core/input_error.h"

namespace shapevm::raster {

namespace {

constexpr int kRampLength = 32;
// The dimmest grey and the first step of every hue ramp stay this far from black (palette.h).
constexpr int kGreyFloor = 48;
constexpr int kRampFloorSteps = 12;  // step 0 of a ramp is hue * 12 / 43
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
  constexpr int kSpan = kRampFloorSteps + kRampLength - 1;
  return static_cast<uint8_t>((hue * (kRampFloorSteps + step) + kSpan / 2) / kSpan);
}

}  // namespace

Palette default_palette() {
  Palette palette;
  for (int k = 1; k < kRampLength; ++k) {
    constexpr int kSteps = kRampLength - 2;
    auto grey =
        static_cast<uint8_t>(kGreyFloor + ((k - 1) * (255 - kGreyFloor) + kSteps / 2) / kSteps);
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
