#include "harness/sdl_library.h"

#include "core/shared_library.h"

namespace shapevm::harness {

namespace {

SdlLibrary load() {
  // SDL2's soname has stayed libSDL2-2.0.so.0 for every 2.x release.
  const auto library =
      core::SharedLibrary::open({"libSDL2-2.0.so.0"}, "the viewer's window (SDL2)");
  SdlLibrary api;
#define SHAPEVM_RESOLVE_FUNCTION(name) api.name = library.function<decltype(&::name)>(#name);
  SHAPEVM_SDL_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION)
#undef SHAPEVM_RESOLVE_FUNCTION
  return api;
}

}  // namespace

const SdlLibrary& sdl_library() {
  static const SdlLibrary api = load();
  return api;
}

}  // namespace shapevm::harness
