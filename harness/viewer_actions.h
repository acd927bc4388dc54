// What a viewer user can do, and which key does it. The binding table is engine neutral and names
// keys the way SDL names them (SDL_GetKeyName), so the SDL front end resolves them, the docs list
// them (docs/viewer.md) and tests check both without a window.
#pragma once

#include <span>
#include <string_view>

namespace shapevm::harness {

enum class ViewerAction {
  kOrbitLeft,
  kOrbitRight,
  kPitchUp,
  kPitchDown,
  kZoomIn,
  kZoomOut,
  kResetCamera,
  kFrameNext,
  kFramePrev,
  kFrameReset,
  kTogglePause,
  kLodNext,
  kLodAuto,
  kDetailNext,
  kToggleDestroyed,
  kToggleEffects,
  kInputSelectNext,
  kInputValueNext,
  kInputValuePrev,
  kSavePng,
  kSaveTrace,
  kQuit,
};

struct KeyBinding {
  std::string_view key;  // SDL key name ("Left", "PageUp", "L", "=")
  ViewerAction action;
  std::string_view what;  // one line for the docs and --help
};

// Every binding; one action may have several keys. Ordered as docs/viewer.md lists them.
std::span<const KeyBinding> key_bindings();

// The binding's action for an SDL key name (case-insensitive); nullptr if unbound.
const KeyBinding* binding_for_key(std::string_view key);

// Mouse: a drag orbits by this many degrees per pixel moved; one wheel notch zooms one step.
inline constexpr int kDragDegreesPerPixelDivisor = 2;  // heading/pitch change = pixels / 2

}  // namespace shapevm::harness
