#include "x86/unicorn_library.h"

namespace shapevm::x86 {

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

}  // namespace shapevm::x86
