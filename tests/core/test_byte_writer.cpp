// The little-endian writers every format writer uses: low byte first, the value's high bits
// beyond the field dropped, and a field written back outside its buffer refused unwritten.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/byte_reader.h"
#include "core/byte_writer.h"

namespace core_byte_writer_tests {

using shapevm::append_u16;
using shapevm::append_u32;
using shapevm::put_u16;
using shapevm::put_u32;

TEST_CASE("byte writer: appended fields are low byte first and read back by the reader") {
  std::vector<uint8_t> out = {0xEE};
  append_u16(out, 0x12345678);  // a 16-bit field keeps the low 16 bits
  append_u32(out, 0xA1B2C3D4);
  CHECK(out == std::vector<uint8_t>{0xEE, 0x78, 0x56, 0xD4, 0xC3, 0xB2, 0xA1});
  CHECK(shapevm::load_u16(out.data() + 1) == 0x5678);
  CHECK(shapevm::load_u32(out.data() + 3) == 0xA1B2C3D4);
}

TEST_CASE("byte writer: a field written back changes only its own bytes") {
  std::vector<uint8_t> out(8, 0x11);
  put_u32(out, 2, 0x01020304);
  put_u16(out, 6, 0xBEEF);
  CHECK(out == std::vector<uint8_t>{0x11, 0x11, 0x04, 0x03, 0x02, 0x01, 0xEF, 0xBE});
}

TEST_CASE("byte writer: a field written back past the buffer's end is refused, nothing written") {
  std::vector<uint8_t> out(6, 0x11);
  const std::vector<uint8_t> before = out;
  CHECK_THROWS_AS(put_u32(out, 3, 0xFFFFFFFF), std::out_of_range);  // would end at 7
  CHECK_THROWS_AS(put_u16(out, 5, 0xFFFF), std::out_of_range);      // would end at 7
  CHECK_THROWS_AS(put_u16(out, SIZE_MAX, 0), std::out_of_range);    // at + 2 wraps around
  CHECK(out == before);
  put_u32(out, 2, 0);  // ending exactly at the end is inside
  put_u16(out, 4, 0);
  CHECK(out == std::vector<uint8_t>{0x11, 0x11, 0, 0, 0, 0});
}

}  // namespace core_byte_writer_tests
