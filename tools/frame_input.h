// Frame files as `compare` takes them: indexed PNG, grey/RGB PNG mapped through a palette, or a raw
// 8-bit dump with a given size; and palettes given on the command line.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "raster/png_io.h"

namespace shapevm::tools {

enum class FrameFileKind { kIndexedPng, kRgbPng, kRaw };

struct FrameFile {
  raster::IndexedImage image;
  FrameFileKind kind = FrameFileKind::kIndexedPng;
};

// Whether `path` names a raw dump (.raw) rather than a PNG.
bool is_raw_frame_path(const std::string& path);

// Reads a frame. Raw dumps need `raw_size`; RGB PNGs need `palette`. InputError otherwise.
FrameFile read_frame_file(const std::string& path, const raster::Palette* palette,
                          std::optional<std::pair<int, int>> raw_size);

// --palette: the PLTE of an indexed .png, an engine's palette file recognised by its content (FA
// PALETTE.PAL, 6-bit, or LIB:MEMBER), or else 768 bytes of 8-bit RGB (e.g. Apache's 3DPAL.RGB).
raster::Palette read_palette_argument(const std::string& spec);

}  // namespace shapevm::tools
