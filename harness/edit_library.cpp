#include "harness/edit_library.h"

namespace shapevm::harness {

const EditLibrary& edit_library() {
  static const EditLibrary loaded = [] {
    const auto library =
        core::SharedLibrary::open({SHAPEVM_VERSIONED_SONAME("libedit", LIBEDIT_MAJOR)},
                                  "line editing at the debugger's prompt");
    EditLibrary table;
    SHAPEVM_EDIT_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION_FIELD)
    return table;
  }();
  return loaded;
}

}  // namespace shapevm::harness
