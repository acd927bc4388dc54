#include "interp/fa/precision_shift.h"

#include <bit>
#include <cstdlib>

#include "interp/fa/assumptions.h"

namespace shapevm::fa {

int precision_shift(int16_t radius, const std::array<int64_t, 3>& delta) {
  // Negative radii do not occur in the corpus (always >= 10); the magnitude is what is OR-ed.
  uint64_t bits = static_cast<uint64_t>(std::abs(int64_t{radius}));
  for (int64_t d : delta) bits |= static_cast<uint64_t>(d < 0 ? -d : d);
  const int width = static_cast<int>(std::bit_width(bits));
  return width > assumed::kPrecisionBits ? width - assumed::kPrecisionBits : 0;
}

}  // namespace shapevm::fa
