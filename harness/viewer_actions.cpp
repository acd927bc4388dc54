#include "harness/viewer_actions.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace shapevm::harness {

namespace {

using A = ViewerAction;

constexpr std::array kBindings{
    KeyBinding{"Left", A::kOrbitLeft, "orbit the camera left (heading -5 degrees)"},
    KeyBinding{"Right", A::kOrbitRight, "orbit the camera right (heading +5 degrees)"},
    KeyBinding{"Up", A::kPitchUp, "raise the camera (pitch +5 degrees)"},
    KeyBinding{"Down", A::kPitchDown, "lower the camera (pitch -5 degrees)"},
    KeyBinding{"=", A::kZoomIn, "zoom in (distance x 7/8)"},
    KeyBinding{"Keypad +", A::kZoomIn, "zoom in"},
    KeyBinding{"PageUp", A::kZoomIn, "zoom in"},
    KeyBinding{"-", A::kZoomOut, "zoom out (distance x 8/7)"},
    KeyBinding{"Keypad -", A::kZoomOut, "zoom out"},
    KeyBinding{"PageDown", A::kZoomOut, "zoom out"},
    KeyBinding{"Home", A::kResetCamera, "camera back to where it started"},
    KeyBinding{"Space", A::kTogglePause, "pause or resume the frame counter"},
    KeyBinding{".", A::kFrameNext, "frame counter +1 (pauses)"},
    KeyBinding{",", A::kFramePrev, "frame counter -1 (pauses)"},
    KeyBinding{"0", A::kFrameReset, "frame counter to 0 (as on a screen transition)"},
    KeyBinding{"L", A::kLodNext, "force the next LOD level (auto, 0, 1, ..., auto)"},
    KeyBinding{"A", A::kLodAuto, "LOD chosen by camera distance again"},
    KeyBinding{"D", A::kDetailNext, "next detail level (0 = full, wraps)"},
    KeyBinding{"X", A::kToggleDestroyed, "toggle destroyed"},
    KeyBinding{"E", A::kToggleEffects, "toggle effects"},
    KeyBinding{"Tab", A::kInputSelectNext, "select the next articulation input"},
    KeyBinding{"I", A::kInputValueNext,
               "selected input: next value (engine default, each compared value, default)"},
    KeyBinding{"U", A::kInputValuePrev, "selected input: previous value"},
    KeyBinding{"P", A::kSavePng, "write the current frame as an indexed PNG"},
    KeyBinding{"T", A::kSaveTrace, "write the trace of the current frame (JSON Lines)"},
    KeyBinding{"Escape", A::kQuit, "quit"},
    KeyBinding{"Q", A::kQuit, "quit"},
};

bool same_key(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const KeyBinding> key_bindings() {
  return kBindings;
}

const KeyBinding* binding_for_key(std::string_view key) {
  for (const auto& b : kBindings)
    if (same_key(b.key, key)) return &b;
  return nullptr;
}

}  // namespace shapevm::harness
