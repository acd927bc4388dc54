#include "x86/capstone_library.h"

namespace shapevm::x86 {

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

}  // namespace shapevm::x86
