#include "interp/shp/fixed_math.h"

#include <algorithm>
#include <cmath>

#include "interp/shp/draw_assumptions.h"

namespace shapevm::shp {
namespace {

__extension__ using Wide = __int128;

int64_t round_clamped(double v, double limit) {
  if (!std::isfinite(v)) return 0;
  v = std::clamp(v, -limit, limit);
  return static_cast<int64_t>(v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5));
}

int32_t saturate32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, -INT32_MAX, INT32_MAX));
}

constexpr double kPi = 3.14159265358979323846;

// sin(x) for |x| <= pi/4 by its Taylor series (terms to x^15: error far below 2^-17).
double sin_series(double x) {
  const double x2 = x * x;
  double term = x, sum = x;
  for (int n = 1; n <= 7; ++n) {
    term = -term * x2 / ((2.0 * n) * (2.0 * n + 1.0));
    sum += term;
  }
  return sum;
}

double cos_series(double x) {
  const double x2 = x * x;
  double term = 1.0, sum = 1.0;
  for (int n = 1; n <= 7; ++n) {
    term = -term * x2 / ((2.0 * n - 1.0) * (2.0 * n));
    sum += term;
  }
  return sum;
}

// sin of an angle in radians (Q16) with + - * / only: reduce to an octant, then a series.
double sin_exact_ops(int64_t radians_q16) {
  const double x = static_cast<double>(radians_q16) / 65536.0;
  const double quarter = kPi / 2;
  const double turns = std::floor(x / quarter + 0.5);  // nearest quarter turn
  const double r = x - turns * quarter;                // |r| <= pi/4
  const int64_t q = static_cast<int64_t>(turns) & 3;
  switch (q) {
    case 0:
      return sin_series(r);
    case 1:
      return cos_series(r);
    case 2:
      return -sin_series(r);
    default:
      return -cos_series(r);
  }
}

}  // namespace

int64_t to_units(float v) {
  return round_clamped(static_cast<double>(v) * assumed::kViewUnitsPerModelUnit, 1099511627776.0);
}

Q16 to_q16(float v) {
  return round_clamped(static_cast<double>(v) * 65536.0, 1073741824.0);
}

Q16 sin_q16(int64_t a) {
  return round_clamped(sin_exact_ops(a) * 65536.0, 65536.0);
}

Q16 cos_q16(int64_t a) {
  return sin_q16(a + round_clamped(kPi / 2 * 65536.0, 1e12));
}

M3 identity() {
  return {{{kOne, 0, 0}, {0, kOne, 0}, {0, 0, kOne}}};
}

M3 multiply(const M3& a, const M3& b) {
  M3 out{};
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j) {
      Wide s = 0;
      for (size_t k = 0; k < 3; ++k) s += static_cast<Wide>(a[i][k]) * b[k][j];
      out[i][j] = static_cast<int64_t>(s >> 16);
    }
  return out;
}

M3 transpose(const M3& a) {
  M3 out{};
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j) out[i][j] = a[j][i];
  return out;
}

M3 rotation_xyz(Q16 x, Q16 y, Q16 z) {
  const Q16 sx = sin_q16(x), cx = cos_q16(x), sy = sin_q16(y), cy = cos_q16(y);
  const Q16 sz = sin_q16(z), cz = cos_q16(z);
  const M3 rx{{{kOne, 0, 0}, {0, cx, -sx}, {0, sx, cx}}};
  const M3 ry{{{cy, 0, sy}, {0, kOne, 0}, {-sy, 0, cy}}};
  const M3 rz{{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, kOne}}};
  return multiply(multiply(rx, ry), rz);
}

P3 times(const M3& m, const P3& p) {
  P3 out{};
  for (size_t i = 0; i < 3; ++i) {
    const Wide s = static_cast<Wide>(m[i][0]) * p[0] + static_cast<Wide>(m[i][1]) * p[1] +
                   static_cast<Wide>(m[i][2]) * p[2];
    out[i] = static_cast<int64_t>(s >> 16);
  }
  return out;
}

P3 Affine::operator()(const P3& p) const {
  P3 out = times(m, p);
  for (size_t i = 0; i < 3; ++i) out[i] += t[i];
  return out;
}

Affine compose(const Affine& a, const Affine& b) {
  return {multiply(a.m, b.m), a(b.t)};
}

std::array<Q16, 3> normalise(const std::array<int64_t, 3>& v) {
  const Wide n2 = static_cast<Wide>(v[0]) * v[0] + static_cast<Wide>(v[1]) * v[1] +
                  static_cast<Wide>(v[2]) * v[2];
  if (n2 == 0) return {0, 0, 0};
  // Integer square root of n2 (Newton from above).
  Wide r = n2, x = (n2 + 1) / 2;
  if (n2 > 1) {
    r = n2;
    while (x < r) {
      r = x;
      x = (x + n2 / x) / 2;
    }
  }
  std::array<Q16, 3> out{};
  for (size_t i = 0; i < 3; ++i) out[i] = static_cast<int64_t>(static_cast<Wide>(v[i]) * kOne / r);
  return out;
}

Q16 dot(const std::array<Q16, 3>& a, const std::array<Q16, 3>& b) {
  return (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) >> 16;
}

View make_view(const Camera& c, const P3& target) {
  // Whole degrees to radians (Q16), so 0 and 90 degrees give exact 0 and 1.
  auto radians = [](int degrees) { return round_clamped(degrees * (kPi / 180.0) * 65536.0, 1e12); };
  const int64_t sh = sin_q16(radians(c.heading)), ch = cos_q16(radians(c.heading));
  const int64_t sp = sin_q16(radians(c.pitch)), cp = cos_q16(radians(c.pitch));
  View v;
  // In a Y-up frame (x left, y up, z forward: the model half-turned about Z) the camera sits at
  // (sin h cos p, sin p, cos h cos p) from the target and its right is (cos h, 0, -sin h); back in
  // the model frame x and y change sign.
  v.toward = {-((sh * cp) >> 16), -sp, (ch * cp) >> 16};
  v.right = {-ch, 0, -sh};
  // up = toward x right (x right, y up, z toward the viewer is right-handed).
  const auto& t = v.toward;
  const auto& r = v.right;
  v.up = {(t[1] * r[2] - t[2] * r[1]) >> 16, (t[2] * r[0] - t[0] * r[2]) >> 16,
          (t[0] * r[1] - t[1] * r[0]) >> 16};
  for (size_t i = 0; i < 3; ++i) v.eye[i] = target[i] + ((t[i] * c.distance) >> 16);
  return v;
}

ViewPoint View::to_view(const P3& p) const {
  const Wide dx = p[0] - eye[0], dy = p[1] - eye[1], dz = p[2] - eye[2];
  auto along = [&](const std::array<Q16, 3>& a) {
    return static_cast<int64_t>((dx * a[0] + dy * a[1] + dz * a[2]) >> 16);
  };
  return {saturate32(along(right)), saturate32(along(up)), saturate32(along(toward))};
}

std::array<Q16, 3> View::direction(const std::array<Q16, 3>& d) const {
  return {dot(d, right), dot(d, up), dot(d, toward)};
}

}  // namespace shapevm::shp
