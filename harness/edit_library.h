// The libedit functions the debugger's prompt calls, resolved from libedit when a prompt first
// reads from a terminal (core/shared_library.h says why libedit, with the terminal libraries it
// needs, is not linked at start-up). Field names are libedit's own: `edit.el_gets(...)`.
#pragma once

#include <histedit.h>

#include "core/shared_library.h"

namespace shapevm::harness {

// clang-format off: one function a line
#define SHAPEVM_EDIT_FUNCTIONS(X) \
  X(el_init)                      \
  X(el_end)                       \
  X(el_set)                       \
  X(el_get)                       \
  X(el_gets)                      \
  X(el_source)                    \
  X(history_init)                 \
  X(history_end)                  \
  X(history)
// clang-format on

struct EditLibrary {
  SHAPEVM_EDIT_FUNCTIONS(SHAPEVM_FUNCTION_FIELD)
};

// Loads libedit.so.<the header's major version> on the first call (thread-safe) and returns the
// same table afterwards. Throws InputError saying what could not be loaded.
const EditLibrary& edit_library();

}  // namespace shapevm::harness
