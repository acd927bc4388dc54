#include "raster/png_fast_read.h"

#include <libdeflate.h>

#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "core/byte_reader.h"

namespace shapevm::raster {
namespace {

constexpr std::array<uint8_t, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
constexpr uint32_t kMaxChunkLength = 0x7FFFFFFF;  // PNG's own limit (2^31 - 1)

constexpr uint32_t chunk_type(const char (&name)[5]) {
  return (uint32_t{static_cast<uint8_t>(name[0])} << 24) |
         (uint32_t{static_cast<uint8_t>(name[1])} << 16) |
         (uint32_t{static_cast<uint8_t>(name[2])} << 8) | uint32_t{static_cast<uint8_t>(name[3])};
}

constexpr uint32_t kIHDR = chunk_type("IHDR");
constexpr uint32_t kPLTE = chunk_type("PLTE");
constexpr uint32_t kIDAT = chunk_type("IDAT");
constexpr uint32_t kIEND = chunk_type("IEND");

// A chunk's first letter is upper case for a critical chunk (bit 5 of the byte clear).
bool is_critical(uint32_t type) {
  return (type & 0x20000000u) == 0;
}

struct DecompressorDeleter {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// One per thread (regress workers decode in parallel); allocated once.
libdeflate_decompressor* decompressor() {
  thread_local std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> instance(
      libdeflate_alloc_decompressor());
  return instance.get();
}

uint8_t paeth(uint8_t left, uint8_t up, uint8_t up_left) {
  const int p = int{left} + up - up_left;
  const int pa = p > left ? p - left : left - p;
  const int pb = p > up ? p - up : up - p;
  const int pc = p > up_left ? p - up_left : up_left - p;
  if (pa <= pb && pa <= pc) return left;
  if (pb <= pc) return up;
  return up_left;
}

// Reverses the filter of one row of one-byte pixels (PNG filter method 0) into `out`; `previous`
// is the row above, already unfiltered (nullptr for the first row, which filters against zeros).
// False for an unknown filter type.
bool unfilter_row(uint8_t filter, const uint8_t* in, const uint8_t* previous, uint8_t* out,
                  size_t width) {
  switch (filter) {
    case 0:
      // memmove, not memcpy: GCC expanded this memcpy in line as `rep movsq`, whose start-up
      // on every 640-byte row cost 2 us of a frame's 28; the library's copy is faster.
      std::memmove(out, in, width);
      return true;
    case 1: {
      uint8_t left = 0;
      for (size_t x = 0; x < width; ++x) left = out[x] = static_cast<uint8_t>(in[x] + left);
      return true;
    }
    case 2:
      if (previous == nullptr) {
        std::memcpy(out, in, width);
      } else {
        for (size_t x = 0; x < width; ++x) out[x] = static_cast<uint8_t>(in[x] + previous[x]);
      }
      return true;
    case 3: {
      uint8_t left = 0;
      for (size_t x = 0; x < width; ++x) {
        const unsigned up = previous == nullptr ? 0 : previous[x];
        left = out[x] = static_cast<uint8_t>(in[x] + ((left + up) >> 1));
      }
      return true;
    }
    case 4: {
      uint8_t left = 0;
      uint8_t up_left = 0;
      for (size_t x = 0; x < width; ++x) {
        const uint8_t up = previous == nullptr ? 0 : previous[x];
        left = out[x] = static_cast<uint8_t>(in[x] + paeth(left, up, up_left));
        up_left = up;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

std::optional<IndexedImage> decode_indexed8_png(std::span<const uint8_t> bytes) {
  if (bytes.size() < kSignature.size() ||
      std::memcmp(bytes.data(), kSignature.data(), kSignature.size()) != 0)
    return std::nullopt;

  uint32_t width = 0;
  uint32_t height = 0;
  bool have_header = false;
  const uint8_t* plte = nullptr;
  size_t plte_entries = 0;
  // The IDAT chunks' data, in order; they must follow one another.
  std::vector<std::span<const uint8_t>> idat;
  bool idat_ended = false;
  bool have_end = false;

  size_t at = kSignature.size();
  while (!have_end) {
    if (bytes.size() - at < 12) return std::nullopt;  // length, type, CRC
    const uint32_t length = load_u32_be(bytes.data() + at);
    const uint32_t type = load_u32_be(bytes.data() + at + 4);
    if (length > kMaxChunkLength || bytes.size() - at - 12 < length) return std::nullopt;
    const uint8_t* data = bytes.data() + at + 8;
    const uint32_t stored_crc = load_u32_be(data + length);
    // The CRC covers the type and the data.
    if (libdeflate_crc32(0, bytes.data() + at + 4, size_t{length} + 4) != stored_crc)
      return std::nullopt;
    at += size_t{length} + 12;

    if (!have_header) {
      // IHDR first: 8-bit palette indices, the standard compression and filter, no interlace.
      if (type != kIHDR || length != 13) return std::nullopt;
      width = load_u32_be(data);
      height = load_u32_be(data + 4);
      if (width < 1 || height < 1 || width > static_cast<uint32_t>(Framebuffer::kMaxDimension) ||
          height > static_cast<uint32_t>(Framebuffer::kMaxDimension))
        return std::nullopt;
      if (data[8] != 8 || data[9] != 3 || data[10] != 0 || data[11] != 0 || data[12] != 0)
        return std::nullopt;
      have_header = true;
      continue;
    }
    if (!idat.empty() && type != kIDAT) idat_ended = true;
    if (type == kPLTE) {
      if (plte != nullptr || !idat.empty() || length == 0 || length % 3 != 0 || length > 768)
        return std::nullopt;
      plte = data;
      plte_entries = length / 3;
    } else if (type == kIDAT) {
      if (plte == nullptr || idat_ended) return std::nullopt;
      idat.emplace_back(data, length);
    } else if (type == kIEND) {
      if (length != 0 || idat.empty()) return std::nullopt;
      have_end = true;  // what follows IEND is not read, as libpng does not read it
    } else if (is_critical(type)) {
      return std::nullopt;  // IHDR again, or a critical chunk this reader does not know
    }
    // Ancillary chunks (text, time, gamma, transparency...) do not change indices: skipped.
  }

  // One zlib stream over every IDAT's data.
  std::vector<uint8_t> joined;
  std::span<const uint8_t> stream = idat.front();
  if (idat.size() > 1) {
    for (const auto& part : idat) joined.insert(joined.end(), part.begin(), part.end());
    stream = joined;
  }
  const size_t stride = size_t{width} + 1;  // the filter byte, then one byte per pixel
  // Not value-initialised: the inflater writes every byte before any is read (all of them, or
  // the image is dropped), and zeroing them was a tenth of a frame's decoding.
  const size_t filtered_size = stride * height;
  const std::unique_ptr<uint8_t[]> filtered(new uint8_t[filtered_size]);
  size_t in_used = 0;
  size_t out_made = 0;
  // The stream must end exactly with the last row and use every byte (adler32 checked).
  if (libdeflate_zlib_decompress_ex(decompressor(), stream.data(), stream.size(), filtered.get(),
                                    filtered_size, &in_used, &out_made) != LIBDEFLATE_SUCCESS ||
      in_used != stream.size() || out_made != filtered_size)
    return std::nullopt;

  // Every row is unfiltered into the frame below, or the image is dropped.
  IndexedImage image{Framebuffer::for_overwrite(static_cast<int>(width), static_cast<int>(height)),
                     Palette{}, static_cast<int>(plte_entries)};
  const std::span<uint8_t> pixels = image.frame.pixels();
  uint8_t highest = 0;
  for (size_t y = 0; y < height; ++y) {
    const uint8_t* in = filtered.get() + y * stride;
    uint8_t* out = pixels.data() + y * width;
    if (!unfilter_row(in[0], in + 1, y == 0 ? nullptr : out - width, out, width))
      return std::nullopt;
    if (plte_entries < 256)
      for (size_t x = 0; x < width; ++x) highest = std::max(highest, out[x]);
  }
  if (plte_entries < 256 && highest >= plte_entries) return std::nullopt;  // libpng's to judge
  for (size_t i = 0; i < plte_entries; ++i)
    image.palette.colors[i] = {plte[3 * i], plte[3 * i + 1], plte[3 * i + 2]};
  return image;
}

}  // namespace shapevm::raster
