#include "x86/capstone_library.h"

namespace shapevm::x86 {

#if SHAPEVM_CAPSTONE_LINKED
// Linked into the program (cmake/static_runtime.cmake): the table holds Capstone's own functions.
const CapstoneLibrary& capstone_library() {
  static const CapstoneLibrary linked{SHAPEVM_CAPSTONE_FUNCTIONS(SHAPEVM_LINKED_FUNCTION_FIELD)};
  return linked;
}
#else
const CapstoneLibrary& capstone_library() {
  static const CapstoneLibrary loaded = [] {
    const auto library = core::SharedLibrary::open(
        {SHAPEVM_VERSIONED_SONAME("libcapstone", CS_API_MAJOR)}, "disassembling x86 (Capstone)");
    CapstoneLibrary table;
    SHAPEVM_CAPSTONE_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION_FIELD)
    return table;
  }();
  return loaded;
}
#endif

}  // namespace shapevm::x86
