#include "raster/png_fast_read.h"

#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/byte_reader.h"
#include "raster/colour_index.h"

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
constexpr uint32_t kTRNS = chunk_type("tRNS");

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

// The Paeth predictor (PNG filter type 4). With branches: in a capture's flat areas they are
// predicted, and a form with selects instead was no faster on frames.
uint8_t paeth(uint8_t left, uint8_t up, uint8_t up_left) {
  const int p = int{left} + up - up_left;
  const int pa = p > left ? p - left : left - p;
  const int pb = p > up ? p - up : up - p;
  const int pc = p > up_left ? p - up_left : up_left - p;
  if (pa <= pb && pa <= pc) return left;
  if (pb <= pc) return up;
  return up_left;
}

// Reverses the filter of one row (PNG filter method 0) of `row_bytes` bytes whose pixels are
// `bpp` bytes wide into `out`, which may be `in` itself; `previous` is the row above, already
// unfiltered (nullptr for the first row, which filters against zeros). A byte's left and
// upper-left neighbours are the same byte of the pixel before, so the first `bpp` bytes have
// none. False for an unknown filter type. `bpp` is a constant, so the loops test nothing but
// their end: a 640x480 RGB capture whose rows are all Sub or all Average is read in half the
// time it took when each byte asked whether it had a pixel to its left (Paeth: a fifth less).
template <size_t bpp>
bool unfilter_row(uint8_t filter, const uint8_t* in, const uint8_t* previous, uint8_t* out,
                  size_t row_bytes) {
  const size_t first = std::min(bpp, row_bytes);
  if (previous == nullptr) {
    // Against a row of zeros: Up is None, Average halves the left byte, Paeth predicts the left.
    if (filter == 2) filter = 0;
    if (filter == 4) filter = 1;
  }
  switch (filter) {
    case 0:
      // memmove, not memcpy: GCC expanded this memcpy in line as `rep movsq`, whose start-up
      // on every 640-byte row cost 2 us of a frame's 28; the library's copy is faster.
      if (out != in) std::memmove(out, in, row_bytes);
      return true;
    case 1:
      if (out != in) std::memmove(out, in, first);
      for (size_t x = bpp; x < row_bytes; ++x) out[x] = static_cast<uint8_t>(in[x] + out[x - bpp]);
      return true;
    case 2:
      for (size_t x = 0; x < row_bytes; ++x) out[x] = static_cast<uint8_t>(in[x] + previous[x]);
      return true;
    case 3:
      if (previous == nullptr) {
        if (out != in) std::memmove(out, in, first);
        for (size_t x = bpp; x < row_bytes; ++x)
          out[x] = static_cast<uint8_t>(in[x] + (out[x - bpp] >> 1));
        return true;
      }
      for (size_t x = 0; x < first; ++x) out[x] = static_cast<uint8_t>(in[x] + (previous[x] >> 1));
      for (size_t x = bpp; x < row_bytes; ++x)
        out[x] = static_cast<uint8_t>(in[x] + ((unsigned{out[x - bpp]} + previous[x]) >> 1));
      return true;
    case 4:
      // The first pixel's left and upper-left are zero: the predictor is the byte above.
      for (size_t x = 0; x < first; ++x) out[x] = static_cast<uint8_t>(in[x] + previous[x]);
      for (size_t x = bpp; x < row_bytes; ++x)
        out[x] = static_cast<uint8_t>(in[x] + paeth(out[x - bpp], previous[x], previous[x - bpp]));
      return true;
    default:
      return false;
  }
}

// Row y of inflated rows of `row_bytes` bytes each behind their filter byte, unfiltered in place
// against the row above (already unfiltered); nullptr for an unknown filter.
template <size_t bpp>
uint8_t* unfilter_in_place(uint8_t* rows, size_t y, size_t row_bytes) {
  const size_t stride = row_bytes + 1;
  uint8_t* row = rows + y * stride + 1;
  return unfilter_row<bpp>(row[-1], row, y == 0 ? nullptr : row - stride, row, row_bytes) ? row
                                                                                          : nullptr;
}

constexpr uint8_t kGrey = 0;
constexpr uint8_t kRgb = 2;
constexpr uint8_t kIndexed = 3;
constexpr uint8_t kGreyAlpha = 4;
constexpr uint8_t kRgba = 6;

// The bytes of one pixel of an 8-bit image of a colour type (the index for an indexed one).
constexpr size_t channels_of(uint8_t colour_type) {
  switch (colour_type) {
    case kGreyAlpha:
      return 2;
    case kRgb:
      return 3;
    case kRgba:
      return 4;
    default:
      return 1;
  }
}

// What the chunks of a non-interlaced PNG give, every CRC checked: the header's figures, the
// palette and the one zlib stream of the IDATs' data.
struct Chunks {
  uint32_t width = 0;
  uint32_t height = 0;
  uint8_t colour_type = 0;
  uint8_t bit_depth = 8;  // 8, or 1, 2 or 4 for an indexed or grey image
  const uint8_t* plte = nullptr;
  size_t plte_entries = 0;
  bool has_trns = false;
  std::vector<std::span<const uint8_t>> idat;  // in order, one after another
};

// The chunks, or nullopt for anything this reader leaves to libpng: another bit depth or
// colour type, interlace, a bad CRC or length, an unknown critical chunk, a palette out of
// place, IDATs apart, no IEND.
std::optional<Chunks> read_chunks(std::span<const uint8_t> bytes) {
  if (bytes.size() < kSignature.size() ||
      std::memcmp(bytes.data(), kSignature.data(), kSignature.size()) != 0)
    return std::nullopt;

  Chunks c;
  bool have_header = false;
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
      // IHDR first: 8 bits a sample, the standard compression and filter, no interlace.
      if (type != kIHDR || length != 13) return std::nullopt;
      c.width = load_u32_be(data);
      c.height = load_u32_be(data + 4);
      if (c.width < 1 || c.height < 1 ||
          c.width > static_cast<uint32_t>(Framebuffer::kMaxDimension) ||
          c.height > static_cast<uint32_t>(Framebuffer::kMaxDimension))
        return std::nullopt;
      c.colour_type = data[9];
      if (c.colour_type != kGrey && c.colour_type != kRgb && c.colour_type != kIndexed &&
          c.colour_type != kGreyAlpha && c.colour_type != kRgba)
        return std::nullopt;
      c.bit_depth = data[8];
      // Indexed and grey samples may be packed several to a byte (as PNG optimisers write an
      // image of few colours); 16-bit samples are libpng's.
      const bool packable = c.colour_type == kIndexed || c.colour_type == kGrey;
      if (c.bit_depth != 8 &&
          !(packable && (c.bit_depth == 1 || c.bit_depth == 2 || c.bit_depth == 4)))
        return std::nullopt;
      if (data[10] != 0 || data[11] != 0 || data[12] != 0) return std::nullopt;
      have_header = true;
      continue;
    }
    if (!c.idat.empty() && type != kIDAT) idat_ended = true;
    if (type == kPLTE) {
      if (c.plte != nullptr || !c.idat.empty() || length == 0 || length % 3 != 0 || length > 768)
        return std::nullopt;
      c.plte = data;
      c.plte_entries = length / 3;
      // More entries than the indices can reach: libpng drops the rest (its judgement, not ours).
      if (c.colour_type == kIndexed && c.plte_entries > (size_t{1} << c.bit_depth))
        return std::nullopt;
    } else if (type == kIDAT) {
      if ((c.colour_type == kIndexed && c.plte == nullptr) || idat_ended) return std::nullopt;
      c.idat.emplace_back(data, length);
    } else if (type == kIEND) {
      if (length != 0 || c.idat.empty()) return std::nullopt;
      have_end = true;  // what follows IEND is not read, as libpng does not read it
    } else if (is_critical(type)) {
      return std::nullopt;  // IHDR again, or a critical chunk this reader does not know
    } else if (type == kTRNS) {
      c.has_trns = true;
    }
    // Other ancillary chunks (text, time, gamma...) do not change the samples: skipped.
  }
  return c;
}

// The filtered rows, `stride` bytes each (the filter byte first), inflated from the IDATs; null
// unless the stream ends exactly with the last row and uses every byte (Adler-32 checked).
std::unique_ptr<uint8_t[]> inflate_rows(const Chunks& c, size_t stride) {
  // The stream is read from a copy with kStreamPadding zero bytes after it. libdeflate decodes
  // a byte at a time once fewer than about 25 bytes of its input are left (plus the 8 it may
  // have read ahead), and a frame's last bytes of stream can stand for tens of kilobytes of
  // background runs: given the padding as input too, it decodes every byte of the stream in its
  // fast loop. The padding is never taken as stream: a stream that ends early would be read into
  // it, and `in_used` then differs from the stream's size.
  constexpr size_t kStreamPadding = 64;
  size_t stream_size = 0;
  for (const auto& part : c.idat) stream_size += part.size();
  std::vector<uint8_t> padded;
  padded.reserve(stream_size + kStreamPadding);
  for (const auto& part : c.idat) padded.insert(padded.end(), part.begin(), part.end());
  padded.resize(stream_size + kStreamPadding);  // zeros
  // Not value-initialised: the inflater writes every byte before any is read (all of them, or
  // the image is dropped), and zeroing them was a tenth of a frame's decoding.
  const size_t size = stride * c.height;
  std::unique_ptr<uint8_t[]> rows(new uint8_t[size]);
  size_t in_used = 0;
  size_t out_made = 0;
  if (libdeflate_zlib_decompress_ex(decompressor(), padded.data(), padded.size(), rows.get(), size,
                                    &in_used, &out_made) != LIBDEFLATE_SUCCESS ||
      in_used != stream_size || out_made != size)
    return nullptr;
  return rows;
}

// Unfilters the inflated rows of `channels`-byte pixels (RGB or RGBA) in place and maps every
// pixel onto the palette's lowest index of its colour, into `frame`. False for an unknown
// filter, a translucent pixel or a colour the palette lacks (libpng's path then names it).
template <size_t channels>
bool map_rows(uint8_t* rows, size_t width, size_t height, const Palette& palette,
              Framebuffer& frame) {
  const size_t row_bytes = width * channels;
  const ColourIndex index_of(palette);
  const std::span<uint8_t> pixels = frame.pixels();
  // Neighbouring pixels mostly share their colour (a frame's background, a flat face): the last
  // colour found is tried first, and sixteen pixels at a time against `run`, the last pixel's
  // bytes repeated.
  constexpr size_t kRunPixels = 16;
  constexpr size_t kRunBytes = kRunPixels * channels;
  constexpr uint32_t kNoColour = 0xFFFFFFFF;  // before the first pixel: `run` holds none yet
  uint32_t last_colour = kNoColour;
  uint8_t last_index = 0;
  std::array<uint8_t, kRunBytes> run{};
  for (size_t y = 0; y < height; ++y) {
    // Unfiltered where it lies, behind its filter byte; the row above is already unfiltered.
    uint8_t* row = unfilter_in_place<channels>(rows, y, row_bytes);
    if (row == nullptr) return false;
    uint8_t* out = pixels.data() + y * width;
    for (size_t x = 0; x < width; ++x) {
      const uint8_t* p = row + x * channels;
      while (last_colour != kNoColour && x + kRunPixels <= width &&
             std::memcmp(p, run.data(), kRunBytes) == 0) {
        std::memset(out + x, last_index, kRunPixels);
        x += kRunPixels;
        p += kRunBytes;
      }
      if (x == width) break;
      if (channels == 4 && p[3] != 255) return false;
      const uint32_t colour = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
      if (colour != last_colour) {
        const std::optional<uint8_t> found = index_of.find(p[0], p[1], p[2]);
        if (!found) return false;
        last_colour = colour;
        last_index = *found;
        // An opaque pixel, so the run's alpha bytes (if any) are 255.
        for (size_t k = 0; k < kRunPixels; ++k) std::memcpy(run.data() + k * channels, p, channels);
      }
      out[x] = last_index;
    }
  }
  return true;
}

// Every nonzero byte becomes 1, eight at a time: byte by byte (GCC does not vectorise the loop at
// -O2) it took three quarters of reading a 640x480 mask.
void ones_where_nonzero(std::span<uint8_t> bytes) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    // A byte's top bit, after this, is set when any of its bits was: its low seven bits carry
    // into the top one when they are not all zero, and the top bit itself is or-ed back in.
    w = ((((w & kLow7) + kLow7) | w) >> 7) & kOnes;
    std::memcpy(bytes.data() + i, &w, 8);
  }
  for (; i < bytes.size(); ++i) bytes[i] = bytes[i] != 0 ? 1 : 0;
}

// Unfilters the inflated rows of `channels`-byte pixels (grey and alpha, RGB or RGBA) in place
// and writes 1 into `mask` where a pixel's colour bytes (all but an alpha byte) are not all zero,
// 0 where they are. False for an unknown filter.
template <size_t channels>
bool mask_rows(uint8_t* rows, size_t width, size_t height, Framebuffer& mask) {
  static_assert(channels >= 2);
  constexpr size_t kColourBytes = channels == 2 || channels == 4 ? channels - 1 : channels;
  const size_t row_bytes = width * channels;
  const std::span<uint8_t> pixels = mask.pixels();
  for (size_t y = 0; y < height; ++y) {
    uint8_t* row = unfilter_in_place<channels>(rows, y, row_bytes);
    if (row == nullptr) return false;
    uint8_t* out = pixels.data() + y * width;
    // A pixel's colour bytes tested in one little-endian load of four (the first byte lowest);
    // byte by byte, or-ed together, the test took half of reading an RGB mask. The row's last
    // pixel is read byte by byte: four bytes from an RGB one would pass the buffer.
    constexpr uint32_t kColour = (uint32_t{1} << (8 * kColourBytes)) - 1;
    size_t x = 0;
    for (; x + 1 < width; ++x) out[x] = (load_u32(row + x * channels) & kColour) != 0 ? 1 : 0;
    const uint8_t* p = row + x * channels;
    uint8_t any = p[0];
    for (size_t k = 1; k < kColourBytes; ++k) any |= p[k];
    out[x] = any != 0 ? 1 : 0;
  }
  return true;
}

// `value`'s bytes at `out`, its lowest first.
void store_u64_le(uint8_t* out, uint64_t value) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &value, sizeof value);
  } else {
    for (size_t k = 0; k < sizeof value; ++k) out[k] = static_cast<uint8_t>(value >> (8 * k));
  }
}

// Each byte of `depth`-bit samples (1, 2 or 4; the first sample in the highest bits) as the
// samples it holds, one byte each, the first in the lowest byte of the value.
template <unsigned depth>
constexpr std::array<uint64_t, 256> make_spread_table() {
  constexpr unsigned kPerByte = 8 / depth;
  std::array<uint64_t, 256> table{};
  for (unsigned byte = 0; byte < 256; ++byte)
    for (unsigned k = 0; k < kPerByte; ++k)
      table[byte] |= uint64_t{(byte >> (8 - depth * (k + 1))) & ((1u << depth) - 1)} << (8 * k);
  return table;
}

// Unfilters rows of packed `depth`-bit samples in place (a filter's byte to the left is the
// byte before: a pixel is narrower than a byte) and spreads each to one byte a sample in `out`,
// as libpng's packing transform gives them: through a table, eight samples to a store (a
// store per byte of samples, 86 us for a 640x480 4-bit frame, spent most of it storing; 62 us
// now). False for an unknown filter.
template <unsigned depth>
bool spread_packed_rows(uint8_t* rows, size_t width, size_t height, std::span<uint8_t> out) {
  static constexpr std::array<uint64_t, 256> kSpread = make_spread_table<depth>();
  constexpr size_t kPerByte = 8 / depth;
  constexpr size_t kBytesPerEight = 8 / kPerByte;  // packed bytes that spread to eight samples
  const size_t row_bytes = (width + kPerByte - 1) / kPerByte;
  for (size_t y = 0; y < height; ++y) {
    uint8_t* row = unfilter_in_place<1>(rows, y, row_bytes);
    if (row == nullptr) return false;
    uint8_t* samples = out.data() + y * width;
    size_t x = 0;
    const uint8_t* in = row;
    for (; x + 8 <= width; x += 8, in += kBytesPerEight) {
      // Unrolled by hand: GCC kept both loops, with shifts by a variable count.
      const uint64_t eight = [&]<size_t... j>(std::index_sequence<j...>) {
        return (... | (kSpread[in[j]] << (8 * kPerByte * j)));
      }
      (std::make_index_sequence<kBytesPerEight>{});
      store_u64_le(samples + x, eight);
    }
    // The last samples, fewer than eight: a byte of samples at a time, the last one partly.
    for (; x < width; ++in) {
      const uint64_t spread = kSpread[*in];
      for (size_t k = 0; k < kPerByte && x < width; ++k, ++x)
        samples[x] = static_cast<uint8_t>(spread >> (8 * k));
    }
  }
  return true;
}

// The rows of packed samples in `c` spread to one byte each (spread_packed_rows); false when
// the stream or a filter is bad.
bool read_packed(const Chunks& c, std::span<uint8_t> out) {
  const size_t width = c.width;
  const size_t row_bytes = (width * c.bit_depth + 7) / 8;
  const std::unique_ptr<uint8_t[]> rows = inflate_rows(c, row_bytes + 1);
  if (rows == nullptr) return false;
  switch (c.bit_depth) {
    case 1:
      return spread_packed_rows<1>(rows.get(), width, c.height, out);
    case 2:
      return spread_packed_rows<2>(rows.get(), width, c.height, out);
    default:
      return spread_packed_rows<4>(rows.get(), width, c.height, out);
  }
}

// The rows of one-byte or packed samples (an indexed or grey image) in `c`, one byte a sample
// into `out` (width * height bytes); false when the stream or a filter is bad.
bool read_samples(const Chunks& c, std::span<uint8_t> out) {
  if (c.bit_depth != 8) return read_packed(c, out);
  const size_t width = c.width;
  const size_t stride = width + 1;  // the filter byte, then one byte per pixel
  const std::unique_ptr<uint8_t[]> filtered = inflate_rows(c, stride);
  if (filtered == nullptr) return false;
  for (size_t y = 0; y < c.height; ++y) {
    const uint8_t* in = filtered.get() + y * stride;
    uint8_t* row = out.data() + y * width;
    if (!unfilter_row<1>(in[0], in + 1, y == 0 ? nullptr : row - width, row, width)) return false;
  }
  return true;
}

// The highest of `bytes`, sixteen at a time in a vector of running maxima (GCC's and Clang's
// vector extension: one PMAXUB with SSE2). One running maximum carried from byte to byte was a
// chain of dependent selects, 0.18 ms of a 640x480 frame, seven times the rest of reading it,
// and a capture whose palette is shorter than 256 entries (capture tools and PNG optimisers
// write them so) has every index checked against its length. GCC left an array of sixteen
// maxima as scalar code.
uint8_t highest_byte(std::span<const uint8_t> bytes) {
  using Bytes16 = uint8_t __attribute__((vector_size(16)));
  Bytes16 lanes{};
  size_t i = 0;
  for (; i + sizeof(Bytes16) <= bytes.size(); i += sizeof(Bytes16)) {
    Bytes16 next;
    std::memcpy(&next, bytes.data() + i, sizeof next);
    lanes = lanes > next ? lanes : next;
  }
  uint8_t highest = 0;
  for (size_t k = 0; k < sizeof(Bytes16); ++k) highest = std::max(highest, uint8_t{lanes[k]});
  for (; i < bytes.size(); ++i) highest = std::max(highest, bytes[i]);
  return highest;
}

// The image of an indexed PNG's chunks, or nullopt (decode_indexed8_png).
std::optional<IndexedImage> indexed_image(const std::optional<Chunks>& c) {
  if (!c || c->colour_type != kIndexed) return std::nullopt;
  const size_t width = c->width;
  const size_t height = c->height;
  // Every row is unfiltered into the frame below, or the image is dropped.
  IndexedImage image{Framebuffer::for_overwrite(static_cast<int>(width), static_cast<int>(height)),
                     Palette{}, static_cast<int>(c->plte_entries)};
  const std::span<uint8_t> pixels = image.frame.pixels();
  if (!read_samples(*c, pixels)) return std::nullopt;
  if (c->plte_entries < 256 && highest_byte(pixels) >= c->plte_entries)
    return std::nullopt;  // libpng's to judge
  for (size_t i = 0; i < c->plte_entries; ++i)
    image.palette.colors[i] = {c->plte[3 * i], c->plte[3 * i + 1], c->plte[3 * i + 2]};
  return image;
}

// The image of an RGB or RGBA PNG's chunks mapped onto `palette`, or nullopt (decode_rgb8_png).
std::optional<IndexedImage> rgb_image(const std::optional<Chunks>& c, const Palette& palette) {
  // A suggested palette or a transparent colour is libpng's to handle.
  if (!c || (c->colour_type != kRgb && c->colour_type != kRgba) || c->plte != nullptr ||
      c->has_trns)
    return std::nullopt;
  const size_t width = c->width;
  const size_t height = c->height;
  const size_t channels = channels_of(c->colour_type);
  const std::unique_ptr<uint8_t[]> rows = inflate_rows(*c, width * channels + 1);
  if (rows == nullptr) return std::nullopt;

  IndexedImage image{Framebuffer::for_overwrite(static_cast<int>(width), static_cast<int>(height)),
                     palette, 256};
  image.mapped_from_rgb = true;
  const bool mapped = channels == 4 ? map_rows<4>(rows.get(), width, height, palette, image.frame)
                                    : map_rows<3>(rows.get(), width, height, palette, image.frame);
  if (!mapped) return std::nullopt;
  return image;
}

}  // namespace

std::optional<IndexedImage> decode_indexed8_png(std::span<const uint8_t> bytes) {
  return indexed_image(read_chunks(bytes));
}

std::optional<IndexedImage> decode_rgb8_png(std::span<const uint8_t> bytes,
                                            const Palette& palette) {
  return rgb_image(read_chunks(bytes), palette);
}

std::optional<IndexedImage> decode_png8(std::span<const uint8_t> bytes,
                                        const Palette* rgb_palette) {
  const std::optional<Chunks> c = read_chunks(bytes);
  if (c && c->colour_type == kIndexed) return indexed_image(c);
  if (rgb_palette != nullptr) return rgb_image(c, *rgb_palette);
  return std::nullopt;
}

std::optional<Framebuffer> decode_mask8_png(std::span<const uint8_t> bytes) {
  const std::optional<Chunks> c = read_chunks(bytes);
  if (!c) return std::nullopt;
  if (c->colour_type == kIndexed) {
    std::optional<IndexedImage> image = indexed_image(c);
    if (!image) return std::nullopt;
    ones_where_nonzero(image->frame.pixels());
    return std::move(image->frame);
  }
  // A suggested palette (forbidden in a grey image) or a transparent colour is libpng's to judge.
  if (c->plte != nullptr || c->has_trns) return std::nullopt;
  const size_t width = c->width;
  const size_t height = c->height;
  Framebuffer mask = Framebuffer::for_overwrite(static_cast<int>(width), static_cast<int>(height));
  if (c->colour_type == kGrey) {
    // libpng scales a packed sample to 8 bits, which keeps zero zero and nothing else.
    if (!read_samples(*c, mask.pixels())) return std::nullopt;
    ones_where_nonzero(mask.pixels());
    return mask;
  }
  const size_t channels = channels_of(c->colour_type);
  const std::unique_ptr<uint8_t[]> rows = inflate_rows(*c, width * channels + 1);
  if (rows == nullptr) return std::nullopt;
  bool read = false;
  switch (channels) {
    case 2:
      read = mask_rows<2>(rows.get(), width, height, mask);
      break;
    case 3:
      read = mask_rows<3>(rows.get(), width, height, mask);
      break;
    default:
      read = mask_rows<4>(rows.get(), width, height, mask);
      break;
  }
  if (!read) return std::nullopt;
  return mask;
}

}  // namespace shapevm::raster
