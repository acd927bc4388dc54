// 3DPAL.RGB and what initialise_3d_palette_ builds from it (seed 003; AP-25, AP-27, AP-28): the
// 224 model colours, the frame palette (model colours plus sky, fog and terrain entries), the
// intensity table that lighting indexes, and the glass and heat-haze remaps of framebuffer pixels.
// The table layouts are this project's (assumptions.h): the original's captured tables are not
// available.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "raster/palette.h"

namespace shapevm::apache {

inline constexpr size_t k3dPalBytes = 224 * 3;

struct ShadingTables {
  raster::Palette frame;                 // what PNGs are written with
  std::array<raster::Rgb, 224> model{};  // 3DPAL.RGB
  // kIntensityLevels rows of 256: intensity[level * 256 + colour] (colours >= 224 map to
  // themselves). The last row is the authored colour at full intensity.
  std::vector<uint8_t> intensity;
  std::array<uint8_t, 256> glass{};
  std::array<uint8_t, 256> haze{};

  uint8_t shade(int level, uint8_t colour) const {
    return intensity[static_cast<size_t>(level) * 256 + colour];
  }
};

// Exactly 672 bytes of 8-bit R, G, B; anything else is an InputError naming `source`.
std::array<raster::Rgb, 224> read_3dpal(std::span<const uint8_t> bytes, const std::string& source);
// This project's stand-in when no 3DPAL.RGB is given: the first 224 entries of the built-in
// palette (grey ramp, then hue ramps).
std::array<raster::Rgb, 224> default_3dpal();
// The bytes of a 3DPAL.RGB file.
std::vector<uint8_t> encode_3dpal(const std::array<raster::Rgb, 224>& colours);

ShadingTables build_shading_tables(const std::array<raster::Rgb, 224>& colours);

}  // namespace shapevm::apache
