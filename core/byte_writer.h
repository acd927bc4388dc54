// Little-endian integers written into byte buffers: what the writers of the engines' formats
// (the assemblers, the container and PE writers, the builders the tests use) put their fields
// with, so that the byte order of every format this project writes is stated in one place.
// byte_reader.h's load_u16/load_u32 read them back. PNG's integers, the one big-endian format
// written here, go through append_u32_be and put_u32_be (load_u32_be reads them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace shapevm {

// The low 16 bits of v, low byte first.
inline void append_u16(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}

// v, low byte first.
inline void append_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

// v, high byte first.
inline void append_u32_be(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

namespace detail {
// A field written back into a buffer (a count or an offset known only once what follows it is
// written) lies inside what was written before: one outside is a bug in the writer, reported
// rather than written past the buffer's end.
inline void require_field(std::span<const uint8_t> out, size_t at, size_t width) {
  if (at > out.size() || out.size() - at < width)
    throw std::out_of_range("a little-endian field written past the end of its buffer");
}
}  // namespace detail

// Overwrites the two bytes at `at` with v's low 16 bits, low byte first.
inline void put_u16(std::span<uint8_t> out, size_t at, uint32_t v) {
  detail::require_field(out, at, 2);
  out[at] = static_cast<uint8_t>(v);
  out[at + 1] = static_cast<uint8_t>(v >> 8);
}

// Overwrites the four bytes at `at` with v, low byte first.
inline void put_u32(std::span<uint8_t> out, size_t at, uint32_t v) {
  detail::require_field(out, at, 4);
  for (size_t i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Overwrites the four bytes at `at` with v, high byte first (PNG's lengths).
inline void put_u32_be(std::span<uint8_t> out, size_t at, uint32_t v) {
  detail::require_field(out, at, 4);
  for (size_t i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}

}  // namespace shapevm
