#include "x86/capstone_library.h"

#include "core/shared_library.h"

namespace shapevm::x86 {

namespace {

CapstoneLibrary load() {
  const auto library = core::SharedLibrary::open(
      {SHAPEVM_VERSIONED_SONAME("libcapstone", CS_API_MAJOR)}, "disassembling x86 (Capstone)");
  CapstoneLibrary api;
#define SHAPEVM_RESOLVE_FUNCTION(name) api.name = library.function<decltype(&::name)>(#name);
  SHAPEVM_CAPSTONE_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION)
#undef SHAPEVM_RESOLVE_FUNCTION
  return api;
}

}  // namespace

const CapstoneLibrary& capstone_library() {
  static const CapstoneLibrary api = load();
  return api;
}

}  // namespace shapevm::x86
