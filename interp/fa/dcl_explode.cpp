// PKWare DCL "explode" (see dcl_explode.h for the stream layout).
//
// Both Huffman codes DCL uses are fixed and complete, and no code is longer than 8 bits, so the
// next 8 stream bits always identify exactly one symbol. The decoder therefore looks symbols up
// in a 256-entry table indexed by those bits instead of walking the code bit by bit. The tables
// are built at compile time from the run-length-coded bit lengths in the format description.
#include "interp/fa/dcl_explode.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "core/decoded_output.h"
#include "core/input_error.h"

namespace shapevm::fa {
namespace {

constexpr int kTableBits = 8;  // the longest code of either table
constexpr int kEndOfStreamLength = 519;
constexpr uint8_t kRawLiterals = 0;
constexpr uint8_t kCodedLiterals = 1;
constexpr size_t kHeaderSize = 2;

// Bit lengths of the length and distance codes, run-length coded: each byte is
// (repeat count - 1) << 4 | bit length, describing consecutive symbols starting at 0.
constexpr std::array<uint8_t, 6> kLengthCodeLengths = {0x02, 0x23, 0x24, 0x35, 0x26, 0x17};
constexpr std::array<uint8_t, 7> kDistanceCodeLengths = {0x02, 0x14, 0x35, 0xE6, 0xF7, 0x97, 0xF8};

// A length symbol stands for base + (extra bits read after it). Symbol 1 is the shortest
// length (2); the table is not sorted because symbol 0, the most common length, gets the
// shortest code.
constexpr std::array<uint16_t, 16> kLengthBase = {3,  2,  4,  5,  6,  7,  8,   9,
                                                  10, 12, 16, 24, 40, 72, 136, 264};
constexpr std::array<uint8_t, 16> kLengthExtraBits = {0, 0, 0, 0, 0, 0, 0, 0,
                                                      1, 2, 3, 4, 5, 6, 7, 8};

struct TableEntry {
  uint8_t symbol = 0;
  uint8_t code_bits = 0;  // 0 marks an index no code matches (impossible for complete codes)
};
using DecodeTable = std::array<TableEntry, 1 << kTableBits>;

// Builds the lookup table for a canonical code. Canonical codes are assigned shortest length
// first, by symbol order within a length, counting up from 0, and are sent most significant bit
// first with every bit complemented. The table index is the next kTableBits stream bits read
// LSB-first (first bit read = bit 0), so a code occupies the index's low bits and every value of
// the remaining high bits maps to the same symbol.
template <size_t N>
constexpr DecodeTable build_decode_table(const std::array<uint8_t, N>& run_lengths) {
  std::array<uint8_t, 64> lengths{};
  size_t symbol_count = 0;
  for (uint8_t run : run_lengths) {
    for (int repeat = 0; repeat <= (run >> 4); ++repeat) lengths[symbol_count++] = run & 0x0F;
  }
  DecodeTable table{};
  uint32_t code = 0;
  for (int bits = 1; bits <= kTableBits; ++bits) {
    for (size_t symbol = 0; symbol < symbol_count; ++symbol) {
      if (lengths[symbol] != bits) continue;
      uint32_t stream_bits = 0;
      for (int i = 0; i < bits; ++i) {
        uint32_t code_bit = (code >> (bits - 1 - i)) & 1;
        stream_bits |= (code_bit ^ 1) << i;
      }
      for (uint32_t high = 0; high < (1u << (kTableBits - bits)); ++high) {
        table[stream_bits | (high << bits)] = {static_cast<uint8_t>(symbol),
                                               static_cast<uint8_t>(bits)};
      }
      ++code;
    }
    code <<= 1;
  }
  return table;
}

constexpr bool every_index_decodes(const DecodeTable& table) {
  for (const TableEntry& entry : table) {
    if (entry.code_bits == 0) return false;
  }
  return true;
}

constexpr DecodeTable kLengthTable = build_decode_table(kLengthCodeLengths);
constexpr DecodeTable kDistanceTable = build_decode_table(kDistanceCodeLengths);
// The decoder never checks for an unmatched table index; these prove none exists.
static_assert(every_index_decodes(kLengthTable), "length code must be complete");
static_assert(every_index_decodes(kDistanceTable), "distance code must be complete");

// LSB-first bit input over a byte span. Keeps up to 64 bits buffered so that most reads are a
// shift and a mask.
class BitInput {
 public:
  BitInput(std::span<const uint8_t> bytes, size_t first_byte)
      : bytes_(bytes), next_byte_(first_byte) {}

  // Buffers at least `count` bits (count <= 32) if the input still has them; returns whether the
  // buffer now holds `count` bits.
  bool fill(int count) {
    if (bit_count_ >= count) return true;
    if (bytes_.size() - next_byte_ >= 8) {
      // Eight bytes loaded at once; the whole bytes that fit are taken. The bits loaded above
      // them are those bytes' own, in place, so the next load ORs the same values over them.
      uint64_t word = 0;
      std::memcpy(&word, bytes_.data() + next_byte_, 8);  // x86-64: little-endian, as the stream
      buffer_ |= word << bit_count_;
      next_byte_ += static_cast<size_t>(63 - bit_count_) >> 3;
      bit_count_ |= 56;
      return true;  // count <= 32 <= 56
    }
    while (bit_count_ <= 56 && next_byte_ < bytes_.size()) {
      buffer_ |= static_cast<uint64_t>(bytes_[next_byte_++]) << bit_count_;
      bit_count_ += 8;
    }
    return bit_count_ >= count;
  }
  // The next `count` buffered bits as a little-endian integer; bits past the end read as 0.
  uint32_t peek(int count) const {
    return static_cast<uint32_t>(buffer_ & ((uint64_t{1} << count) - 1));
  }
  void skip(int count) {
    buffer_ >>= count;
    bit_count_ -= count;
  }
  int buffered() const { return bit_count_; }
  // Offset of the byte holding the next unread bit, for error messages.
  size_t byte_offset() const { return next_byte_ - (static_cast<size_t>(bit_count_) + 7) / 8; }

 private:
  std::span<const uint8_t> bytes_;
  size_t next_byte_;
  uint64_t buffer_ = 0;
  int bit_count_ = 0;
};

class Exploder {
 public:
  Exploder(std::span<const uint8_t> stream, const std::string& source, size_t max_output)
      : stream_(stream), source_(source), max_output_(max_output), bits_(stream, kHeaderSize) {}

  std::vector<uint8_t> run() {
    int dictionary_bits = read_header();
    // Literal-only streams expand by 8/9 and matches far more (a 518-byte match can take 22
    // bits): the reservation is only a start when max_output is not the real size.
    core::DecodedOutput out(std::min(max_output_, stream_.size() * 2 + 64));
    while (true) {
      // An item takes at most kMostItemBits; with that many buffered none of its reads can run
      // out, and they go unchecked.
      const bool ended = bits_.fill(kMostItemBits) ? item<false>(out, dictionary_bits)
                                                   : item<true>(out, dictionary_bits);
      if (ended) return out.take();
    }
  }

 private:
  // A flag bit, a length code (8 bits at most) and its extra bits (8), a distance code (8) and
  // its low bits (6).
  static constexpr int kMostItemBits = 1 + 8 + 8 + 8 + 6;

  // One literal or match; true at the end-of-stream code. kChecked: each read checks the input
  // still has its bits (near the end of the stream).
  template <bool kChecked>
  bool item(core::DecodedOutput& out, int dictionary_bits) {
    const size_t item_offset = bits_.byte_offset();
    if (read_bits<kChecked>(1) == 0) {
      const auto literal = static_cast<uint8_t>(read_bits<kChecked>(8));
      if (out.size() >= max_output_) fail_too_long(item_offset);
      out.push(literal);
      return false;
    }
    const int length_symbol = read_symbol<kChecked>(kLengthTable);
    const int length = kLengthBase[length_symbol] +
                       static_cast<int>(read_bits<kChecked>(kLengthExtraBits[length_symbol]));
    if (length == kEndOfStreamLength) return true;
    // Two-byte matches only reach back 256 bytes: they carry 2 low distance bits instead of
    // dictionary_bits, since a longer distance would cost more than two literals.
    const int low_bits = length == 2 ? 2 : dictionary_bits;
    const uint32_t distance_symbol = read_symbol<kChecked>(kDistanceTable);
    const size_t distance =
        (static_cast<size_t>(distance_symbol) << low_bits) + read_bits<kChecked>(low_bits) + 1;
    if (distance > out.size()) {
      throw InputError(source_, item_offset,
                       fmt::format("expected a match distance within the {} bytes decoded so "
                                   "far, but the match reaches {} bytes back",
                                   out.size(), distance));
    }
    if (static_cast<size_t>(length) > max_output_ - out.size()) fail_too_long(item_offset);
    // A match may overlap the bytes it is producing (distance < length), which is how DCL
    // encodes runs: repeat() copies as byte by byte would.
    out.repeat(distance, static_cast<size_t>(length));
    return false;
  }

  // Returns the dictionary size in bits.
  int read_header() {
    if (stream_.size() < kHeaderSize) {
      throw InputError(source_, 0,
                       fmt::format("truncated DCL stream: expected a 2-byte header (literal mode, "
                                   "dictionary bits), but the stream is {} bytes long",
                                   stream_.size()));
    }
    uint8_t literal_mode = stream_[0];
    if (literal_mode == kCodedLiterals) {
      throw InputError(source_, 0,
                       "unsupported literal mode 1 (Huffman-coded literals); only mode 0 (raw "
                       "literals), the one Fighters Anthology uses, is decoded");
    }
    if (literal_mode != kRawLiterals) {
      throw InputError(source_, 0,
                       fmt::format("expected a DCL literal mode of 0 (raw) or 1 (coded), found {}",
                                   literal_mode));
    }
    uint8_t dictionary_bits = stream_[1];
    if (dictionary_bits < 4 || dictionary_bits > 6) {
      throw InputError(source_, 1,
                       fmt::format("expected DCL dictionary bits 4, 5 or 6 (a 1, 2 or 4 KiB "
                                   "window), found {}",
                                   dictionary_bits));
    }
    return dictionary_bits;
  }

  template <bool kChecked>
  uint32_t read_bits(int count) {
    if (count == 0) return 0;
    if (kChecked && !bits_.fill(count)) fail_truncated();
    uint32_t value = bits_.peek(count);
    bits_.skip(count);
    return value;
  }

  template <bool kChecked>
  int read_symbol(const DecodeTable& table) {
    // Near the end of the input fewer than 8 bits may remain; the zero padding peek() supplies
    // can only select a code longer than the real bits, which is then reported as truncation.
    if (kChecked) bits_.fill(kTableBits);
    const TableEntry& entry = table[bits_.peek(kTableBits)];
    if (kChecked && entry.code_bits > bits_.buffered()) fail_truncated();
    bits_.skip(entry.code_bits);
    return entry.symbol;
  }

  [[noreturn]] void fail_truncated() const {
    throw InputError(source_, stream_.size(),
                     "truncated DCL stream: the input ended before the end-of-stream code");
  }

  [[noreturn]] void fail_too_long(size_t offset) const {
    throw InputError(source_, offset,
                     fmt::format("expected the DCL stream to end within {} bytes of output, but "
                                 "it produces more",
                                 max_output_));
  }

  std::span<const uint8_t> stream_;
  const std::string& source_;
  size_t max_output_;
  BitInput bits_;
};

}  // namespace

std::vector<uint8_t> dcl_explode(std::span<const uint8_t> stream, const std::string& source,
                                 size_t max_output) {
  return Exploder(stream, source, max_output).run();
}

}  // namespace shapevm::fa
