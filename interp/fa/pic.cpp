#include "interp/fa/pic.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_reader.h"
#include "interp/fa/palette_pal.h"

namespace shapevm::fa {

namespace {

constexpr size_t kSpanRecordSize = 10;
constexpr uint16_t kSpanTableEnd = 0xFFFF;

PicHeader read_header(const ByteReader& reader) {
  PicHeader header;
  header.format = reader.u16(0x00, "the PIC format word");
  if (header.format == kPicFormatJpeg) {
    reader.fail(0x00,
                "a PIC in format 0 (dense) or 1 (sparse); this one is a JPEG file (FF D8), which "
                "shapevm does not decode");
  }
  if (header.format != kPicFormatDense && header.format != kPicFormatSparse) {
    reader.fail(0x00,
                fmt::format("PIC format 0 (dense) or 1 (sparse), got 0x{:04x}", header.format));
  }
  reader.require(0, kPicHeaderSize, "the 64-byte PIC header");
  header.width = reader.u32(0x02, "the PIC width");
  header.height = reader.u32(0x06, "the PIC height");
  header.pixels_off = reader.u32(0x0A, "pixels_off");
  header.pixels_size = reader.u32(0x0E, "pixels_size");
  header.pal_off = reader.u32(0x12, "pal_off");
  header.pal_size = reader.u32(0x16, "pal_size");
  header.spans_off = reader.u32(0x1A, "spans_off");
  header.spans_size = reader.u32(0x1E, "spans_size");
  header.rowheads_off = reader.u32(0x22, "rowheads_off");
  header.rowheads_size = reader.u32(0x26, "rowheads_size");
  if (header.width == 0 || header.width > kPicMaxDimension) {
    reader.fail(0x02, fmt::format("a PIC width of 1..{}, got {}", kPicMaxDimension, header.width));
  }
  if (header.height == 0 || header.height > kPicMaxDimension) {
    reader.fail(0x06,
                fmt::format("a PIC height of 1..{}, got {}", kPicMaxDimension, header.height));
  }
  return header;
}

void read_dense(const ByteReader& reader, const PicHeader& header, raster::Texture& texture) {
  auto pixels = reader.bytes(
      header.pixels_off, texture.pixels.size(),
      fmt::format("{}x{} dense PIC pixels at pixels_off", header.width, header.height));
  std::copy(pixels.begin(), pixels.end(), texture.pixels.begin());
}

void read_sparse(const ByteReader& reader, const PicHeader& header, raster::Texture& texture) {
  // Each record consumes ten new bytes and the reader refuses to run past the end, so the walk
  // terminates even without an end marker.
  for (size_t at = header.spans_off;; at += kSpanRecordSize) {
    const uint16_t row = reader.u16(at, "a sparse PIC span row (0xFFFF ends the table)");
    if (row == kSpanTableEnd) return;
    const uint16_t x0 = reader.u16(at + 2, "a sparse PIC span x0");
    const uint16_t x1 = reader.u16(at + 4, "a sparse PIC span x1");
    const uint32_t data_offset = reader.u32(at + 6, "a sparse PIC span data offset");
    if (row >= header.height) {
      reader.fail(at,
                  fmt::format("a span row below the image height {}, got {}", header.height, row));
    }
    if (x0 > x1 || x1 >= header.width) {
      reader.fail(at + 2,
                  fmt::format("a span x0 <= x1 < width {}, got x0 {} x1 {}", header.width, x0, x1));
    }
    const size_t length = static_cast<size_t>(x1) - x0 + 1;
    // The span's data offset counts from pixels_off, not from the start of the file.
    const size_t data_at = static_cast<size_t>(header.pixels_off) + data_offset;
    auto pixels =
        reader.bytes(data_at, length,
                     fmt::format("the {} pixels of the span at 0x{:x} (pixels_off + 0x{:x})",
                                 length, at, data_offset));
    std::copy(pixels.begin(), pixels.end(),
              texture.pixels.begin() +
                  static_cast<std::ptrdiff_t>(static_cast<size_t>(row) * header.width + x0));
  }
}

}  // namespace

Pic read_pic(std::span<const uint8_t> data, const std::string& source) {
  ByteReader reader(data, source);
  Pic pic;
  pic.header = read_header(reader);
  const PicHeader& header = pic.header;
  pic.texture.width = static_cast<int>(header.width);
  pic.texture.height = static_cast<int>(header.height);
  pic.texture.transparent_index = kPicTransparent;
  pic.texture.pixels.assign(static_cast<size_t>(header.width) * header.height, kPicTransparent);
  if (header.format == kPicFormatDense) {
    read_dense(reader, header, pic.texture);
  } else {
    read_sparse(reader, header, pic.texture);
  }

  if (header.pal_size != 0) {
    if (header.pal_size % 3 != 0 || header.pal_size > 768) {
      reader.fail(0x16, fmt::format("an inline palette size that is a multiple of 3 up to 768, "
                                    "got {}",
                                    header.pal_size));
    }
    pic.inline_palette =
        read_6bit_triplets(reader, header.pal_off, header.pal_size / 3, "the PIC inline palette");
  }
  return pic;
}

raster::Palette apply_inline_palette(raster::Palette base, const Pic& pic) {
  if (pic.inline_palette) {
    std::copy(pic.inline_palette->begin(), pic.inline_palette->end(), base.colors.begin());
  }
  return base;
}

}  // namespace shapevm::fa
