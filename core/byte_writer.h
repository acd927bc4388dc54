// Little-endian integers appended to a byte vector: what the writers of the engines' formats
// (the assemblers, the builders the tests use) put their fields with.
#pragma once

#include <cstdint>
#include <vector>

namespace shapevm {

// The low 16 bits of v, low byte first.
inline void append_u16(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}

}  // namespace shapevm
