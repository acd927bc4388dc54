// The viewer's engine-neutral core (issue 8): the state the user turns (frame counter, forced LOD,
// detail, destroyed, effects, camera, articulation inputs), what each action does to it, the
// frame clock that advances the engine's frame counter at the engine's rate, the rendered frame
// with its counts (faces drawn, opcodes executed, both from the event stream) and the status
// text. No window system here: the SDL front end (viewer_sdl.*) and the headless loop drive it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "harness/viewer_actions.h"
#include "harness/viewer_engine.h"
#include "raster/framebuffer.h"

namespace shapevm::harness {

// What a rendered view holds besides its pixels.
struct ViewStats {
  uint64_t faces_drawn = 0;  // filled by the frame renderer
  uint64_t faces_culled = 0;
  uint64_t ops = 0;  // opcodes executed, counted from the event stream
  bool clean = true;
  std::string reason;  // how the run ended
};

// What the front end must do after an action the session cannot finish alone.
enum class ViewerOutcome { kNone, kChanged, kQuit, kSavePng, kSaveTrace };

inline constexpr int kOrbitStepDegrees = 5;
inline constexpr int kMaxPitch = 89;
inline constexpr int32_t kMinDistance = 1;
inline constexpr int32_t kMaxDistance = 1 << 20;

class ViewerSession {
 public:
  // Throws std::invalid_argument for a size outside Framebuffer's limits.
  ViewerSession(ViewerEngine& engine, int width, int height, uint8_t background = 0);

  const ViewerCapabilities& capabilities() const { return engine_.capabilities(); }
  const ViewerState& state() const { return state_; }
  // Replaces the state (kept within the engine's levels and the camera limits).
  void set_state(ViewerState state);
  bool paused() const { return paused_; }
  void set_paused(bool paused) { paused_ = paused; }
  // The articulation input the value keys act on (index into capabilities().inputs).
  size_t selected_input() const { return selected_input_; }

  // Applies one action. Saving and quitting are left to the front end (it owns the paths).
  ViewerOutcome apply(ViewerAction action);
  // Camera changes by mouse: degrees of orbit, wheel notches (positive = in). A drag moves the
  // camera one degree per kDragDegreesPerPixelDivisor pixels, keeping the remainder.
  void orbit(int heading_degrees, int pitch_degrees);
  void zoom(int steps);
  void drag(int dx_pixels, int dy_pixels);

  // The frame counter: +n (negative steps back), wrapping at the engine's modulus.
  void step_frames(int64_t n);
  // Real time passing: advances the counter by the whole engine frames that fit in the elapsed
  // time at the engine's rate (the remainder carries over), unless paused. Returns the number of
  // frames advanced.
  uint64_t advance_time(uint64_t microseconds);

  // The frame for the current state, re-rendered only when the state changed since the last call.
  const raster::Framebuffer& frame();
  const ViewStats& stats();
  const raster::Palette& palette() const { return engine_.palette(); }

  // "frame 12/8 | lod auto | detail 0/2 | ..." : the state, faces drawn and opcodes executed.
  std::string status_line();
  // The window title: the engine, the file and the status line.
  std::string title();

  // Writes the current frame as an indexed PNG / the current frame's trace as JSON Lines (run
  // again with a trace writer; first line the engine's state). Both refuse to overwrite.
  void save_png(const std::filesystem::path& path);
  void save_trace(const std::filesystem::path& path);
  // A name in `dir` for the current frame that does not exist yet:
  // "<stem>_f<counter>.<ext>", then "<stem>_f<counter>_2.<ext>", ...
  std::filesystem::path unused_path(const std::filesystem::path& dir, std::string_view ext) const;

 private:
  void render_if_needed();
  void normalise(ViewerState& s) const;

  ViewerEngine& engine_;
  ViewerState initial_;
  ViewerState state_;
  raster::Framebuffer frame_;
  uint8_t background_;
  ViewStats stats_;
  bool rendered_ = false;
  ViewerState rendered_state_;
  bool paused_ = false;
  size_t selected_input_ = 0;
  uint64_t clock_remainder_ = 0;  // microseconds x rate not yet worth a whole frame
  int drag_dx_ = 0, drag_dy_ = 0;
};

}  // namespace shapevm::harness
