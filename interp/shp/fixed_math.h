// Fixed-point maths for drawing Starlancer models deterministically: the file's floats become
// integers once (positions in 1/16 model units, directions and matrices in Q16) and everything
// from there to the frame is integer. The only trigonometry is a sine evaluated with + - * / on
// doubles (IEEE-exact operations) and rounded once, so every machine gets the same bits.
#pragma once

#include <array>
#include <cstdint>

#include "interp/common/events.h"

namespace shapevm::shp {

using P3 = std::array<int64_t, 3>;             // a point, view units (1/16 model unit)
using Q16 = int64_t;                           // 65536 = 1.0
using M3 = std::array<std::array<Q16, 3>, 3>;  // row-major
inline constexpr Q16 kOne = 65536;

// A file float in view units (rounded to nearest; non-finite reads as 0; clamped to +-2^40).
int64_t to_units(float model_units);
// A file float as Q16 (the same rules, clamped to +-2^30).
Q16 to_q16(float value);
// sin and cos of an angle in radians given as Q16 (i.e. radians * 65536), each Q16.
Q16 sin_q16(int64_t radians_q16);
Q16 cos_q16(int64_t radians_q16);

M3 identity();
M3 multiply(const M3& a, const M3& b);
M3 transpose(const M3& a);
// R = Rx(x) . Ry(y) . Rz(z), right-handed, column vectors; angles in radians as Q16.
M3 rotation_xyz(Q16 x, Q16 y, Q16 z);
P3 times(const M3& m, const P3& p);

// y = m . x + t (m Q16, t view units): where a part's frame sits in the model frame.
struct Affine {
  M3 m = identity();
  P3 t{};
  P3 operator()(const P3& p) const;
};
// a after b.
Affine compose(const Affine& a, const Affine& b);

// A unit direction from integer components (any length, not all zero), Q16.
std::array<Q16, 3> normalise(const std::array<int64_t, 3>& v);
Q16 dot(const std::array<Q16, 3>& a, const std::array<Q16, 3>& b);  // Q16

// The camera: the model frame is X right, Y down, Z forward (SL-21); the view space of the
// frame renderer is x right, y up, z toward the viewer (events.h ViewPoint). The camera orbits
// `target`: heading 0 stands in front of the nose (+Z) looking back at it, heading 90 on the
// model's left (-X); a positive pitch raises the camera (toward -Y) to look down on the model.
struct Camera {
  int64_t distance = 0;  // view units
  int heading = 0;       // degrees
  int pitch = 0;         // degrees
};

struct View {
  std::array<Q16, 3> right{}, up{}, toward{};  // the view axes in the model frame
  P3 eye{};                                    // model frame, view units
  ViewPoint to_view(const P3& model) const;
  // A model-frame direction in view axes (Q16).
  std::array<Q16, 3> direction(const std::array<Q16, 3>& model) const;
};

View make_view(const Camera& camera, const P3& target);

}  // namespace shapevm::shp
