// The SDL2 functions the viewer calls, resolved from libSDL2 when a window is first wanted
// (core/shared_library.h says why SDL2, with its window-system and audio libraries, is not linked
// at start-up). Field names are SDL's own function names: `sdl.SDL_CreateWindow(...)`.
#pragma once

#include <SDL.h>

#include "core/shared_library.h"

namespace shapevm::harness {

// clang-format off: one function a line
#define SHAPEVM_SDL_FUNCTIONS(X) \
  X(SDL_GetError)                \
  X(SDL_InitSubSystem)           \
  X(SDL_QuitSubSystem)           \
  X(SDL_GetCurrentVideoDriver)   \
  X(SDL_SetHint)                 \
  X(SDL_CreateWindow)            \
  X(SDL_DestroyWindow)           \
  X(SDL_SetWindowTitle)          \
  X(SDL_CreateRenderer)          \
  X(SDL_DestroyRenderer)         \
  X(SDL_RenderSetLogicalSize)    \
  X(SDL_RenderSetIntegerScale)   \
  X(SDL_GetRendererOutputSize)   \
  X(SDL_RenderReadPixels)        \
  X(SDL_SetRenderDrawColor)      \
  X(SDL_RenderClear)             \
  X(SDL_RenderCopy)              \
  X(SDL_RenderPresent)           \
  X(SDL_CreateTexture)           \
  X(SDL_DestroyTexture)          \
  X(SDL_LockTexture)             \
  X(SDL_UnlockTexture)           \
  X(SDL_PollEvent)               \
  X(SDL_WaitEventTimeout)        \
  X(SDL_GetTicks64)              \
  X(SDL_GetKeyName)              \
  X(SDL_GetKeyFromName)          \
  X(SDL_LogSetOutputFunction)    \
  X(SDL_LogGetOutputFunction)
// clang-format on

struct SdlLibrary {
  SHAPEVM_SDL_FUNCTIONS(SHAPEVM_FUNCTION_FIELD)
};

// Loads libSDL2-2.0.so.0 on the first call (thread-safe) and returns the same table afterwards.
// Throws InputError saying what could not be loaded.
const SdlLibrary& sdl_library();

}  // namespace shapevm::harness
