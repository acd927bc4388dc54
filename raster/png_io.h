// Frames in and out: 8-bit indexed PNG (written with a PLTE from the palette, read back into
// indices), RGB/RGBA captures mapped onto a palette by exact colour, and raw 8-bit index dumps.
//
// Written PNGs are deterministic: IHDR, PLTE (always 256 entries), IDAT, IEND and nothing else (no
// tIME, no text, no gamma), filter "none" on every row and zlib level 9, so the same frame gives
// the same bytes with the same zlib. Files go through a temporary file and a rename.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "raster/framebuffer.h"
#include "raster/palette.h"

namespace shapevm::raster {

struct IndexedImage {
  Framebuffer frame;
  Palette palette;
  // Entries that came from the file's PLTE (the rest of `palette` is black); 256 for an RGB
  // capture (the palette it was mapped onto).
  int palette_entries = 256;
};

// The bytes of an 8-bit indexed PNG of `frame` with `palette` as its PLTE.
std::vector<uint8_t> encode_indexed_png(const Framebuffer& frame, const Palette& palette);
// encode_indexed_png, written through a temporary file and rename. InputError on I/O failure.
void write_indexed_png(const std::filesystem::path& path, const Framebuffer& frame,
                       const Palette& palette);

// Decodes a PNG. Indexed PNGs (any bit depth) give their indices and PLTE as stored. Grey, RGB and
// their alpha forms need `rgb_palette`: every pixel must be opaque (alpha 255) and equal to some
// palette entry (16-bit channels are reduced to their high byte); it gets the lowest such index.
// Anything else is an InputError naming `source` and the offending pixel. Images larger than
// Framebuffer::kMaxDimension on either side are refused.
IndexedImage decode_png(std::span<const uint8_t> bytes, const std::string& source,
                        const Palette* rgb_palette = nullptr);
IndexedImage read_png(const std::filesystem::path& path, const Palette* rgb_palette = nullptr);

// A raw dump of width * height index bytes, row-major from the top row, no header. The file must
// be exactly that long.
Framebuffer read_raw_indexed(const std::filesystem::path& path, int width, int height);

}  // namespace shapevm::raster
