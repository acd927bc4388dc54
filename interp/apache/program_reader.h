// A bounds-checked reader for the drawing program's hot path. It reports errors exactly like
// ByteReader (source, offset, what was expected) but keeps only a reference to the source name, so
// decoding an instruction allocates nothing unless it fails.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/byte_reader.h"
#include "core/input_error.h"

namespace shapevm::apache {

class ProgramReader {
 public:
  ProgramReader(std::span<const uint8_t> data, const std::string& source)
      : data_(data), source_(source) {}

  bool has(size_t offset, size_t count) const {
    return offset <= data_.size() && count <= data_.size() - offset;
  }
  [[noreturn]] void fail(size_t offset, std::string expected) const {
    throw InputError(source_, offset, std::move(expected));
  }
  void require(size_t offset, size_t count, std::string_view what) const {
    if (!has(offset, count)) {
      fail(offset, fmt::format("expected {} ({} bytes), but the input is {} bytes long", what,
                               count, data_.size()));
    }
  }
  // As require(), for a description that costs something to make (one formatted with the
  // counts): describe() is called only when the range is outside the input, so a reader on a hot
  // path formats and allocates nothing while the bytes are there.
  template <typename Describe>
  requires std::is_invocable_r_v<std::string, Describe>
  void require(size_t offset, size_t count, Describe&& describe) const {
    if (!has(offset, count)) require(offset, count, std::string_view(describe()));
  }
  uint8_t u8(size_t offset, std::string_view what) const {
    require(offset, 1, what);
    return data_[offset];
  }
  int16_t i16(size_t offset, std::string_view what) const {
    require(offset, 2, what);
    return load_i16(data_.data() + offset);
  }
  uint16_t u16(size_t offset, std::string_view what) const {
    require(offset, 2, what);
    return load_u16(data_.data() + offset);
  }
  uint32_t u32(size_t offset, std::string_view what) const {
    require(offset, 4, what);
    return load_u32(data_.data() + offset);
  }
  std::span<const uint8_t> bytes(size_t offset, size_t count, std::string_view what) const {
    require(offset, count, what);
    return data_.subspan(offset, count);
  }

 private:
  std::span<const uint8_t> data_;
  const std::string& source_;
};

}  // namespace shapevm::apache
