#include "core/byte_reader.h"

#include <fmt/format.h>

namespace shapevm {

void ByteReader::fail(size_t offset, std::string expected) const {
  throw InputError(source_, offset, std::move(expected));
}

void ByteReader::require(size_t offset, size_t count, std::string_view what) const {
  if (!has(offset, count)) {
    fail(offset, fmt::format("expected {} ({} bytes), but the input is {} bytes long", what, count,
                             data_.size()));
  }
}

uint8_t ByteReader::u8(size_t offset, std::string_view what) const {
  require(offset, 1, what);
  return data_[offset];
}

uint16_t ByteReader::u16(size_t offset, std::string_view what) const {
  require(offset, 2, what);
  return load_u16(data_.data() + offset);
}

int16_t ByteReader::i16(size_t offset, std::string_view what) const {
  return static_cast<int16_t>(u16(offset, what));
}

uint32_t ByteReader::u32(size_t offset, std::string_view what) const {
  require(offset, 4, what);
  return load_u32(data_.data() + offset);
}

int32_t ByteReader::i32(size_t offset, std::string_view what) const {
  return static_cast<int32_t>(u32(offset, what));
}

std::span<const uint8_t> ByteReader::bytes(size_t offset, size_t count,
                                           std::string_view what) const {
  require(offset, count, what);
  return data_.subspan(offset, count);
}

std::string ByteReader::fixed_string(size_t offset, size_t width, std::string_view what) const {
  auto raw = bytes(offset, width, what);
  std::string out;
  for (uint8_t c : raw) {
    if (c == 0) break;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string ByteReader::c_string(size_t offset, std::string_view what) const {
  require(offset, 1, what);
  std::string out;
  for (size_t i = offset; i < data_.size(); ++i) {
    if (data_[i] == 0) return out;
    out.push_back(static_cast<char>(data_[i]));
  }
  fail(offset,
       fmt::format("expected {} terminated by a NUL byte before the end of the input", what));
}

}  // namespace shapevm
