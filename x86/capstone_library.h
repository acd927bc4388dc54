// The Capstone functions shapevm calls, resolved from libcapstone the first time x86 is
// disassembled or analysed (core/shared_library.h says why it is not linked at start-up). Field
// names are Capstone's own function names: `api.cs_disasm_iter(...)`.
#pragma once

#include <capstone/capstone.h>

#include "core/shared_library.h"

namespace shapevm::x86 {

// clang-format off: one function a line
#define SHAPEVM_CAPSTONE_FUNCTIONS(X) \
  X(cs_open)                          \
  X(cs_close)                         \
  X(cs_option)                        \
  X(cs_malloc)                        \
  X(cs_free)                          \
  X(cs_disasm_iter)
// clang-format on

struct CapstoneLibrary {
  SHAPEVM_CAPSTONE_FUNCTIONS(SHAPEVM_FUNCTION_FIELD)
};

// Loads libcapstone.so.<the headers' major version> on the first call (thread-safe) and returns
// the same table afterwards. Throws InputError saying what could not be loaded. When Capstone is
// linked into the program (cmake/static_runtime.cmake), the table is its functions, loaded with it.
const CapstoneLibrary& capstone_library();

}  // namespace shapevm::x86
