// 16.16 fixed-point arithmetic for the rasterizer. Every fill computes with integers only, so a
// frame is the same bytes with any compiler, optimisation level or CPU; there is no float here.
//
// Overflow policy: period rasterizers divide with x86 IDIV, which faults when the quotient does not
// fit in 32 bits (or the divisor is 0), and a traced engine's fault handler replaces such a result
// with +-0x70000000 (see docs/raster.md). The helpers below reproduce that: a result that does not
// fit in int32 becomes +-kSaturated. They never invoke signed overflow: products are formed in 64
// or 128 bits first.
#pragma once

#include <cstdint>
#include <limits>

namespace shapevm::raster {

// A 16.16 signed fixed-point number: value / 65536.
using Fixed = int32_t;

inline constexpr int kFixedShift = 16;
inline constexpr Fixed kFixedOne = 1 << kFixedShift;
// What an overflowing division yields (the sign follows the true quotient).
inline constexpr int32_t kSaturated = 0x70000000;

// A 64-bit intermediate narrowed the way the engine's divide-overflow handler does: values that
// fit in int32 pass through, anything larger becomes +-kSaturated.
constexpr int32_t saturate_to_int32(int64_t value) {
  if (value > std::numeric_limits<int32_t>::max()) return kSaturated;
  if (value < std::numeric_limits<int32_t>::min()) return -kSaturated;
  return static_cast<int32_t>(value);
}

// Integer pixels/texels to 16.16; values outside +-32767 saturate.
constexpr Fixed to_fixed(int32_t value) {
  return saturate_to_int32(static_cast<int64_t>(value) * kFixedOne);
}

// The largest integer <= f. (C++20 defines >> of a negative value as an arithmetic shift.)
constexpr int32_t fixed_floor(Fixed f) {
  return f >> kFixedShift;
}
// The smallest integer >= f.
constexpr int32_t fixed_ceil(Fixed f) {
  return static_cast<int32_t>((static_cast<int64_t>(f) + (kFixedOne - 1)) >> kFixedShift);
}
// The same for 16.16 values carried in 64 bits.
constexpr int64_t fixed_floor64(int64_t f) {
  return f >> kFixedShift;
}
constexpr int64_t fixed_ceil64(int64_t f) {
  return (f + (kFixedOne - 1)) >> kFixedShift;
}

// a * b in 16.16, rounded toward minus infinity; saturates when the product does not fit.
constexpr Fixed fixed_mul(Fixed a, Fixed b) {
  return saturate_to_int32((static_cast<int64_t>(a) * b) >> kFixedShift);
}

// a / b in 16.16, truncated toward zero like IDIV. b == 0 or a quotient outside int32 gives
// +-kSaturated; 0 / 0 gives +kSaturated (the handler's sign for a zero dividend is untraced).
constexpr Fixed fixed_div(Fixed a, Fixed b) {
  if (b == 0) return a < 0 ? -kSaturated : kSaturated;
  return saturate_to_int32(static_cast<int64_t>(a) * kFixedOne / b);
}

// A 64-bit dividend divided the same way: truncation toward zero, saturation on overflow.
constexpr int32_t divide_saturating(int64_t numerator, int64_t denominator) {
  if (denominator == 0) return numerator < 0 ? -kSaturated : kSaturated;
  // INT64_MIN / -1 is the one 64-bit quotient that overflows; it saturates like any other.
  if (numerator == std::numeric_limits<int64_t>::min() && denominator == -1) return kSaturated;
  return saturate_to_int32(numerator / denominator);
}

// floor(numerator / denominator) for denominator > 0.
constexpr int64_t floor_div(int64_t numerator, int64_t denominator) {
  int64_t quotient = numerator / denominator;
  if ((numerator % denominator) != 0 && numerator < 0) --quotient;
  return quotient;
}

// floor(a * b / c) for c > 0 without intermediate overflow (the product is formed in 128 bits).
// The caller guarantees the result fits in int64 (it is always between two int64 endpoints here).
inline int64_t mul_div_floor(int64_t a, int64_t b, int64_t c) {
  // Fast path with the same result: most products fit in 64 bits, and a 64-bit division is several
  // times cheaper than the 128-bit library call.
  int64_t narrow = 0;
  if (!__builtin_mul_overflow(a, b, &narrow)) return floor_div(narrow, c);
  __extension__ using Wide = __int128;
  Wide product = static_cast<Wide>(a) * b;
  Wide quotient = product / c;
  if ((product % c) != 0 && product < 0) --quotient;
  return static_cast<int64_t>(quotient);
}

}  // namespace shapevm::raster
