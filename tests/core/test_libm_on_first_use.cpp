// core/libm/on_first_use.cpp: shapevm's calls to math functions reach the C library's own
// functions through forwarding functions that open libm on first use. Each must be the function
// of its name, with its arguments in their places: a forwarder that called cos for sin, or swapped
// pow's arguments, would change Unicorn's x87 results and the generators' shapes.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "core/libm/on_first_use.h"

namespace core_libm_on_first_use_tests {

namespace {

// Read through volatile, so the compiler cannot fold the direct calls at compile time (its own
// arithmetic may differ from the C library's in the last bit).
double opaque(double x) {
  volatile double v = x;
  return v;
}
float opaque(float x) {
  volatile float v = x;
  return v;
}

uint64_t bits(double x) {
  return std::bit_cast<uint64_t>(x);
}
uint32_t bits(float x) {
  return std::bit_cast<uint32_t>(x);
}

}  // namespace

TEST_CASE("each forwarded math function is the C library's function of that name") {
  const double a = opaque(0.7853981), b = opaque(-2.25), c = opaque(3.5);
  const float fa = opaque(1.25f), fb = opaque(-0.5f), fc = opaque(2.0f);

  CHECK(bits(__wrap_atan2(a, b)) == bits(std::atan2(a, b)));
  CHECK(bits(__wrap_atan2(b, a)) == bits(std::atan2(b, a)));  // the arguments in their order
  CHECK(bits(__wrap_ceil(b)) == bits(std::ceil(b)));
  CHECK(bits(__wrap_cos(a)) == bits(std::cos(a)));
  CHECK(bits(__wrap_floor(b)) == bits(std::floor(b)));
  CHECK(bits(__wrap_fma(a, b, c)) == bits(std::fma(a, b, c)));
  CHECK(bits(__wrap_fma(c, a, b)) == bits(std::fma(c, a, b)));
  CHECK(bits(__wrap_fmaf(fa, fb, fc)) == bits(std::fma(fa, fb, fc)));
  CHECK(bits(__wrap_fmod(c, a)) == bits(std::fmod(c, a)));
  CHECK(bits(__wrap_fmod(b, a)) == bits(std::fmod(b, a)));
  CHECK(__wrap_llround(b) == std::llround(b));
  CHECK(bits(__wrap_log(c)) == bits(std::log(c)));
  CHECK(__wrap_lround(c) == std::lround(c));
  CHECK(bits(__wrap_pow(c, a)) == bits(std::pow(c, a)));
  CHECK(bits(__wrap_pow(a, c)) == bits(std::pow(a, c)));
  CHECK(bits(__wrap_sin(a)) == bits(std::sin(a)));
  double s = 0, co = 0;
  __wrap_sincos(c, &s, &co);
  CHECK(bits(s) == bits(std::sin(c)));
  CHECK(bits(co) == bits(std::cos(c)));
  float fs = 0, fco = 0;
  __wrap_sincosf(fa, &fs, &fco);
  CHECK(bits(fs) == bits(std::sin(fa)));
  CHECK(bits(fco) == bits(std::cos(fa)));
  CHECK(bits(__wrap_sqrt(c)) == bits(std::sqrt(c)));
  CHECK(bits(__wrap_sqrtf(fc)) == bits(std::sqrt(fc)));
  CHECK(bits(__wrap_tan(a)) == bits(std::tan(a)));
  // Distinct values, so a forwarder that called the wrong function could not pass by accident.
  CHECK(bits(__wrap_sin(a)) != bits(__wrap_cos(a)));
  CHECK(bits(__wrap_floor(b)) != bits(__wrap_ceil(b)));
}

}  // namespace core_libm_on_first_use_tests
