#include "x86/unicorn_library.h"

#include "core/shared_library.h"

namespace shapevm::x86 {

namespace {

UnicornLibrary load() {
  const auto library = core::SharedLibrary::open(
      {SHAPEVM_VERSIONED_SONAME("libunicorn", UC_API_MAJOR)}, "running embedded x86 (Unicorn)");
  UnicornLibrary api;
#define SHAPEVM_RESOLVE_FUNCTION(name) api.name = library.function<decltype(&::name)>(#name);
  SHAPEVM_UNICORN_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION)
#undef SHAPEVM_RESOLVE_FUNCTION
  return api;
}

}  // namespace

const UnicornLibrary& unicorn_library() {
  static const UnicornLibrary api = load();
  return api;
}

}  // namespace shapevm::x86
