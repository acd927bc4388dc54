#include "raster/frame_deflate.h"

#include <emmintrin.h>
#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "raster/huffman_code.h"

namespace shapevm::raster {
namespace {

constexpr uint32_t kMinMatch = 3;
constexpr uint32_t kMaxMatch = 258;
constexpr size_t kWindow = 32768;  // the farthest a match may reach back
constexpr uint16_t kEndOfBlock = 256;
constexpr size_t kLitLenSymbols = 286;
constexpr size_t kDistSymbols = 30;
constexpr size_t kCodeLengthSymbols = 19;
// Tokens per block: each block's codes follow its own counts, and the token buffer stays small
// however large the image.
constexpr size_t kBlockTokens = size_t{1} << 16;
// How many pixels either side of the same place the row above is tried.
constexpr size_t kRowShift = 3;
// The hash table of four-byte sequences: 16 Ki entries (64 KiB).
constexpr unsigned kHashBits = 14;

// RFC 1951 3.2.5: the length codes 257..285 and the distance codes 0..29, by base and extra bits.
constexpr std::array<uint16_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                  15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                  67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<uint16_t, 30> kDistBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<uint8_t, 30> kDistExtra = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                                4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                                9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which the code-length code's lengths are sent (RFC 1951 3.2.7).
constexpr std::array<uint8_t, kCodeLengthSymbols> kCodeLengthOrder = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// The length code (0..28, add 257 for the symbol) of every match length 0..258.
constexpr std::array<uint8_t, kMaxMatch + 1> make_length_codes() {
  std::array<uint8_t, kMaxMatch + 1> codes{};
  for (uint32_t len = kMinMatch; len <= kMaxMatch; ++len) {
    size_t code = 0;
    while (code + 1 < kLengthBase.size() && kLengthBase[code + 1] <= len) ++code;
    codes[len] = static_cast<uint8_t>(code);
  }
  return codes;
}
constexpr std::array<uint8_t, kMaxMatch + 1> kLengthCode = make_length_codes();

// The distance code (0..29) of a distance 1..32768: two codes for each power of two past 4.
uint8_t distance_code(uint32_t distance) {
  const uint32_t x = distance - 1;
  if (x < 4) return static_cast<uint8_t>(x);
  const unsigned n = 31u - static_cast<unsigned>(__builtin_clz(x));
  return static_cast<uint8_t>(2 * n + ((x >> (n - 1)) & 1));
}

// How many of the `limit` bytes from `a` equal those from `b`, sixteen at a time. `b` lies before
// `a` and the two may overlap: that is a match's own rule (each byte copies the one `distance`
// back, which may be one the match itself produced). Most calls are at a literal, where the
// first bytes already differ: those are told apart by one four-byte comparison, in line.
[[gnu::always_inline]] inline size_t equal_bytes(const uint8_t* a, const uint8_t* b, size_t limit) {
  if (limit >= 4) {
    uint32_t x;
    uint32_t y;
    std::memcpy(&x, a, 4);
    std::memcpy(&y, b, 4);
    // Fewer than kMinMatch equal bytes is no match: how many exactly does not matter.
    if (((x ^ y) & 0xFFFFFF) != 0) return 0;
  }
  size_t n = 0;
  while (n + 16 <= limit) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + n));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + n));
    const unsigned differ =
        ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) & 0xFFFF;
    if (differ != 0) return n + static_cast<size_t>(__builtin_ctz(differ));
    n += 16;
  }
  while (n < limit && a[n] == b[n]) ++n;
  return n;
}

// A literal (distance 0, value the byte) or a match (value its length, distance 1..32768).
struct Token {
  uint16_t value;
  uint16_t distance;
};

class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>& out) : out_(out) {}

  // Up to 32 bits, least significant first (RFC 1951 3.1.1).
  void put(uint32_t value, unsigned count) {
    bits_ |= uint64_t{value} << count_;
    count_ += count;
    if (count_ >= 32) {
      const size_t at = out_.size();
      out_.resize(at + 4);
      const uint32_t low = static_cast<uint32_t>(bits_);
      for (int k = 0; k < 4; ++k) out_[at + k] = static_cast<uint8_t>(low >> (8 * k));
      bits_ >>= 32;
      count_ -= 32;
    }
  }
  // Pads the last byte with zero bits.
  void flush() {
    while (count_ > 0) {
      out_.push_back(static_cast<uint8_t>(bits_));
      bits_ >>= 8;
      count_ = count_ > 8 ? count_ - 8 : 0;
    }
  }

 private:
  std::vector<uint8_t>& out_;
  uint64_t bits_ = 0;
  unsigned count_ = 0;
};

// One code length sent with the code-length code: the symbol (0..18) and its repeat count's
// extra bits.
struct LengthToken {
  uint8_t symbol;
  uint8_t extra;
};

// The code lengths of both codes, run-length coded with symbols 16 (repeat the last length 3-6
// times), 17 (3-10 zeros) and 18 (11-138 zeros).
std::vector<LengthToken> run_length_code(const std::vector<uint8_t>& lengths) {
  std::vector<LengthToken> out;
  for (size_t i = 0; i < lengths.size();) {
    const uint8_t len = lengths[i];
    size_t run = 1;
    while (i + run < lengths.size() && lengths[i + run] == len) ++run;
    i += run;
    if (len == 0) {
      while (run >= 11) {
        const size_t n = std::min<size_t>(run, 138);
        out.push_back({18, static_cast<uint8_t>(n - 11)});
        run -= n;
      }
      if (run >= 3) {
        out.push_back({17, static_cast<uint8_t>(run - 3)});
        run = 0;
      }
    } else {
      out.push_back({len, 0});
      --run;
      while (run >= 3) {
        const size_t n = std::min<size_t>(run, 6);
        out.push_back({16, static_cast<uint8_t>(n - 3)});
        run -= n;
      }
    }
    for (; run > 0; --run) out.push_back({len, 0});
  }
  return out;
}

// Sends one block (type 2, dynamic codes) of `tokens`, with the counts gathered as they were
// made.
void write_block(BitWriter& bits, const std::vector<Token>& tokens,
                 std::array<uint32_t, kLitLenSymbols> litlen_freq,
                 std::array<uint32_t, kDistSymbols> dist_freq, bool final) {
  litlen_freq[kEndOfBlock] = 1;
  huffman::use_two(litlen_freq);
  huffman::use_two(dist_freq);
  const auto litlen_lengths = huffman::code_lengths(litlen_freq, 15);
  const auto dist_lengths = huffman::code_lengths(dist_freq, 15);
  const auto litlen_codes = huffman::canonical_codes(litlen_lengths);
  const auto dist_codes = huffman::canonical_codes(dist_lengths);

  size_t hlit = kLitLenSymbols;
  while (hlit > 257 && litlen_lengths[hlit - 1] == 0) --hlit;
  size_t hdist = kDistSymbols;
  while (hdist > 1 && dist_lengths[hdist - 1] == 0) --hdist;
  std::vector<uint8_t> lengths(litlen_lengths.begin(),
                               litlen_lengths.begin() + static_cast<std::ptrdiff_t>(hlit));
  lengths.insert(lengths.end(), dist_lengths.begin(),
                 dist_lengths.begin() + static_cast<std::ptrdiff_t>(hdist));
  const std::vector<LengthToken> length_tokens = run_length_code(lengths);
  std::array<uint32_t, kCodeLengthSymbols> cl_freq{};
  for (const LengthToken& t : length_tokens) ++cl_freq[t.symbol];
  huffman::use_two(cl_freq);
  const auto cl_lengths = huffman::code_lengths(cl_freq, 7);
  const auto cl_codes = huffman::canonical_codes(cl_lengths);
  size_t hclen = kCodeLengthSymbols;
  while (hclen > 4 && cl_lengths[kCodeLengthOrder[hclen - 1]] == 0) --hclen;

  bits.put(final ? 1 : 0, 1);
  bits.put(2, 2);  // dynamic Huffman codes
  bits.put(static_cast<uint32_t>(hlit - 257), 5);
  bits.put(static_cast<uint32_t>(hdist - 1), 5);
  bits.put(static_cast<uint32_t>(hclen - 4), 4);
  for (size_t k = 0; k < hclen; ++k) bits.put(cl_lengths[kCodeLengthOrder[k]], 3);
  for (const LengthToken& t : length_tokens) {
    bits.put(cl_codes[t.symbol], cl_lengths[t.symbol]);
    if (t.symbol == 16) bits.put(t.extra, 2);
    if (t.symbol == 17) bits.put(t.extra, 3);
    if (t.symbol == 18) bits.put(t.extra, 7);
  }

  for (const Token& t : tokens) {
    if (t.distance == 0) {
      bits.put(litlen_codes[t.value], litlen_lengths[t.value]);
      continue;
    }
    const uint8_t lc = kLengthCode[t.value];
    bits.put(litlen_codes[257 + lc], litlen_lengths[257 + lc]);
    bits.put(t.value - kLengthBase[lc], kLengthExtra[lc]);
    const uint8_t dc = distance_code(t.distance);
    bits.put(dist_codes[dc], dist_lengths[dc]);
    bits.put(t.distance - kDistBase[dc], kDistExtra[dc]);
  }
  bits.put(litlen_codes[kEndOfBlock], litlen_lengths[kEndOfBlock]);
}

}  // namespace

void deflate_frame_rows(std::span<const uint8_t> rows, size_t stride, size_t pixel_bytes,
                        std::vector<uint8_t>& out) {
  if (stride == 0 || rows.size() % stride != 0 || pixel_bytes == 0 || pixel_bytes > stride ||
      pixel_bytes > kWindow)
    throw std::invalid_argument("deflate_frame_rows: rows must be whole rows of whole pixels");
  if (rows.size() >= UINT32_MAX)
    throw std::length_error("deflate_frame_rows: the rows are beyond the encoder's 32-bit count");
  // CMF: deflate with a 32 KiB window; FLG: the fastest level's mark, and a check that makes
  // CMF * 256 + FLG a multiple of 31.
  out.push_back(0x78);
  out.push_back(0x01);
  BitWriter bits(out);

  const uint8_t* data = rows.data();
  const size_t size = rows.size();
  // Where a match may come from: one pixel back (a run of one index, or of one colour); the row
  // above, at the same place and up to kRowShift pixels either side (a face's edge moves a pixel
  // or two from one row to the next, and a Gouraud ramp with it); and the last place the next
  // four bytes were seen (a pattern's or a texture's repeat), through a table of their hashes.
  // The fixed places in the order they are tried (on equal lengths the first wins): each within
  // the window, each once.
  std::array<size_t, 2 + 2 * kRowShift> places{};
  size_t place_count = 0;
  auto add_place = [&](size_t back) {
    if (back == 0 || back > kWindow) return;
    if (std::find(places.begin(), places.begin() + place_count, back) ==
        places.begin() + place_count)
      places[place_count++] = back;
  };
  add_place(pixel_bytes);
  add_place(stride);
  for (size_t k = 1; k <= kRowShift && k * pixel_bytes < stride; ++k) {
    add_place(stride - k * pixel_bytes);
    add_place(stride + k * pixel_bytes);
  }
  // The table holds positions counted across the thread's images: an entry at or below `base`
  // is from an image before this one and counts as empty, so the bytes depend on this image
  // alone without clearing 64 KiB for each. Emptied when the count would pass 32 bits.
  // Allocated at the thread's first image: as a thread_local array, its 64 KiB were every
  // thread's static TLS, zeroed at the start of every process (17 more page faults for
  // `shapevm --version`, which never writes a PNG).
  using HashTable = std::array<uint32_t, size_t{1} << kHashBits>;
  thread_local std::unique_ptr<HashTable> table;
  thread_local uint64_t next_base = 0;
  if (table == nullptr || next_base + size + 1 > UINT32_MAX) {
    table = std::make_unique<HashTable>();  // value-initialised: every entry empty
    next_base = 0;
  }
  HashTable& last_seen = *table;
  const uint32_t base = static_cast<uint32_t>(next_base);
  next_base += size + 1;

  // One block's tokens (256 KiB at most), kept for the thread's next frame: allocated afresh,
  // the buffer was mapped and faulted in for every frame, which took longer than the encoding.
  thread_local std::vector<Token> tokens;
  tokens.reserve(kBlockTokens);
  size_t pos = 0;
  do {
    tokens.clear();
    std::array<uint32_t, kLitLenSymbols> litlen_freq{};
    std::array<uint32_t, kDistSymbols> dist_freq{};
    while (pos < size && tokens.size() < kBlockTokens) {
      const size_t limit = std::min<size_t>(kMaxMatch, size - pos);
      size_t len = 0;
      size_t distance = 0;
      // `back` is at least 1 and within the window (the places were chosen so; the table's
      // candidate is checked below): only whether it reaches before the image is left to ask.
      auto consider = [&](size_t back) {
        if (back > pos || len == limit) return;
        const size_t n = equal_bytes(data + pos, data + pos - back, limit);
        if (n > len) {
          len = n;
          distance = back;
        }
      };
      for (size_t k = 0; k < place_count; ++k) consider(places[k]);
      if (limit >= 4) {
        uint32_t next4;
        std::memcpy(&next4, data + pos, 4);
        uint32_t& seen = last_seen[(next4 * 2654435761u) >> (32 - kHashBits)];
        if (seen > base) {
          const size_t back = pos - (seen - base - 1);
          if (back <= kWindow) consider(back);
        }
        seen = static_cast<uint32_t>(base + pos + 1);
      }
      if (len < kMinMatch) {
        tokens.push_back({data[pos], 0});
        ++litlen_freq[data[pos]];
        ++pos;
        continue;
      }
      tokens.push_back({static_cast<uint16_t>(len), static_cast<uint16_t>(distance)});
      ++litlen_freq[257 + kLengthCode[len]];
      ++dist_freq[distance_code(static_cast<uint32_t>(distance))];
      pos += len;
    }
    write_block(bits, tokens, litlen_freq, dist_freq, pos >= size);
  } while (pos < size);
  bits.flush();

  const uint32_t adler = libdeflate_adler32(1, data, size);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(adler >> shift));
}

}  // namespace shapevm::raster
