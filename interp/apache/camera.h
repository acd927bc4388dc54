// Integer camera maths for Apache frames: a Q15 sine table, an orbiting view basis for the
// project's y-up model axes (assumptions.h) and the world-to-view transform. Everything is
// integer so frames are identical on every machine.
#pragma once

#include <array>
#include <cstdint>

#include "core/trig_q15.h"
#include "interp/common/events.h"

namespace shapevm::apache {

// The shared Q15 table (core/trig_q15.h).
using shapevm::cos_q15;
using shapevm::sin_q15;

struct CameraSpec {
  int32_t distance = 0;  // model units; 0 = choose from the model's radius
  int heading = 0;       // degrees about the up (y) axis; 0 = viewer on -z looking along +z
  int pitch = 0;         // degrees; positive looks down on the model
};

struct View {
  std::array<int32_t, 3> right{}, up{}, forward{};  // Q15 unit vectors
  std::array<int64_t, 3> eye{};                     // camera position, model units
  // x right, y up, z toward the viewer (events.h ViewPoint), in model units.
  ViewPoint to_view(const std::array<int64_t, 3>& world) const;
};

// A view orbiting `target` at the spec's distance, heading and pitch.
View make_view(const CameraSpec& spec, const std::array<int64_t, 3>& target);

}  // namespace shapevm::apache
