#include "x86/unicorn_library.h"

namespace shapevm::x86 {

#if SHAPEVM_UNICORN_LINKED
// Linked into the program (cmake/static_runtime.cmake): the table holds Unicorn's own functions.
const UnicornLibrary& unicorn_library() {
  static const UnicornLibrary linked{SHAPEVM_UNICORN_FUNCTIONS(SHAPEVM_LINKED_FUNCTION_FIELD)};
  return linked;
}
#else
const UnicornLibrary& unicorn_library() {
  static const UnicornLibrary loaded = [] {
    const auto library = core::SharedLibrary::open(
        {SHAPEVM_VERSIONED_SONAME("libunicorn", UC_API_MAJOR)}, "running embedded x86 (Unicorn)");
    UnicornLibrary table;
    SHAPEVM_UNICORN_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION_FIELD)
    return table;
  }();
  return loaded;
}
#endif

}  // namespace shapevm::x86
