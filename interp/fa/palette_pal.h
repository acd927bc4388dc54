// Fighters Anthology PALETTE.PAL: 768 bytes, 256 triplets of 6-bit VGA DAC values (0..63), no
// header. Widened to 8 bits the way the FA tools' code does it, (v << 2) | (v >> 4), which maps
// 63 -> 255, 60 -> 243, 32 -> 130, 1 -> 4. (PAL.md's formula (v << 2) | (v >> 6) contradicts the
// code and would top out at 252; the fact sheet says to follow the code.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_reader.h"
#include "raster/palette.h"

namespace shapevm::fa {

inline constexpr size_t kPalFileSize = 768;
inline constexpr uint8_t kMax6BitChannel = 63;

// A 6-bit channel (0..63) widened to 8 bits.
constexpr uint8_t widen_6bit(uint8_t value) {
  return static_cast<uint8_t>((value << 2) | (value >> 4));
}

// `count` 6-bit RGB triplets starting at `offset`, widened. A channel above 63 is an InputError
// naming its offset; so is a range that runs past the end of the input.
std::vector<raster::Rgb> read_6bit_triplets(const ByteReader& reader, size_t offset, size_t count,
                                            std::string_view what);

// A whole PALETTE.PAL. Any length other than 768 bytes is an InputError.
raster::Palette read_pal(std::span<const uint8_t> data, const std::string& source);

// The PALETTE.PAL a palette becomes: each 8-bit channel narrowed to 6 bits (v >> 2), which
// read_pal widens back to within 3 of the original.
std::vector<uint8_t> encode_pal(const raster::Palette& palette);

// The name `gen fa` writes the built-in palette under, beside the shapes.
inline constexpr std::string_view kGeneratedPaletteName = "PALETTE.PAL";

}  // namespace shapevm::fa
