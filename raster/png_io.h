// Frames in and out: 8-bit indexed PNG (written with a PLTE from the palette, read back into
// indices), RGB/RGBA captures mapped onto a palette by exact colour, and raw 8-bit index dumps.
//
// Written PNGs are deterministic: IHDR, PLTE (always 256 entries), IDAT, IEND and nothing else (no
// tIME, no text, no gamma), filter "none" on every row, compressed by shapevm's own encoder for
// rendered frames (frame_deflate.h), so the same frame gives the same bytes. Files go through a
// temporary file and a rename.
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
  // True when the file was grey/RGB and its colours were mapped onto the given palette.
  bool mapped_from_rgb = false;
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
// decode_png goes through png_fast_read.h for the common 8-bit indexed capture and through
// libpng for everything else; this is the libpng path alone, the reference the fast one is
// tested against.
IndexedImage decode_png_libpng(std::span<const uint8_t> bytes, const std::string& source,
                               const Palette* rgb_palette = nullptr);

// An 8-bit RGB picture (R, G, B per pixel, row-major from the top row), for images that are not
// frames: the diff image of a comparison shows colours from two palettes and highlight colours.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;
};

// Deterministic RGB PNG bytes (IHDR, IDAT, IEND; filter none; frame_deflate.h). Throws
// std::invalid_argument if the size does not match the bytes or is outside 1..kMaxDimension.
std::vector<uint8_t> encode_rgb_png(const RgbImage& image);
void write_rgb_png(const std::filesystem::path& path, const RgbImage& image);

// A mask of excluded pixels: 1 where the PNG is nonzero (an indexed pixel with index != 0, or a
// grey/RGB pixel whose colour is not black; alpha is ignored), 0 elsewhere.
Framebuffer decode_mask_png(std::span<const uint8_t> bytes, const std::string& source);
Framebuffer read_mask_png(const std::filesystem::path& path);
// decode_mask_png reads 8-bit masks through png_fast_read.h; this is the libpng path alone, the
// reference the fast one is tested against.
Framebuffer decode_mask_png_libpng(std::span<const uint8_t> bytes, const std::string& source);

// A raw dump of width * height index bytes, row-major from the top row, no header. The file must
// be exactly that long.
Framebuffer read_raw_indexed(const std::filesystem::path& path, int width, int height);

}  // namespace shapevm::raster
