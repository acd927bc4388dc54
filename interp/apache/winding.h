// The winding result (seed 003, "Drawing language"; AP-19): the first three screen-space vertices
// and the signed high word of their cross product; no polygon normal is involved. The product is
// formed in 32 bits as the original's registers hold it (assumptions.h, "Winding"), so a cross
// product beyond 32 bits wraps and its high word's sign can differ from the full value's.
#pragma once

#include <array>
#include <cstdint>

namespace shapevm::apache {

using ScreenPoint = std::array<int32_t, 2>;  // integer pixels, y down

inline int32_t screen_winding(const ScreenPoint& p0, const ScreenPoint& p1, const ScreenPoint& p2) {
  const int64_t ax = int64_t{p1[0]} - p0[0], ay = int64_t{p1[1]} - p0[1];
  const int64_t bx = int64_t{p2[0]} - p0[0], by = int64_t{p2[1]} - p0[1];
  const auto cross = static_cast<uint32_t>(ax * by - ay * bx);  // keeps the low 32 bits
  return static_cast<int16_t>(static_cast<uint16_t>(cross >> 16));
}

}  // namespace shapevm::apache
