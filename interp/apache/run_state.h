// The state one Apache run draws: the per-instance animation value the mask and select opcodes
// read, LOD, camera, light and sun direction, shadow planes, the frame geometry the winding test
// projects with, gameplay-filled attachment slots, and the budgets.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "interp/apache/assumptions.h"
#include "interp/apache/camera.h"
#include "interp/apache/opcodes.h"

namespace shapevm::apache {

struct RunState {
  uint32_t anim = 0;            // --set anim=N (the animation value opcodes 3..5 test)
  std::optional<uint32_t> lod;  // follow the LOD chain this many times (default: by distance)
  CameraSpec camera{0, assumed::kDefaultCameraHeading, assumed::kDefaultCameraPitch};
  // Toward the light (and the sun), world axes; any length (normalised when used).
  std::array<int32_t, 3> light{assumed::kDefaultLight[0], assumed::kDefaultLight[1],
                               assumed::kDefaultLight[2]};
  bool shadows = true;               // models with property bit 0 cast shadows
  std::optional<int32_t> ground;     // shadow plane height (default: the model's minimum y)
  std::optional<int32_t> cloud;      // cloud layer height: the plane when the model is above it
  std::optional<uint32_t> receiver;  // a record with property bit 1 under the model (deck)
  int receiver_heading = 0;          // its rotation about y, degrees
  // false: Gouraud faces use their face normal, and only the normal list's second count of
  // entries (the subset kept without Gouraud shading) is there to index (AP-24).
  bool gouraud = true;
  // Whether primary polygons whose winding is negative are culled (op 0). The seed says op 0
  // draws its face and updates the winding result, so the default draws them (assumptions.h).
  bool cull_primaries = assumed::kDefaultCullPrimaries;
  // How a secondary packet's length byte is read (AP-21; the seed: the whole packet).
  SecondaryLength secondary_length = kSeedSecondaryLength;
  // Gameplay-filled attachment slots (model ID 0): record index -> model record to draw there.
  std::map<uint32_t, uint32_t> slots;
  // The frame the winding test projects into (the renderer must use the same).
  int32_t width = 640, height = 480, focal_pixels = 480, near_z = 256;
  uint64_t step_limit = assumed::kDefaultStepLimit;
  uint32_t depth_limit = assumed::kDefaultDepthLimit;
};

// NAME=VALUE: anim, lod, light=x,y,z, shadows=0|1, ground, cloud, receiver, receiver_heading,
// gouraud=0|1, cull_primaries=0|1, secondary_length=whole|packet, slotN=RECORD. InputError naming
// the argument otherwise.
void apply_set(RunState& state, const std::string& assignment);

}  // namespace shapevm::apache
