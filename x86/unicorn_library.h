// The Unicorn functions the sandbox calls: linked into the program with the static runtime
// (cmake/static_runtime.cmake), else resolved from libunicorn when the first sandbox is made
// (core/shared_library.h says why it is not loaded at start-up). Field names are Unicorn's own
// function names, so the sandbox reads like Unicorn's documentation: `api.uc_emu_start(...)`.
#pragma once

#include <unicorn/unicorn.h>

#include "core/shared_library.h"

namespace shapevm::x86 {

// clang-format off: one function a line
#define SHAPEVM_UNICORN_FUNCTIONS(X) \
  X(uc_open)                         \
  X(uc_close)                        \
  X(uc_strerror)                     \
  X(uc_ctl)                          \
  X(uc_hook_add)                     \
  X(uc_reg_read)                     \
  X(uc_reg_write)                    \
  X(uc_reg_read_batch)               \
  X(uc_reg_write_batch)              \
  X(uc_mem_map)                      \
  X(uc_mem_map_ptr)                  \
  X(uc_mem_unmap)                    \
  X(uc_mem_protect)                  \
  X(uc_mem_read)                     \
  X(uc_mem_write)                    \
  X(uc_emu_start)                    \
  X(uc_emu_stop)                     \
  X(uc_context_alloc)                \
  X(uc_context_save)                 \
  X(uc_context_restore)              \
  X(uc_context_free)
// clang-format on

struct UnicornLibrary {
  SHAPEVM_UNICORN_FUNCTIONS(SHAPEVM_FUNCTION_FIELD)
};

// Linked in: Unicorn's own functions. Otherwise loads libunicorn.so.<the headers' major version>
// on the first call (thread-safe) and returns the same table afterwards; throws InputError saying
// what could not be loaded.
const UnicornLibrary& unicorn_library();

}  // namespace shapevm::x86
