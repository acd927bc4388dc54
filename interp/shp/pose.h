// Where each part of a Starlancer model is drawn: its placement in the model frame (at rest and
// in an animation clip's pose), the level of detail chosen for it, and the clip events a step
// fires (docs/shp-drawing.md, "Parts", "Levels of detail", "Clips").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "interp/shp/draw_state.h"
#include "interp/shp/fixed_math.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

// --- Clips (SL-23) ------------------------------------------------------------------------------
// The part's last clip named `name` (case-insensitive), as the engine fills a named slot.
const Clip* find_clip(const Part& part, std::string_view name);
// The clip time after `frame` 25 Hz steps from 0 for the clip's playback mode: once (and 0,
// "none") stops at the end, loop wraps, ping-pong goes out and back. A length <= 0 stays at 0.
int64_t clip_time(const Clip& clip, int64_t frame);
// The pose at `time`: linear between the bracketing keyframes; before the first keyframe from a
// zero pose at time 0; the last held after it. Angles in radians, offset in model units.
struct ClipPose {
  std::array<double, 3> angles{};
  std::array<double, 3> offset{};
};
ClipPose clip_pose(const Clip& clip, int64_t time);

// One clip event a step fires: integer times in [old, new) of the step from frame - 1 to frame
// (a loop's wrap fires both spans; ping-pong fires none).
struct FiredEvent {
  uint32_t part = 0;
  uint32_t clip = 0;
  uint32_t event = 0;
  int32_t time = 0;
  int32_t kind = 0;
};
std::vector<FiredEvent> fired_events(const Model& model, std::string_view clip_name,
                                     uint32_t frame);

// --- Placement (SL-20) --------------------------------------------------------------------------
// Part frame (view units) -> model frame (view units) for every part. At rest a part's vertex is
// origin + vertex: its orientation is not applied, and its origin is in the model frame whatever
// its parent. In a clip's pose a part turns by O^T R O about its mount point, moves by the
// keyframe offset, and carries its children with it. A parent index out of range or a cycle
// leaves the part hanging from the model root.
std::vector<Affine> place_parts(const Model& model, const DrawState& state);

// --- Level of detail (SL-15) --------------------------------------------------------------------
struct LodChoice {
  int32_t level = 0;  // -1: the part is not drawn at this distance (the ported rule's cut-off)
  Q16 morph = 0;      // geomorph weight toward the next coarser level (0..65536)
};
// `depth`: the view depth of the part's origin, view units.
LodChoice choose_level(const Part& part, int64_t depth, LodRule rule,
                       std::optional<uint32_t> forced);

// --- Default camera -----------------------------------------------------------------------------
// The camera the state asks for, fitted to the model: it looks at the centre of the placed
// level-0 box of the parts drawn, from --camera's distance or the fitted one
// (draw_assumptions.h).
struct CameraFit {
  Camera camera;
  P3 target{};
  int64_t radius = 0;  // half the box's diagonal, view units
};
CameraFit fit_camera(const Model& model, const std::vector<Affine>& places, const DrawState& state);

}  // namespace shapevm::shp
