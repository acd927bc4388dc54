#include "harness/sdl_library.h"

namespace shapevm::harness {

const SdlLibrary& sdl_library() {
  static const SdlLibrary loaded = [] {
    // SDL2's soname has stayed libSDL2-2.0.so.0 for every 2.x release.
    const auto library =
        core::SharedLibrary::open({"libSDL2-2.0.so.0"}, "the viewer's window (SDL2)");
    SdlLibrary table;
    SHAPEVM_SDL_FUNCTIONS(SHAPEVM_RESOLVE_FUNCTION_FIELD)
    return table;
  }();
  return loaded;
}

}  // namespace shapevm::harness
