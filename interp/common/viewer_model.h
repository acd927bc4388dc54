// The viewer's model of a program (DESIGN.md: one interface per engine): what an engine tells the
// engine-neutral viewer (harness/viewer_session) about a shape: its LOD and detail levels,
// animation length, the inputs it reads and the values they are compared against, the rate its
// frame counter advances at; and how it runs the shape for one viewer state into an event sink.
// Each engine implements ViewerModel in its own folder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/events.h"
#include "interp/common/render_setup.h"
#include "raster/palette.h"

namespace shapevm {

// One state knob the static analysis found, with the values it is compared against
// (FA: an articulation input such as _PLgearDown; Apache: an animation value or attached slot).
struct ViewerInput {
  std::string name;
  std::vector<int64_t> values;  // ascending; empty when the input is read but never compared
  int64_t engine_default = 0;   // what the engine holds when nothing sets it
};

struct ViewerCamera {
  int32_t distance = 0;  // the engine's units, > 0
  int heading = 0;       // degrees, 0..359
  int pitch = 0;         // degrees, -89..89
  bool operator==(const ViewerCamera&) const = default;
};

// Everything the viewer can change; the engine adapter maps it onto its own run state.
struct ViewerState {
  uint32_t frame = 0;           // the engine's frame counter (already wrapped)
  std::optional<uint32_t> lod;  // forced LOD level; empty = chosen by camera distance
  uint32_t detail_level = 0;    // 0 = full detail, higher = coarser (engine's levels)
  bool destroyed = false;
  bool effects = false;  // the engine's effects switch (FA: _effects bit 0x20000)
  ViewerCamera camera;
  // Parallel to ViewerCapabilities::inputs: index into that input's values, or empty for the
  // engine default (the input not set).
  std::vector<std::optional<size_t>> inputs;
  bool operator==(const ViewerState&) const = default;
};

struct ViewerCapabilities {
  std::string engine;                  // "fa", "apache", ...
  std::string source;                  // the file shown
  uint32_t lod_levels = 1;             // >= 1
  uint32_t detail_levels = 1;          // >= 1
  uint32_t animation_frames = 0;       // the longest animation in frames; 0 = static
  uint32_t frame_counter_modulus = 0;  // the counter wraps to 0 here; 0 = never
  double frame_rate = 0;               // frame counter increments per second
  std::vector<ViewerInput> inputs;
};

// How one run ended (the engine's own words).
struct ViewerRunResult {
  bool clean = true;
  std::string reason;
};

class ViewerModel {
 public:
  virtual ~ViewerModel() = default;
  virtual const ViewerCapabilities& capabilities() const = 0;
  // The state the viewer opens in (from the command line's state options).
  virtual ViewerState initial_state() const = 0;
  // Runs the shape for `state` drawn into a frame `height` pixels high; every event goes to
  // `sink`. Throws InputError when the shape cannot run at all.
  virtual ViewerRunResult run(const ViewerState& state, int32_t height, EventSink& sink) = 0;
  // The engine's full run state as one JSON object (the trace's "state").
  virtual std::string state_json(const ViewerState& state, int32_t height) const = 0;
  virtual const raster::Palette& palette() const = 0;
  virtual TextureLookup textures() = 0;
  // How a frame `height` pixels high is projected and drawn; default: the frame height as the
  // focal length, the default near plane, no depth test.
  virtual FrameSettings frame_settings(int32_t height) const {
    FrameSettings settings;
    settings.focal_pixels = height;
    return settings;
  }
};

}  // namespace shapevm
