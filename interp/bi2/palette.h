// The fight palettes (docs/bi2.md, "Palettes"): 768 bytes of R, G, B, read as 6-bit VGA values
// and widened when no byte exceeds 63 (assumptions.h). They come one per member of PAL000.LIB
// (`--palette PAL000.LIB:#N`) or as a plain 768-byte file.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "raster/palette.h"

namespace shapevm::bi2 {

// InputError unless `bytes` (already TPWM-decoded) is 768 bytes.
raster::Palette read_fight_palette(std::span<const uint8_t> bytes, const std::string& source);
// A palette argument: FILE or LIB:MEMBER. "" gives the built-in palette.
raster::Palette load_fight_palette(const std::string& spec);

}  // namespace shapevm::bi2
