// Starlancer's texture cache (tcachehw.dat / tcachesw.dat) and palette (palette.tga), read
// bounds-checked (docs/shp-drawing.md, "Textures"), plus builders of small files of both for
// tests and examples.
//
// tcache, little-endian: u32 version 102, u32 entry count (<= 1000), u32 end of the pixels; a
// directory of 1000 entries of 240 bytes at 0x0C; the pixels from 240012, contiguous in directory
// order. An entry: 0x00 u32 bytes per pixel (1, 2 or 4) and five {mask, shift, loss} u32 triples
// (index, R, G, B, A); 0x40/0x44 width, height; 0x48 char[32] name; 0x68 its own index; 0x70
// flags (0x01 index + alpha, 0x02 mipmapped, 0x04 8-bit index, 0x08 transient); 0x74 levels;
// 0xE0 the pixel offset. Levels halve, largest first, rows top-down.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "raster/palette.h"
#include "raster/texture.h"

namespace shapevm::shp {

inline constexpr uint32_t kTcacheVersion = 102;
inline constexpr uint32_t kTcacheSlots = 1000;
inline constexpr uint32_t kTcacheEntrySize = 240;
inline constexpr uint32_t kTcacheDirectory = 0x0C;
inline constexpr uint32_t kTcachePixels = kTcacheDirectory + kTcacheSlots * kTcacheEntrySize;

inline constexpr uint32_t kTexIndexAlpha = 0x01;
inline constexpr uint32_t kTexMipmapped = 0x02;
inline constexpr uint32_t kTexIndexed = 0x04;
inline constexpr uint32_t kTexTransient = 0x08;

struct ChannelFormat {
  uint32_t mask = 0, shift = 0, loss = 0;
};

struct TcacheEntry {
  std::string name;  // as stored
  uint32_t bytes_per_pixel = 1;
  std::array<ChannelFormat, 5> channels{};  // index, R, G, B, A
  uint32_t width = 0, height = 0;
  uint32_t own_index = 0;
  uint32_t flags = 0;
  uint32_t levels = 1;
  uint32_t pixel_offset = 0;    // as stored (0xE0)
  uint64_t pixels_at = 0;       // where its level 0 starts in the file
  std::vector<uint8_t> level0;  // width * height * bytes_per_pixel
};

class TextureCache {
 public:
  // InputError (file, offset, expectation) for a wrong version, a count over 1000, an entry with
  // a bad size or format, or pixels past the end.
  TextureCache(std::span<const uint8_t> bytes, std::string source);
  const std::string& source() const { return source_; }
  const std::vector<TcacheEntry>& entries() const { return entries_; }
  // The first entry whose basename (without directories or extension) equals `name`,
  // case-insensitively; nullptr when none.
  const TcacheEntry* find(std::string_view name) const;

 private:
  std::string source_;
  std::vector<TcacheEntry> entries_;
};

// An entry's level 0 as an indexed texture: 8-bit indices as they are, index + alpha without its
// alpha, RGB texels mapped to the nearest entry of `palette`. Nothing is transparent.
raster::Texture to_indexed_texture(const TcacheEntry& entry, const raster::Palette& palette);

// palette.tga: a colour-mapped TGA whose map holds 256 entries of 24 (B, G, R) or 32 (B, G, R, A)
// bits. InputError naming the offset otherwise.
raster::Palette read_palette_tga(std::span<const uint8_t> bytes, const std::string& source);

// --- Builders (tests, examples) -----------------------------------------------------------------
struct TextureSpec {
  std::string name;
  uint32_t width = 0, height = 0;
  enum class Format { kIndexed, kIndexAlpha, kRgb565 } format = Format::kIndexed;
  std::vector<uint8_t> pixels;  // level 0: width * height * bytes per pixel, as stored
  bool mipmapped = false;       // also write halved levels (each texel the top-left of its 2x2)
};
std::vector<uint8_t> build_tcache(const std::vector<TextureSpec>& textures);
// A 1x1 colour-mapped TGA holding `palette` as 256 B, G, R entries.
std::vector<uint8_t> build_palette_tga(const raster::Palette& palette);

}  // namespace shapevm::shp
