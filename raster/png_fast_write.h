// PNG output without libpng: the chunks are written here and the image data compressed by
// frame_deflate.h. shapevm writes one PNG per frame it renders: through libpng and zlib at level 9
// that was nine tenths of rendering a generated corpus (about 5 ms a 640x480 frame), and through
// libdeflate at level 6 still about 0.5 ms a frame, most of it spent on the background's runs.
//
// The files are what png_io.h promises: IHDR, PLTE for indexed images, one IDAT, IEND, filter
// "none" on every row, and bytes that depend only on the image.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "raster/palette.h"

namespace shapevm::raster {

// The eight bytes every PNG file starts with.
inline constexpr std::array<uint8_t, 8> kPngSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

// Appends one chunk to `out`: the data's length, `type` (four letters), the data, and the CRC of
// type and data. The encoder's, and the one the tests, fuzz seeds and benchmarks build their
// PNG files with. Throws std::invalid_argument for a type that is not four letters long.
void append_png_chunk(std::vector<uint8_t>& out, std::string_view type,
                      std::span<const uint8_t> data);

// An 8-bit PNG of `width` x `height` pixels, rows top to bottom with no padding: indexed (one
// byte per pixel, `palette` as a 256-entry PLTE) when `palette` is given, RGB (three bytes per
// pixel) otherwise. The caller checks the size (1..Framebuffer::kMaxDimension each way) and that
// `pixels` holds exactly the image.
std::vector<uint8_t> encode_png_fast(uint32_t width, uint32_t height,
                                     std::span<const uint8_t> pixels, const Palette* palette);

}  // namespace shapevm::raster
