// Integer sine and cosine for camera maths shared by the engines: whole degrees in, Q15 out
// (32767 = 1.0), from one fixed table, so every machine computes the same views.
#pragma once

#include <cstdint>

namespace shapevm {

int32_t sin_q15(int degrees);
int32_t cos_q15(int degrees);

}  // namespace shapevm
