// The C math library (libm.so.6), opened the first time a math function is called rather than
// when shapevm starts (cmake/static_runtime.cmake). Loading it at start cost every process, even
// `--version`, about 10 page faults and the CPU-feature checks that pick each of its functions'
// variants: some 0.3 ms of a 2.5 ms start on a virtual machine. Most commands never call it: the
// frames are drawn with integer arithmetic; Unicorn's x87 emulation, libpng's gamma code and the
// generators do.
//
// The programs are linked with `--wrap=NAME` for each function on_first_use.h lists: the linker
// sends every call to NAME in the program to __wrap_NAME, defined here, which calls the C library's
// own NAME, looked up on its first call. Nothing else refers to libm, so the linker (with
// --as-needed) leaves it out of the libraries loaded at start. Each function is the C library's
// own, so every result is the same as with libm loaded at start.
#include "core/libm/on_first_use.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/shared_library.h"

namespace {

// libm, opened on first use (thread-safe: a function-local static).
const shapevm::core::SharedLibrary& libm() {
  static const auto library = shapevm::core::SharedLibrary::open({"libm.so.6"}, "a math function");
  return library;
}

// libm's function `name`. A machine without libm is broken the way one without the C library
// would be; there is no caller to hand the error to (Unicorn and libpng are C), so the program
// stops with exit 2, as for any other library the machine lacks.
template <typename Function>
Function libm_function(const char* name) {
  try {
    return libm().function<Function>(name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shapevm: error: %s\n", e.what());
    std::_Exit(2);
  }
}

}  // namespace

// Each listed function: the C library's own, looked up on its first call (a function-local static
// per function) and called with the same arguments.
#define SHAPEVM_LIBM_FORWARD(Result, name, Params, Args)             \
  extern "C" Result __wrap_##name Params {                           \
    static const auto real = libm_function<Result(*) Params>(#name); \
    return real Args;                                                \
  }
SHAPEVM_LIBM_FUNCTIONS(SHAPEVM_LIBM_FORWARD)
