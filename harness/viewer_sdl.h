// The SDL2 window of the viewer: the session's frame scaled up by a whole number with nearest
// neighbour, the status in the window title, keys and mouse turned into session actions. All
// SDL-specific code of the viewer lives here (and in viewer_sdl.cpp).
#pragma once

#include <SDL.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/viewer_session.h"

namespace shapevm::harness {

struct SdlViewerOptions {
  int scale = 2;                           // window = frame size x scale (kept integer on resize)
  std::filesystem::path output_dir = ".";  // where the PNG and trace keys write
  // Save the window's own pixels (read back from the renderer) after the first frame is shown
  // and quit: for screenshots under Xvfb.
  std::optional<std::filesystem::path> screenshot;
};

// Mouse state kept between events (a drag orbits only while the left button is held).
struct SdlInputState {
  bool dragging = false;
};

// One SDL event applied to the session: keys by their SDL name through the binding table
// (viewer_actions.h), left-drag orbits, the wheel zooms, closing the window quits. Key repeat
// only repeats camera and frame-step keys. Needs no window (tests feed synthetic events).
ViewerOutcome handle_sdl_event(ViewerSession& session, SdlInputState& input,
                               const SDL_Event& event);

// SDL's own log lines as shapevm prints them: "shapevm: SDL warning: MESSAGE" (priorities below
// warning are not printed at all, whatever SDL's per-category settings say).
std::string sdl_log_line(SDL_LogPriority priority, const char* message);
// Routes SDL's log output through sdl_log_line to stderr, so every line says where it came from.
// Called before SDL is initialised; idempotent.
void install_sdl_log_output();

// Opens the window and runs until quit. Messages for saved files go to stdout, failures to
// save to stderr (the viewer keeps running). Throws std::runtime_error when SDL cannot open a
// window, or when there is no display (SDL's offscreen or dummy driver) and no screenshot was
// asked for; InputError when the screenshot cannot be written.
void run_sdl_viewer(ViewerSession& session, const SdlViewerOptions& options);

// The renderer's pixels as palette indices (each must be an exact palette colour).
raster::Framebuffer indexed_from_rgb(const std::vector<uint8_t>& rgb, int width, int height,
                                     const raster::Palette& palette, const std::string& source);

}  // namespace shapevm::harness
