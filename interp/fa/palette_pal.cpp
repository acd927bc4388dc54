#include "interp/fa/palette_pal.h"

#include <fmt/format.h>

#include <algorithm>

namespace shapevm::fa {

std::vector<raster::Rgb> read_6bit_triplets(const ByteReader& reader, size_t offset, size_t count,
                                            std::string_view what) {
  auto bytes = reader.bytes(offset, count * 3, what);
  std::vector<raster::Rgb> colors(count);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] > kMax6BitChannel) {
      reader.fail(offset + i,
                  fmt::format("a 6-bit colour channel (0..63) in {} (entry {}, {}), got {}", what,
                              i / 3, "RGB"[i % 3], bytes[i]));
    }
  }
  for (size_t i = 0; i < count; ++i) {
    colors[i] = {widen_6bit(bytes[3 * i]), widen_6bit(bytes[3 * i + 1]),
                 widen_6bit(bytes[3 * i + 2])};
  }
  return colors;
}

raster::Palette read_pal(std::span<const uint8_t> data, const std::string& source) {
  ByteReader reader(data, source);
  if (data.size() > kPalFileSize) {
    reader.fail(kPalFileSize, fmt::format("the end of a {}-byte palette, but the file is {} bytes",
                                          kPalFileSize, data.size()));
  }
  // A short file fails inside read_6bit_triplets with the reader's length message.
  std::vector<raster::Rgb> colors = read_6bit_triplets(reader, 0, 256, "a 768-byte 6-bit palette");
  raster::Palette palette;
  std::copy(colors.begin(), colors.end(), palette.colors.begin());
  return palette;
}

std::vector<uint8_t> encode_pal(const raster::Palette& palette) {
  std::vector<uint8_t> out;
  out.reserve(kPalFileSize);
  for (const raster::Rgb& c : palette.colors) {
    out.push_back(static_cast<uint8_t>(c.r >> 2));
    out.push_back(static_cast<uint8_t>(c.g >> 2));
    out.push_back(static_cast<uint8_t>(c.b >> 2));
  }
  return out;
}

}  // namespace shapevm::fa
