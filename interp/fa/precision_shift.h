// GRAddBrentObj's projection/precision shift (seed 000, Engine Notes "Header field consumption";
// FA-51). When a shape is queued, the engine ORs the magnitudes of the viewer-relative position
// (the world delta shifted right by the header scale, i.e. shape units) with the header radius and
// looks up the leading bit of the result in _shift_table; the shift it finds keeps the whole shape
// inside 16-bit arithmetic. Only the leading bit of the radius matters, which is why authored radii
// need not be exact. shapevm's camera is given in shape units already (--camera), so the scale step
// has nothing to convert.
#pragma once

#include <array>
#include <cstdint>

namespace shapevm::fa {

// The shift for a shape of header `radius` at viewer-relative `delta` (shape units): the number
// of bits by which |dx| | |dy| | |dz| | radius exceeds assumed::kPrecisionBits, or 0.
int precision_shift(int16_t radius, const std::array<int64_t, 3>& delta);

}  // namespace shapevm::fa
