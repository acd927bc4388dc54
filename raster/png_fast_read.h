// The common captures and masks, decoded without libpng: a non-interlaced PNG of samples no wider
// than 8 bits (the "8" in the names below) whose chunks are all well formed: indexed (8 bits, or
// 1, 2 or 4 packed to a byte), RGB or RGBA; for a mask grey too. shapevm writes its own captures
// indexed, and so do most capture tools; PNG optimisers pack the indices of a frame of few
// colours; screenshot tools write RGB; image editors save masks in any of these. Regression runs
// decode one capture per case, and through libpng and zlib that was over half of a run's time:
// zlib copies a long run of one byte (a frame's empty background) a byte at a time, where
// libdeflate copies it a word at a time.
// An RGB capture took 2.3 ms for 640x480, most of it mapping colours through a hash map.
//
// Anything else, or anything this reader would have to judge (a bad CRC, a truncated or
// over-long zlib stream, an unknown critical chunk, an index past the palette), is declined, and
// the caller decodes through libpng as before: libpng stays the judge of malformed files and the
// author of their messages, and a file accepted here decodes to what libpng gives.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "raster/png_io.h"

namespace shapevm::raster {

// An indexed image (8-bit or packed indices, one byte each in the frame), or nullopt when the
// bytes are not such a PNG (decode them with libpng instead).
std::optional<IndexedImage> decode_indexed8_png(std::span<const uint8_t> bytes);

// An 8-bit RGB or RGBA capture (no tRNS, no suggested palette), every pixel mapped onto
// `palette` as decode_png maps it: opaque, and the lowest index of its colour. nullopt when the
// bytes are not such a PNG, or a pixel is translucent or not in the palette: libpng's path then
// decodes the file and names the pixel.
std::optional<IndexedImage> decode_rgb8_png(std::span<const uint8_t> bytes, const Palette& palette);

// decode_indexed8_png's image, or for an RGB or RGBA capture decode_rgb8_png's when
// `rgb_palette` is given, from one reading of the chunks (each checks every CRC of the file).
std::optional<IndexedImage> decode_png8(std::span<const uint8_t> bytes, const Palette* rgb_palette);

// A regress mask saved as an indexed or grey PNG (8-bit or packed), or an 8-bit grey and alpha,
// RGB or RGBA one (no tRNS or suggested palette unless indexed), read as decode_mask_png reads it
// through libpng: 1 where an index is not 0 or a colour is not black, alpha playing no part; 0
// elsewhere. nullopt when the bytes are not such a PNG (decode them with libpng instead).
std::optional<Framebuffer> decode_mask8_png(std::span<const uint8_t> bytes);

}  // namespace shapevm::raster
