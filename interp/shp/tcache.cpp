#include "interp/shp/tcache.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/shp/colour_tables.h"

namespace shapevm::shp {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "dir\\Name.TGA" -> "name".
std::string basename_key(std::string_view name) {
  const size_t slash = name.find_last_of("/\\");
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  const size_t dot = name.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) name = name.substr(0, dot);
  return lower(name);
}

uint64_t level_bytes(uint32_t w, uint32_t h, uint32_t bpp) {
  return uint64_t{w} * h * bpp;
}

// Bytes of all of an entry's levels (each halves, never below 1).
uint64_t entry_bytes(const TcacheEntry& e) {
  uint64_t total = 0;
  uint32_t w = e.width, h = e.height;
  for (uint32_t l = 0; l < e.levels; ++l) {
    total += level_bytes(w, h, e.bytes_per_pixel);
    w = std::max<uint32_t>(1, w / 2);
    h = std::max<uint32_t>(1, h / 2);
  }
  return total;
}

}  // namespace

TextureCache::TextureCache(std::span<const uint8_t> bytes, std::string source)
    : source_(std::move(source)) {
  const ByteReader r(bytes, source_);
  const uint32_t version = r.u32(0, "tcache version");
  if (version != kTcacheVersion)
    r.fail(0, fmt::format("tcache version {} (found {})", kTcacheVersion, version));
  const uint32_t count = r.u32(4, "tcache entry count");
  if (count > kTcacheSlots)
    r.fail(4, fmt::format("an entry count of at most {} (found {})", kTcacheSlots, count));
  const uint32_t pixel_end = r.u32(8, "tcache pixel end");
  r.require(kTcacheDirectory, size_t{kTcacheSlots} * kTcacheEntrySize,
            "the 1000-entry tcache directory");
  if (pixel_end < kTcachePixels || pixel_end > bytes.size())
    r.fail(8, fmt::format("a pixel end between {} and the file size {} (found {})", kTcachePixels,
                          bytes.size(), pixel_end));
  uint64_t next = kTcachePixels;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = kTcacheDirectory + size_t{i} * kTcacheEntrySize;
    TcacheEntry e;
    e.bytes_per_pixel = r.u32(at, "bytes per pixel");
    if (e.bytes_per_pixel != 1 && e.bytes_per_pixel != 2 && e.bytes_per_pixel != 4)
      r.fail(at, fmt::format("bytes per pixel 1, 2 or 4 (found {})", e.bytes_per_pixel));
    for (size_t c = 0; c < 5; ++c) {
      e.channels[c].mask = r.u32(at + 4 + c * 12, "channel mask");
      e.channels[c].shift = r.u32(at + 8 + c * 12, "channel shift");
      e.channels[c].loss = r.u32(at + 12 + c * 12, "channel loss");
      if (e.channels[c].shift > 31 || e.channels[c].loss > 8)
        r.fail(at + 4 + c * 12, "a channel shift below 32 and a loss of at most 8");
    }
    e.width = r.u32(at + 0x40, "texture width");
    e.height = r.u32(at + 0x44, "texture height");
    if (e.width == 0 || e.height == 0 || e.width > 4096 || e.height > 4096)
      r.fail(at + 0x40, fmt::format("a texture size of 1..4096 (found {}x{})", e.width, e.height));
    e.name = r.fixed_string(at + 0x48, 32, "texture name");
    e.own_index = r.u32(at + 0x68, "own index");
    e.flags = r.u32(at + 0x70, "texture flags");
    e.levels = (e.flags & kTexMipmapped) != 0 ? r.u32(at + 0x74, "mip levels") : 1;
    if (e.levels == 0 || e.levels > 13)
      r.fail(at + 0x74, fmt::format("1..13 mip levels (found {})", e.levels));
    if ((e.flags & kTexIndexed) != 0 && e.bytes_per_pixel != 1)
      r.fail(at, "1 byte per pixel for an 8-bit indexed texture (flag 0x04)");
    if ((e.flags & kTexIndexAlpha) != 0 && e.bytes_per_pixel != 2)
      r.fail(at, "2 bytes per pixel for an index + alpha texture (flag 0x01)");
    e.pixel_offset = r.u32(at + 0xE0, "pixel offset");
    // The pixels are contiguous in directory order; the stored offset is not relied on.
    e.pixels_at = next;
    const uint64_t size = entry_bytes(e);
    if (next + size > pixel_end)
      r.fail(at, fmt::format("pixels for texture \"{}\" ({} bytes from {}) before the pixel "
                             "end {}",
                             e.name, size, next, pixel_end));
    const auto level0 = r.bytes(
        static_cast<size_t>(next),
        static_cast<size_t>(level_bytes(e.width, e.height, e.bytes_per_pixel)), "texture pixels");
    e.level0.assign(level0.begin(), level0.end());
    next += size;
    entries_.push_back(std::move(e));
  }
}

const TcacheEntry* TextureCache::find(std::string_view name) const {
  const std::string key = lower(name);
  for (const auto& e : entries_)
    if (basename_key(e.name) == key) return &e;
  return nullptr;
}

raster::Texture to_indexed_texture(const TcacheEntry& e, const raster::Palette& palette) {
  raster::Texture t;
  t.width = static_cast<int>(e.width);
  t.height = static_cast<int>(e.height);
  t.transparent_index = raster::Texture::kNoTransparency;
  t.pixels.resize(size_t{e.width} * e.height);
  const size_t bpp = e.bytes_per_pixel;
  const bool indexed = bpp == 1 || (e.flags & kTexIndexAlpha) != 0;
  // RGB texels are mapped with the palette's search, built once per palette (colour_tables).
  const std::shared_ptr<const ColourTables> tables = indexed ? nullptr : colour_tables(palette);
  for (size_t i = 0; i < t.pixels.size(); ++i) {
    const uint8_t* p = e.level0.data() + i * bpp;
    if (indexed) {
      t.pixels[i] = p[0];  // index + alpha: the index byte first, the alpha dropped
      continue;
    }
    uint32_t v = 0;
    for (size_t b = 0; b < bpp; ++b) v |= uint32_t{p[b]} << (8 * b);
    auto channel = [&](size_t c) {
      const ChannelFormat& f = e.channels[c];
      uint32_t x = ((v & f.mask) >> f.shift) << f.loss;
      // Spread the lost low bits (31 -> 255, not 248) so white stays white.
      if (f.loss > 0 && f.loss < 8) x |= x >> (8 - f.loss);
      return static_cast<uint8_t>(std::min<uint32_t>(x, 255));
    };
    const raster::Rgb rgb{channel(1), channel(2), channel(3)};
    t.pixels[i] = tables->nearest(rgb);
  }
  return t;
}

raster::Palette read_palette_tga(std::span<const uint8_t> bytes, const std::string& source) {
  const ByteReader r(bytes, source);
  const uint8_t id_length = r.u8(0, "TGA id length");
  const uint8_t map_type = r.u8(1, "TGA colour map type");
  if (map_type != 1) r.fail(1, fmt::format("a colour-mapped TGA (map type 1, found {})", map_type));
  const uint16_t first = r.u16(3, "TGA first map entry");
  const uint16_t length = r.u16(5, "TGA map length");
  const uint8_t entry_bits = r.u8(7, "TGA map entry size");
  if (first != 0 || length != 256)
    r.fail(3, fmt::format("a colour map of 256 entries from 0 (found {} from {})", length, first));
  if (entry_bits != 24 && entry_bits != 32)
    r.fail(7, fmt::format("24- or 32-bit colour map entries (found {})", entry_bits));
  const size_t step = entry_bits / 8;
  const size_t at = 18 + size_t{id_length};
  const auto map = r.bytes(at, 256 * step, "the TGA colour map (256 entries)");
  raster::Palette p;
  for (size_t i = 0; i < 256; ++i)
    p.colors[i] = {map[i * step + 2], map[i * step + 1], map[i * step]};
  return p;
}

std::vector<uint8_t> build_tcache(const std::vector<TextureSpec>& textures) {
  std::vector<uint8_t> out(kTcachePixels, 0);
  put_u32(out, 0, kTcacheVersion);
  put_u32(out, 4, static_cast<uint32_t>(textures.size()));
  uint32_t index = 0;
  for (const auto& t : textures) {
    const size_t at = kTcacheDirectory + size_t{index} * kTcacheEntrySize;
    using F = TextureSpec::Format;
    const uint32_t bpp = t.format == F::kIndexed ? 1 : 2;
    put_u32(out, at, bpp);
    if (t.format == F::kIndexed || t.format == F::kIndexAlpha) {
      put_u32(out, at + 4, 0xFF);  // index: the low byte
      if (t.format == F::kIndexAlpha) {
        put_u32(out, at + 4 + 4 * 12, 0xFF00);  // alpha: the high byte
        put_u32(out, at + 8 + 4 * 12, 8);
      }
    } else {
      const uint32_t masks[3] = {0xF800, 0x07E0, 0x001F}, shifts[3] = {11, 5, 0},
                     losses[3] = {3, 2, 3};
      for (size_t c = 0; c < 3; ++c) {
        put_u32(out, at + 4 + (c + 1) * 12, masks[c]);
        put_u32(out, at + 8 + (c + 1) * 12, shifts[c]);
        put_u32(out, at + 12 + (c + 1) * 12, losses[c]);
      }
    }
    put_u32(out, at + 0x40, t.width);
    put_u32(out, at + 0x44, t.height);
    for (size_t i = 0; i < t.name.size() && i < 31; ++i)
      out[at + 0x48 + i] = static_cast<uint8_t>(t.name[i]);
    put_u32(out, at + 0x68, index);
    uint32_t flags =
        t.format == F::kIndexed ? kTexIndexed : (t.format == F::kIndexAlpha ? kTexIndexAlpha : 0);
    std::vector<std::vector<uint8_t>> levels = {t.pixels};
    if (t.mipmapped) {
      flags |= kTexMipmapped;
      uint32_t w = t.width, h = t.height;
      while (w > 1 || h > 1) {
        const uint32_t nw = std::max<uint32_t>(1, w / 2), nh = std::max<uint32_t>(1, h / 2);
        std::vector<uint8_t> next(size_t{nw} * nh * bpp);
        for (uint32_t y = 0; y < nh; ++y)
          for (uint32_t x = 0; x < nw; ++x)
            for (uint32_t b = 0; b < bpp; ++b)
              next[(size_t{y} * nw + x) * bpp + b] =
                  levels.back()[(size_t{y * 2} * w + x * 2) * bpp + b];
        levels.push_back(std::move(next));
        w = nw;
        h = nh;
      }
    }
    put_u32(out, at + 0x70, flags);
    put_u32(out, at + 0x74, static_cast<uint32_t>(levels.size()));
    // The copy of 0x00-0x47 at 0x78.
    std::copy(out.begin() + static_cast<ptrdiff_t>(at),
              out.begin() + static_cast<ptrdiff_t>(at + 0x48),
              out.begin() + static_cast<ptrdiff_t>(at + 0x78));
    put_u32(out, at + 0xE0, static_cast<uint32_t>(out.size() - kTcachePixels));
    for (const auto& l : levels) out.insert(out.end(), l.begin(), l.end());
    ++index;
  }
  put_u32(out, 8, static_cast<uint32_t>(out.size()));
  return out;
}

std::vector<uint8_t> build_palette_tga(const raster::Palette& palette) {
  std::vector<uint8_t> out(18, 0);
  out[1] = 1;  // colour-mapped
  out[2] = 1;  // uncompressed colour-mapped image
  out[5] = 0;
  out[6] = 1;  // 256 entries
  out[7] = 24;
  out[12] = 1;  // 1 x 1
  out[14] = 1;
  out[16] = 8;  // 8 bits per pixel
  for (const auto& c : palette.colors) {
    out.push_back(c.b);
    out.push_back(c.g);
    out.push_back(c.r);
  }
  out.push_back(0);  // the one pixel
  return out;
}

}  // namespace shapevm::shp
