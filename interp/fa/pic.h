// Fighters Anthology PIC images as textures.
//
// 64-byte header, little-endian, u32 fields unaligned:
//   0x00 u16 format: 0 dense, 1 sparse; 0xD8FF means the whole file is a JPEG (bytes FF D8)
//   0x02 width  0x06 height  0x0A pixels_off  0x0E pixels_size  0x12 pal_off  0x16 pal_size
//   0x1A spans_off  0x1E spans_size  0x22 rowheads_off  0x26 rowheads_size
// Dense: width*height index bytes at pixels_off, row-major from the top row. spans_size holds a
// stale value in dense files and is ignored; the row heads are derivable and not read.
// Sparse: a table at spans_off of 10-byte spans {u16 row, u16 x0, u16 x1 (inclusive), u32 offset
// relative to pixels_off}, ended by row 0xFFFF. Pixels outside every span are transparent (0xFF).
// Inline palette: pal_size bytes at pal_off override PALETTE.PAL entries 0..pal_size/3-1. Read as
// 6-bit triplets like PALETTE.PAL (an assumption; see docs/raster.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "raster/palette.h"
#include "raster/texture.h"

namespace shapevm::fa {

inline constexpr size_t kPicHeaderSize = 64;
inline constexpr uint32_t kPicMaxDimension = 4096;
inline constexpr uint16_t kPicFormatDense = 0;
inline constexpr uint16_t kPicFormatSparse = 1;
inline constexpr uint16_t kPicFormatJpeg = 0xD8FF;
inline constexpr uint8_t kPicTransparent = 0xFF;

struct PicHeader {
  uint16_t format = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t pixels_off = 0;
  uint32_t pixels_size = 0;
  uint32_t pal_off = 0;
  uint32_t pal_size = 0;
  uint32_t spans_off = 0;
  uint32_t spans_size = 0;
  uint32_t rowheads_off = 0;
  uint32_t rowheads_size = 0;
};

struct Pic {
  PicHeader header;
  // transparent_index = 0xFF: FA's "no texel" value, and what sparse gaps are filled with.
  raster::Texture texture;
  // Widened colours for palette entries 0..n-1; nullopt when pal_size is 0.
  std::optional<std::vector<raster::Rgb>> inline_palette;
};

// Parses a PIC. Every offset and size is checked against the input; a JPEG PIC, an unknown
// format, a width or height of 0 or above 4096, a span outside the image or any read past the end
// is an InputError naming `source`, the offset and what was expected there.
Pic read_pic(std::span<const uint8_t> data, const std::string& source);

// `base` with the PIC's inline palette (if any) written over its first entries.
raster::Palette apply_inline_palette(raster::Palette base, const Pic& pic);

}  // namespace shapevm::fa
