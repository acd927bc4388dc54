// See lib_builder.h. The DCL encoder derives its Huffman codes from the format description on
// its own (canonical codes, sent MSB-first with every bit complemented) rather than sharing the
// decoder's tables, so a round trip checks two independent readings of the format.
#include "tests/fa/lib_builder.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/byte_writer.h"

namespace shapevm::test {
namespace {

struct Code {
  uint32_t value = 0;  // canonical code, most significant bit sent first
  int bits = 0;
};

// Expands run-length-coded bit lengths ((count - 1) << 4 | length per byte) and assigns
// canonical codes: shortest length first, symbol order within a length, counting from 0.
std::vector<Code> canonical_codes(std::initializer_list<uint8_t> run_lengths) {
  std::vector<int> lengths;
  for (uint8_t run : run_lengths) lengths.insert(lengths.end(), (run >> 4) + 1, run & 0x0F);
  std::vector<Code> codes(lengths.size());
  uint32_t next = 0;
  for (int bits = 1; bits <= 16; ++bits) {
    for (size_t symbol = 0; symbol < lengths.size(); ++symbol) {
      if (lengths[symbol] == bits) codes[symbol] = {next++, bits};
    }
    next <<= 1;
  }
  return codes;
}

const std::vector<Code>& length_codes() {
  static const std::vector<Code> codes = canonical_codes({0x02, 0x23, 0x24, 0x35, 0x26, 0x17});
  return codes;
}

const std::vector<Code>& distance_codes() {
  static const std::vector<Code> codes =
      canonical_codes({0x02, 0x14, 0x35, 0xE6, 0xF7, 0x97, 0xF8});
  return codes;
}

constexpr std::array<int, 16> kLengthBase = {3,  2,  4,  5,  6,  7,  8,   9,
                                             10, 12, 16, 24, 40, 72, 136, 264};
constexpr std::array<int, 16> kLengthExtraBits = {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
constexpr int kMinMatch = 2;
constexpr int kMaxMatch = 518;  // 519 is the end-of-stream code

void put_code(BitWriter& out, const Code& code) {
  for (int i = code.bits - 1; i >= 0; --i)
    out.bits({static_cast<int>(((code.value >> i) & 1) ^ 1)});
}

void put_match(BitWriter& out, int length, size_t distance, int dictionary_bits) {
  int symbol = 0;
  while (!(length >= kLengthBase[symbol] &&
           length < kLengthBase[symbol] + (1 << kLengthExtraBits[symbol]))) {
    ++symbol;
  }
  out.bits({1});
  put_code(out, length_codes()[symbol]);
  out.field(static_cast<uint32_t>(length - kLengthBase[symbol]), kLengthExtraBits[symbol]);
  const int low_bits = length == 2 ? 2 : dictionary_bits;
  const size_t biased = distance - 1;
  put_code(out, distance_codes()[biased >> low_bits]);
  out.field(static_cast<uint32_t>(biased & ((size_t{1} << low_bits) - 1)), low_bits);
}

size_t common_prefix(std::span<const uint8_t> data, size_t earlier, size_t here, size_t limit) {
  size_t n = 0;
  while (n < limit && data[earlier + n] == data[here + n]) ++n;
  return n;
}

}  // namespace

std::vector<uint8_t> to_bytes(std::string_view text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

BitWriter::BitWriter(uint8_t literal_mode, uint8_t dictionary_bits)
    : bytes_{literal_mode, dictionary_bits} {}

void BitWriter::bits(std::initializer_list<int> sequence) {
  for (int bit : sequence) {
    if (used_bits_in_last_ == 8) {
      bytes_.push_back(0);
      used_bits_in_last_ = 0;
    }
    if (bit) bytes_.back() = static_cast<uint8_t>(bytes_.back() | (1 << used_bits_in_last_));
    ++used_bits_in_last_;
  }
}

void BitWriter::field(uint32_t value, int count) {
  for (int i = 0; i < count; ++i) bits({static_cast<int>((value >> i) & 1)});
}

void BitWriter::literal(uint8_t byte) {
  bits({0});
  field(byte, 8);
}

void BitWriter::end_of_stream() {
  bits({1, 0, 0, 0, 0, 0, 0, 0});
  field(255, 8);
}

std::vector<uint8_t> BitWriter::bytes() const {
  return bytes_;
}

std::vector<uint8_t> dcl_implode(std::span<const uint8_t> data, int dictionary_bits,
                                 DclMatches matches) {
  if (dictionary_bits < 4 || dictionary_bits > 6) throw std::invalid_argument("dictionary bits");
  BitWriter out(0, static_cast<uint8_t>(dictionary_bits));
  const size_t window = size_t{64} << dictionary_bits;  // 64 distance symbols x low bits
  const size_t short_window = 64 << 2;                  // 2-byte matches carry only 2 low bits

  // Hash chains over 3-byte prefixes: head[h] is the latest position with hash h, previous[p]
  // the one before p with the same hash.
  constexpr size_t kHashSize = 1 << 14;
  std::vector<int64_t> head(kHashSize, -1);
  std::vector<int64_t> previous(data.size(), -1);
  auto hash_at = [&](size_t pos) {
    return ((data[pos] << 8) ^ (data[pos + 1] << 4) ^ data[pos + 2] ^ (data[pos] >> 3)) % kHashSize;
  };
  auto insert = [&](size_t pos) {
    if (pos + 2 >= data.size()) return;
    size_t h = hash_at(pos);
    previous[pos] = head[h];
    head[h] = static_cast<int64_t>(pos);
  };

  size_t pos = 0;
  while (pos < data.size()) {
    size_t best_length = 0;
    size_t best_distance = 0;
    const size_t limit = std::min<size_t>(kMaxMatch, data.size() - pos);
    if (matches == DclMatches::kGreedy && limit >= 3) {
      int chain = 0;
      for (int64_t candidate = head[hash_at(pos)];
           candidate >= 0 && pos - static_cast<size_t>(candidate) <= window && chain < 64;
           candidate = previous[static_cast<size_t>(candidate)], ++chain) {
        size_t length = common_prefix(data, static_cast<size_t>(candidate), pos, limit);
        if (length > best_length) {
          best_length = length;
          best_distance = pos - static_cast<size_t>(candidate);
        }
      }
    }
    if (best_length < 3 && matches == DclMatches::kGreedy && limit >= kMinMatch) {
      best_length = 0;
      for (size_t distance = 1; distance <= std::min(pos, short_window); ++distance) {
        if (common_prefix(data, pos - distance, pos, kMinMatch) == kMinMatch) {
          best_length = kMinMatch;
          best_distance = distance;
          break;
        }
      }
    }
    if (best_length >= kMinMatch) {
      put_match(out, static_cast<int>(best_length), best_distance, dictionary_bits);
    } else {
      best_length = 1;
      out.literal(data[pos]);
    }
    for (size_t i = 0; i < best_length; ++i) insert(pos + i);
    pos += best_length;
  }
  out.end_of_stream();
  return out.bytes();
}

std::vector<uint8_t> dcl_member_payload(std::span<const uint8_t> data, DclMatches matches) {
  std::vector<uint8_t> payload(4);
  put_u32(payload, 0, static_cast<uint32_t>(data.size()));
  std::vector<uint8_t> stream = dcl_implode(data, 6, matches);
  payload.insert(payload.end(), stream.begin(), stream.end());
  return payload;
}

std::vector<uint8_t> build_ealib(const std::vector<LibMemberSpec>& members, bool with_terminator) {
  std::vector<uint8_t> out = to_bytes("EALIB");
  append_u16(out, static_cast<uint32_t>(members.size()));
  const size_t directory_size = (members.size() + (with_terminator ? 1 : 0)) * kEaLibEntrySize;
  size_t data_offset = out.size() + directory_size;
  for (const LibMemberSpec& member : members) {
    if (member.name.size() > 13) throw std::invalid_argument("EALIB names have 13 bytes");
    std::vector<uint8_t> entry(kEaLibEntrySize, 0);
    std::copy(member.name.begin(), member.name.end(), entry.begin());
    entry[0x0D] = member.flags;
    put_u32(entry, 0x0E, static_cast<uint32_t>(data_offset));
    out.insert(out.end(), entry.begin(), entry.end());
    data_offset += member.stored.size();
  }
  if (with_terminator) {
    std::vector<uint8_t> terminator(kEaLibEntrySize, 0);
    put_u32(terminator, 0x0E, static_cast<uint32_t>(data_offset));  // = the file size
    out.insert(out.end(), terminator.begin(), terminator.end());
  }
  for (const LibMemberSpec& member : members) {
    out.insert(out.end(), member.stored.begin(), member.stored.end());
  }
  return out;
}

uint32_t read_u32(const std::vector<uint8_t>& bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(bytes.at(at + i)) << (8 * i);
  return value;
}

}  // namespace shapevm::test
