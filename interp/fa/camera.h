// Integer camera maths for FA frames: a Q15 sine table (FA angles come from a table too), the
// view matrix m1..m9 in the engine's Q15 layout, and the viewer-relative object position.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/trig_q15.h"

namespace shapevm::fa {

// The shared Q15 table (core/trig_q15.h).
using shapevm::cos_q15;
using shapevm::sin_q15;

struct CameraSpec {
  int32_t distance = 0;  // shape units; 0 = choose from the header radius
  int heading = 0;       // degrees, camera orbit about the up (Z) axis; 0 = camera behind (-Y)
  int pitch = 0;         // degrees, camera elevation; positive looks down on the shape
};

// The view: row-vector convention view = (v + rel) * M, so column 3 (m3, m6, m9) is the depth
// axis as in the seed's JumpToLOD formula, and depth = -view_z.
struct ViewSetup {
  std::array<int16_t, 9> m{};      // m1..m9, row-major, Q15
  int32_t xv = 0, yv = 0, zv = 0;  // object position relative to the viewer, shape units
};

ViewSetup make_view(const CameraSpec& camera);

// The distance at which these shape-space vertices, seen at the camera's heading and pitch, fill
// the frame (interp/common/camera_fit.h): the default camera and `--camera fit`.
int32_t fit_camera_distance(std::span<const std::array<int16_t, 3>> vertices,
                            const CameraSpec& camera, int width, int height);

}  // namespace shapevm::fa
