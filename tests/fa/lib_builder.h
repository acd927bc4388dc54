// Test tools for the Fighters Anthology files: build EALIB files and DCL ("implode") streams in
// memory, so tests can make any library, valid or deliberately broken, without binary fixtures
// (tests/fa/pic_builder.h does the same for PIC images). Not production code: the encoder favours
// being obviously right over compressing well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::test {

std::vector<uint8_t> to_bytes(std::string_view text);

// ---- DCL ----

// Writes bits LSB-first, the order a DCL decoder reads them. Tests use it to spell streams out
// bit by bit exactly as the format description gives them.
class BitWriter {
 public:
  // Starts with the two header bytes: literal mode and dictionary bits.
  BitWriter(uint8_t literal_mode, uint8_t dictionary_bits);
  // Individual bits, in the order the decoder reads them.
  void bits(std::initializer_list<int> sequence);
  // An n-bit little-endian field: bit 0 of `value` is written first.
  void field(uint32_t value, int count);
  // A raw literal: flag bit 0, then the byte as an 8-bit field.
  void literal(uint8_t byte);
  // The end-of-stream code as the format spells it: flag 1, length symbol 15 (seven 0 bits), and
  // 8 extra bits of 255 (length 264 + 255 = 519).
  void end_of_stream();
  // The stream so far, the last byte padded with zero bits.
  std::vector<uint8_t> bytes() const;

 private:
  std::vector<uint8_t> bytes_;
  int used_bits_in_last_ = 8;
};

enum class DclMatches {
  kLiteralsOnly,  // every byte a literal: trivially correct, output 9/8 of the input
  kGreedy,        // longest match at each position (hash chains), plus 2-byte matches
};

// Encodes `data` as a DCL stream with raw literals (literal mode 0).
std::vector<uint8_t> dcl_implode(std::span<const uint8_t> data, int dictionary_bits = 6,
                                 DclMatches matches = DclMatches::kGreedy);

// The stored bytes of an EALIB flags=4 member: u32 decompressed size, then the DCL stream.
std::vector<uint8_t> dcl_member_payload(std::span<const uint8_t> data,
                                        DclMatches matches = DclMatches::kGreedy);

// ---- EALIB ----

struct LibMemberSpec {
  std::string name;             // at most 13 bytes; 13 leaves the name without its NUL
  uint8_t flags = 0;            // written as is, even for flags shapevm cannot decode
  std::vector<uint8_t> stored;  // the member's bytes as they sit in the file
};

// "EALIB", count, one 18-byte entry per member, the terminator (offset = file size) unless
// `with_terminator` is false, then the members' stored bytes in order.
std::vector<uint8_t> build_ealib(const std::vector<LibMemberSpec>& members,
                                 bool with_terminator = true);

// Byte offsets inside a built library, for tests that patch it.
constexpr size_t kEaLibEntrySize = 18;
constexpr size_t ealib_entry_at(size_t index) {
  return 7 + index * kEaLibEntrySize;
}
constexpr size_t ealib_offset_field_at(size_t index) {
  return ealib_entry_at(index) + 0x0E;
}
uint32_t read_u32(const std::vector<uint8_t>& bytes, size_t at);

}  // namespace shapevm::test
