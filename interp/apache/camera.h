// Integer camera maths for Apache frames: a Q15 sine table, an orbiting view basis for the
// project's y-up model axes (assumptions.h) and the world-to-view transform. Everything is
// integer so frames are identical on every machine.
#pragma once

#include <algorithm>
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
  // x right, y up, z toward the viewer (events.h ViewPoint), in model units. Inline: a run turns
  // every vertex of every model it draws, and the call was a seventh of a run's time.
  [[gnu::always_inline]] ViewPoint to_view(const std::array<int64_t, 3>& world) const {
    const int64_t dx = world[0] - eye[0], dy = world[1] - eye[1], dz = world[2] - eye[2];
    auto dot = [&](const std::array<int32_t, 3>& a) {
      return (dx * a[0] + dy * a[1] + dz * a[2]) >> 15;
    };
    // Symmetric saturation: view coordinates are negated downstream (depth = -z), so INT32_MIN
    // is never produced.
    auto saturate = [](int64_t v) {
      return static_cast<int32_t>(std::clamp<int64_t>(v, -INT32_MAX, INT32_MAX));
    };
    return {saturate(dot(right)), saturate(dot(up)), saturate(-dot(forward))};
  }
  bool operator==(const View&) const = default;
};

// A view orbiting `target` at the spec's distance, heading and pitch.
View make_view(const CameraSpec& spec, const std::array<int64_t, 3>& target);

}  // namespace shapevm::apache
