#include "harness/viewer_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/event_counter.h"
#include "harness/frame_renderer.h"
#include "harness/trace_writer.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

// Zoom is a ratio per step so that it feels the same near and far: 7/8 in, 8/7 out, zooming out
// never stalling on small distances (at least one unit per step).
int32_t zoom_distance(int32_t distance, int steps) {
  int64_t d = distance;
  for (; steps > 0; --steps) d = std::max<int64_t>(kMinDistance, d * 7 / 8);
  for (; steps < 0; ++steps) d = std::max<int64_t>(d + 1, d * 8 / 7);
  return static_cast<int32_t>(std::clamp<int64_t>(d, kMinDistance, kMaxDistance));
}

int wrap_degrees(int degrees) {
  return ((degrees % 360) + 360) % 360;
}

}  // namespace

ViewerSession::ViewerSession(ViewerEngine& engine, int width, int height, uint8_t background)
    : engine_(engine), frame_(width, height, background), background_(background) {
  initial_ = engine_.initial_state();
  normalise(initial_);
  state_ = initial_;
}

void ViewerSession::normalise(ViewerState& s) const {
  const auto& caps = engine_.capabilities();
  if (caps.frame_counter_modulus) s.frame %= caps.frame_counter_modulus;
  if (s.lod && *s.lod >= caps.lod_levels) s.lod = caps.lod_levels - 1;
  if (s.detail_level >= caps.detail_levels) s.detail_level = caps.detail_levels - 1;
  s.camera.distance = std::clamp(s.camera.distance, kMinDistance, kMaxDistance);
  s.camera.heading = wrap_degrees(s.camera.heading);
  s.camera.pitch = std::clamp(s.camera.pitch, -kMaxPitch, kMaxPitch);
  s.inputs.resize(caps.inputs.size());
  for (size_t i = 0; i < s.inputs.size(); ++i)
    if (s.inputs[i] && *s.inputs[i] >= caps.inputs[i].values.size()) s.inputs[i].reset();
}

void ViewerSession::set_state(ViewerState state) {
  normalise(state);
  state_ = std::move(state);
}

void ViewerSession::orbit(int heading_degrees, int pitch_degrees) {
  state_.camera.heading = wrap_degrees(state_.camera.heading + heading_degrees);
  state_.camera.pitch = std::clamp(state_.camera.pitch + pitch_degrees, -kMaxPitch, kMaxPitch);
}

void ViewerSession::zoom(int steps) {
  state_.camera.distance = zoom_distance(state_.camera.distance, steps);
}

void ViewerSession::drag(int dx_pixels, int dy_pixels) {
  drag_dx_ += dx_pixels;
  drag_dy_ += dy_pixels;
  const int dh = drag_dx_ / kDragDegreesPerPixelDivisor;
  const int dp = drag_dy_ / kDragDegreesPerPixelDivisor;
  drag_dx_ -= dh * kDragDegreesPerPixelDivisor;
  drag_dy_ -= dp * kDragDegreesPerPixelDivisor;
  // Dragging down lifts the camera over the shape, as if pulling the view.
  orbit(dh, dp);
}

void ViewerSession::step_frames(int64_t n) {
  const uint32_t modulus = engine_.capabilities().frame_counter_modulus;
  if (modulus) {
    const int64_t m = modulus;
    state_.frame = static_cast<uint32_t>(((int64_t{state_.frame} + n) % m + m) % m);
  } else {
    state_.frame = static_cast<uint32_t>(int64_t{state_.frame} + n);
  }
}

uint64_t ViewerSession::advance_time(uint64_t microseconds) {
  if (paused_) return 0;
  // Integer arithmetic in millihertz so the clock never drifts by rounding.
  const auto millihertz = static_cast<uint64_t>(std::llround(capabilities().frame_rate * 1000.0));
  if (millihertz == 0) return 0;
  constexpr uint64_t kMicrosecondMillihertz = 1'000'000'000;  // 1 frame = 1e6 us * 1e3 mHz
  clock_remainder_ += microseconds * millihertz;
  const uint64_t frames = clock_remainder_ / kMicrosecondMillihertz;
  clock_remainder_ %= kMicrosecondMillihertz;
  if (frames) step_frames(static_cast<int64_t>(frames));
  return frames;
}

ViewerOutcome ViewerSession::apply(ViewerAction action) {
  const auto& caps = capabilities();
  using A = ViewerAction;
  switch (action) {
    case A::kOrbitLeft:
      orbit(-kOrbitStepDegrees, 0);
      break;
    case A::kOrbitRight:
      orbit(kOrbitStepDegrees, 0);
      break;
    case A::kPitchUp:
      orbit(0, kOrbitStepDegrees);
      break;
    case A::kPitchDown:
      orbit(0, -kOrbitStepDegrees);
      break;
    case A::kZoomIn:
      zoom(1);
      break;
    case A::kZoomOut:
      zoom(-1);
      break;
    case A::kResetCamera:
      state_.camera = initial_.camera;
      break;
    case A::kFrameNext:
      paused_ = true;
      step_frames(1);
      break;
    case A::kFramePrev:
      paused_ = true;
      step_frames(-1);
      break;
    case A::kFrameReset:
      state_.frame = 0;
      break;
    case A::kTogglePause:
      paused_ = !paused_;
      break;
    case A::kLodNext:
      if (!state_.lod)
        state_.lod = 0;
      else if (*state_.lod + 1 < caps.lod_levels)
        state_.lod = *state_.lod + 1;
      else
        state_.lod.reset();
      break;
    case A::kLodAuto:
      state_.lod.reset();
      break;
    case A::kDetailNext:
      state_.detail_level = (state_.detail_level + 1) % caps.detail_levels;
      break;
    case A::kToggleDestroyed:
      state_.destroyed = !state_.destroyed;
      break;
    case A::kToggleEffects:
      state_.effects = !state_.effects;
      break;
    case A::kInputSelectNext:
      if (!caps.inputs.empty()) selected_input_ = (selected_input_ + 1) % caps.inputs.size();
      break;
    case A::kInputValueNext:
    case A::kInputValuePrev: {
      if (caps.inputs.empty()) break;
      const size_t n = caps.inputs[selected_input_].values.size();
      if (n == 0) break;  // read but never compared: nothing to cycle through
      // The cycle is: engine default (unset), values[0], ..., values[n-1], engine default.
      auto& choice = state_.inputs[selected_input_];
      const size_t position = choice ? *choice + 1 : 0;  // 0 = unset
      const size_t next =
          action == A::kInputValueNext ? (position + 1) % (n + 1) : (position + n) % (n + 1);
      if (next == 0)
        choice.reset();
      else
        choice = next - 1;
      break;
    }
    case A::kSavePng:
      return ViewerOutcome::kSavePng;
    case A::kSaveTrace:
      return ViewerOutcome::kSaveTrace;
    case A::kQuit:
      return ViewerOutcome::kQuit;
  }
  return ViewerOutcome::kChanged;
}

void ViewerSession::render_if_needed() {
  if (rendered_ && rendered_state_ == state_) return;
  frame_.clear(background_);
  FrameRenderer renderer(frame_, engine_.frame_settings(frame_.height()), engine_.textures());
  EventCounter counter;
  MultiSink sinks;
  sinks.add(&renderer);
  sinks.add(&counter);
  const ViewerRunResult result = engine_.run(state_, frame_.height(), sinks);
  stats_ = {renderer.faces_filled(), renderer.faces_culled(), counter.ops(), result.clean,
            result.reason};
  rendered_ = true;
  rendered_state_ = state_;
}

const raster::Framebuffer& ViewerSession::frame() {
  render_if_needed();
  return frame_;
}

const ViewStats& ViewerSession::stats() {
  render_if_needed();
  return stats_;
}

std::string ViewerSession::status_line() {
  render_if_needed();
  const auto& caps = capabilities();
  std::string s = fmt::format("frame {}", state_.frame);
  if (caps.animation_frames > 1)
    s += fmt::format(" (anim {}/{})", state_.frame % caps.animation_frames, caps.animation_frames);
  if (paused_) s += " paused";
  s += state_.lod ? fmt::format(" | lod {}/{}", *state_.lod, caps.lod_levels)
                  : fmt::format(" | lod auto/{}", caps.lod_levels);
  s += fmt::format(" | detail {}/{}", state_.detail_level, caps.detail_levels);
  s += fmt::format(" | destroyed {} | effects {}", state_.destroyed ? "on" : "off",
                   state_.effects ? "on" : "off");
  s += fmt::format(" | cam {},{},{}", state_.camera.distance, state_.camera.heading,
                   state_.camera.pitch);
  for (size_t i = 0; i < caps.inputs.size(); ++i) {
    const auto& in = caps.inputs[i];
    const auto& choice = state_.inputs[i];
    s += fmt::format(" | {}{}={}", i == selected_input_ ? ">" : "", in.name,
                     choice ? fmt::format("{}", in.values[*choice])
                            : fmt::format("default({})", in.engine_default));
  }
  s += fmt::format(" | faces {} | ops {}", stats_.faces_drawn, stats_.ops);
  if (!stats_.clean) s += " | stopped: " + stats_.reason;
  return s;
}

std::string ViewerSession::title() {
  const auto& caps = capabilities();
  return fmt::format("shapevm view [{}] {} - {}", caps.engine, caps.source, status_line());
}

void ViewerSession::save_png(const std::filesystem::path& path) {
  if (std::filesystem::exists(path))
    throw InputError(path.string(), "already exists (not overwritten)");
  raster::write_indexed_png(path, frame(), palette());
}

void ViewerSession::save_trace(const std::filesystem::path& path) {
  if (std::filesystem::exists(path))
    throw InputError(path.string(), "already exists (not overwritten)");
  // The trace is collected in memory and written in one go, so a failed write never leaves a
  // half-written file under the requested name.
  char* data = nullptr;
  size_t size = 0;
  std::FILE* memory = open_memstream(&data, &size);
  if (!memory) throw InputError(path.string(), "cannot allocate the trace buffer");
  std::unique_ptr<char, decltype(&std::free)> owned(nullptr, &std::free);
  try {
    TraceWriter writer(memory, true);
    writer.start(capabilities().engine, capabilities().source,
                 engine_.state_json(state_, frame_.height()));
    engine_.run(state_, frame_.height(), writer);
    writer.flush();
  } catch (...) {
    std::fclose(memory);
    owned.reset(data);
    throw;
  }
  std::fclose(memory);
  owned.reset(data);
  write_text_atomic(path, std::string(data, size), Overwrite::kRefuse);
}

std::filesystem::path ViewerSession::unused_path(const std::filesystem::path& dir,
                                                 std::string_view ext) const {
  // "FA_2.LIB:A10.SH" -> "A10": the member, without the container or the extension.
  std::string name = capabilities().source;
  if (const auto colon = name.rfind(':'); colon != std::string::npos) name.erase(0, colon + 1);
  name = std::filesystem::path(name).stem().string();
  if (name.empty()) name = "view";
  const std::string stem = fmt::format("{}_f{}", name, state_.frame);
  std::filesystem::path p = dir / fmt::format("{}.{}", stem, ext);
  for (int n = 2; std::filesystem::exists(p); ++n) p = dir / fmt::format("{}_{}.{}", stem, n, ext);
  return p;
}

}  // namespace shapevm::harness
