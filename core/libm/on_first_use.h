// The C math library's functions shapevm calls, forwarded to libm.so.6 opened on the first call
// (on_first_use.cpp says why). The programs are linked with --wrap for each NAME listed here
// (cmake/static_runtime.cmake reads this list), so every call to NAME reaches __wrap_NAME.
#pragma once

// X(result type, name, parameter list, argument list), one per function. A call to a libm
// function not listed here makes the linker load libm at start again (a test checks it does not).
#define SHAPEVM_LIBM_FUNCTIONS(X)                              \
  X(double, atan2, (double y, double x), (y, x))               \
  X(double, ceil, (double x), (x))                             \
  X(double, cos, (double x), (x))                              \
  X(double, floor, (double x), (x))                            \
  X(double, fma, (double x, double y, double z), (x, y, z))    \
  X(float, fmaf, (float x, float y, float z), (x, y, z))       \
  X(double, fmod, (double x, double y), (x, y))                \
  X(long long, llround, (double x), (x))                       \
  X(double, log, (double x), (x))                              \
  X(long, lround, (double x), (x))                             \
  X(double, pow, (double x, double y), (x, y))                 \
  X(double, sin, (double x), (x))                              \
  X(void, sincos, (double x, double* s, double* c), (x, s, c)) \
  X(void, sincosf, (float x, float* s, float* c), (x, s, c))   \
  X(double, sqrt, (double x), (x))                             \
  X(float, sqrtf, (float x), (x))                              \
  X(double, tan, (double x), (x))

#define SHAPEVM_LIBM_DECLARE(Result, name, Params, Args) Result __wrap_##name Params;
extern "C" {
SHAPEVM_LIBM_FUNCTIONS(SHAPEVM_LIBM_DECLARE)
}
#undef SHAPEVM_LIBM_DECLARE
