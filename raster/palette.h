// 256-entry RGB palettes. Frames hold palette indices; RGB exists only for PNG output and for
// reading captures that were saved as RGB.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace shapevm::raster {

struct Rgb {
  uint8_t r = 0;
  uint8_t g = 0;
  uint8_t b = 0;
  bool operator==(const Rgb&) const = default;
};

struct Palette {
  std::array<Rgb, 256> colors{};
  bool operator==(const Palette&) const = default;
};

// A built-in palette so frames are readable without any game data. Deterministic and fixed:
//   0         black (0,0,0): the default background, and the colour of shadows
//   1..31     grey ramp from (48,48,48) to white (255,255,255)
//   32..255   seven hue ramps of 32 entries, each from a dim to the full hue:
//             32 red, 64 orange, 96 yellow, 128 green, 160 cyan, 192 blue, 224 violet
//   255       overridden with pure magenta (255,0,255): engines commonly reserve the last index
//             (e.g. as a transparent texel), so it should stand out wherever it is drawn.
// Grey k (1..31) is round(48 + 207 * (k - 1) / 30); entry k (0..31) of a hue ramp is
// round(hue * (12 + k) / 43) per channel. No entry but 0 is darker than 48 on its brightest
// channel, so whatever a model draws stands apart from a black background (a ramp that started
// at 1/32 of its hue drew the darkest shades nearly black on black).
Palette default_palette();

// 256 triplets of 8-bit R, G, B (768 bytes). Any other length is an InputError naming `source`.
Palette palette_from_rgb8(std::span<const uint8_t> rgb, const std::string& source = "palette");

}  // namespace shapevm::raster
