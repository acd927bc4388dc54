// A bounds-checked little-endian view of an input. Every read names what it is reading, so a
// short or inconsistent file fails with "file: offset 0x..: expected <what> (n bytes), ...".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/input_error.h"

namespace shapevm {

class ByteReader {
 public:
  ByteReader(std::span<const uint8_t> data, std::string source)
      : data_(data), source_(std::move(source)) {}

  std::span<const uint8_t> data() const { return data_; }
  size_t size() const { return data_.size(); }
  const std::string& source() const { return source_; }

  bool has(size_t offset, size_t count) const {
    return offset <= data_.size() && count <= data_.size() - offset;
  }
  // Throws unless [offset, offset + count) lies inside the input.
  void require(size_t offset, size_t count, std::string_view what) const;
  // As require(), for a description that costs something to make (one formatted with the
  // counts): describe() is called only when the range is outside the input, so a reader on a hot
  // path formats and allocates nothing while the bytes are there.
  template <typename Describe>
  requires std::is_invocable_r_v<std::string, Describe>
  void require(size_t offset, size_t count, Describe&& describe) const {
    if (!has(offset, count)) require(offset, count, std::string_view(describe()));
  }
  [[noreturn]] void fail(size_t offset, std::string expected) const;

  uint8_t u8(size_t offset, std::string_view what) const;
  uint16_t u16(size_t offset, std::string_view what) const;
  int16_t i16(size_t offset, std::string_view what) const;
  uint32_t u32(size_t offset, std::string_view what) const;
  int32_t i32(size_t offset, std::string_view what) const;
  std::span<const uint8_t> bytes(size_t offset, size_t count, std::string_view what) const;
  // A NUL-padded fixed-width name: the characters before the first NUL.
  std::string fixed_string(size_t offset, size_t width, std::string_view what) const;
  // A NUL-terminated string starting at offset; throws if no NUL before the end of the input.
  std::string c_string(size_t offset, std::string_view what) const;

 private:
  std::span<const uint8_t> data_;
  std::string source_;
};

// Unchecked little-endian loads for callers that have already bounds-checked a range.
inline uint16_t load_u16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
inline int16_t load_i16(const uint8_t* p) {
  return static_cast<int16_t>(load_u16(p));
}
inline uint32_t load_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
inline int32_t load_i32(const uint8_t* p) {
  return static_cast<int32_t>(load_u32(p));
}
// Big-endian (PNG chunks, HOG archives).
inline uint32_t load_u32_be(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
         (static_cast<uint32_t>(p[2]) << 8) | static_cast<uint32_t>(p[3]);
}

}  // namespace shapevm
