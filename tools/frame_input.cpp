#include "tools/frame_input.h"

#include <algorithm>
#include <cctype>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/common/registry.h"

namespace shapevm::tools {

namespace {

std::string lower_extension(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos) return {};
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

bool is_raw_frame_path(const std::string& path) {
  return lower_extension(path) == ".raw";
}

FrameFile read_frame_file(const std::string& path, const raster::Palette* palette,
                          std::optional<std::pair<int, int>> raw_size) {
  FrameFile out;
  if (is_raw_frame_path(path)) {
    if (!raw_size) throw InputError(path, "a raw 8-bit frame needs its size (--size WIDTHxHEIGHT)");
    out.kind = FrameFileKind::kRaw;
    out.image.frame = raster::read_raw_indexed(path, raw_size->first, raw_size->second);
    out.image.palette = palette != nullptr ? *palette : raster::default_palette();
    return out;
  }
  out.image = raster::read_png(path, palette);
  out.kind = out.image.mapped_from_rgb ? FrameFileKind::kRgbPng : FrameFileKind::kIndexedPng;
  return out;
}

raster::Palette read_palette_argument(const std::string& spec) {
  const std::string ext = lower_extension(spec);
  if (ext == ".png") {
    raster::IndexedImage image = raster::read_png(spec);
    if (image.mapped_from_rgb || image.palette_entries == 0)
      throw InputError(spec, "a palette PNG must be an indexed PNG with a PLTE");
    return image.palette;
  }
  // An engine's own palette file (FA PALETTE.PAL, also as LIB:MEMBER), by its content; else 768
  // bytes of 8-bit RGB.
  const EngineInput input = read_input(spec);
  for (const Engine* engine : engines())
    if (auto palette = engine->read_palette(input)) return *palette;
  if (input.member) throw InputError(spec, "no engine reads this member as a palette");
  return raster::palette_from_rgb8(input.bytes, spec);
}

}  // namespace shapevm::tools
