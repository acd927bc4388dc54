#include "raster/png_fast_write.h"

#include <libdeflate.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "core/byte_writer.h"
#include "raster/frame_deflate.h"

namespace shapevm::raster {
namespace {

// A chunk is its data's length, its type, the data, and the CRC of type and data: begin_chunk
// writes the first two, end_chunk the CRC of everything from the type (at `type_at`) onwards.
void begin_chunk(std::vector<uint8_t>& out, std::string_view type, uint32_t length) {
  if (type.size() != 4) throw std::invalid_argument("a PNG chunk type is four letters");
  append_u32_be(out, length);
  out.insert(out.end(), type.begin(), type.end());
}
void end_chunk(std::vector<uint8_t>& out, size_t type_at) {
  append_u32_be(out, libdeflate_crc32(0, out.data() + type_at, out.size() - type_at));
}

}  // namespace

void append_png_chunk(std::vector<uint8_t>& out, std::string_view type,
                      std::span<const uint8_t> data) {
  begin_chunk(out, type, static_cast<uint32_t>(data.size()));
  const size_t type_at = out.size() - 4;
  out.insert(out.end(), data.begin(), data.end());
  end_chunk(out, type_at);
}

std::vector<uint8_t> encode_png_fast(uint32_t width, uint32_t height,
                                     std::span<const uint8_t> pixels, const Palette* palette) {
  const size_t channels = palette != nullptr ? 1 : 3;
  const size_t row_bytes = size_t{width} * channels;
  if (pixels.size() != row_bytes * height)
    throw std::invalid_argument("encode_png_fast: the pixels do not fill the image");

  // Each row behind its filter-type byte, 0 ("none"). Buffers that are written before they are
  // read are left uninitialised (new[] without a value): zeroing them first was a third of the
  // page faults of rendering one shape in its own process.
  const size_t filtered_size = (row_bytes + 1) * height;
  const std::unique_ptr<uint8_t[]> filtered(new uint8_t[filtered_size]);
  for (size_t y = 0; y < height; ++y) {
    uint8_t* row = filtered.get() + y * (row_bytes + 1);
    row[0] = 0;
    std::memcpy(row + 1, pixels.data() + y * row_bytes, row_bytes);
  }

  std::vector<uint8_t> out;
  out.insert(out.end(), kPngSignature.begin(), kPngSignature.end());

  std::vector<uint8_t> header;
  append_u32_be(header, width);
  append_u32_be(header, height);
  // Bit depth 8; colour type 3 (indexed) or 2 (RGB); deflate; filter method 0; no interlace.
  const uint8_t rest[5] = {8, static_cast<uint8_t>(palette != nullptr ? 3 : 2), 0, 0, 0};
  header.insert(header.end(), rest, rest + 5);
  append_png_chunk(out, "IHDR", header);

  if (palette != nullptr) {
    std::array<uint8_t, 768> plte{};
    for (size_t i = 0; i < 256; ++i) {
      plte[i * 3] = palette->colors[i].r;
      plte[i * 3 + 1] = palette->colors[i].g;
      plte[i * 3 + 2] = palette->colors[i].b;
    }
    append_png_chunk(out, "PLTE", plte);
  }

  // The zlib stream goes straight into the IDAT chunk, whose length is filled in after it.
  const size_t length_at = out.size();
  begin_chunk(out, "IDAT", 0);
  const size_t type_at = out.size() - 4;
  deflate_frame_rows({filtered.get(), filtered_size}, row_bytes + 1, channels, out);
  const size_t compressed = out.size() - type_at - 4;
  if (compressed > 0x7FFFFFFF) throw std::length_error("PNG encoding: the image data is too long");
  put_u32_be(out, length_at, static_cast<uint32_t>(compressed));
  end_chunk(out, type_at);

  append_png_chunk(out, "IEND", {});
  return out;
}

}  // namespace shapevm::raster
