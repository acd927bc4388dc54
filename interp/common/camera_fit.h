// The camera distance that frames a model: `--camera fit`, and every engine's default. Each engine
// hands over its model's points (vertices, or the corners of its bounding box) already turned
// into the camera's orientation for the heading and pitch it will use, relative to the point the
// camera looks at; this chooses the nearest distance at which every point projects inside the
// stated share of the frame. Integer arithmetic only, so every machine chooses the same distance.
#pragma once

#include <cstdint>
#include <span>

namespace shapevm {

// A point in the camera's orientation, relative to the camera's target, in the engine's model
// units: x right, y up, `toward` the distance from the target towards the camera (a point with
// toward > 0 is nearer than the target).
struct FitPoint {
  int64_t x = 0;
  int64_t y = 0;
  int64_t toward = 0;
};

// The share of the frame the fitted points may span, each way from the centre: 7/8 of the half
// width and of the half height, so the model fills most of the frame with a margin at the edges.
inline constexpr int64_t kFitNumerator = 7;
inline constexpr int64_t kFitDenominator = 8;

// The projection the engine uses: screen offset = focal_pixels * x / depth, where depth = the
// distance minus `toward`; `near` is its near plane in model units (every point stays at least
// that far in front of the camera). Returns at least `minimum` (>= 1).
struct FitProjection {
  int width = 640;
  int height = 480;
  int64_t focal_pixels = 480;
  int64_t near = 1;
  int64_t minimum = 1;
};

// The smallest distance at which every point lies inside the fitted share of the frame; the
// minimum for no points.
int64_t fit_distance(std::span<const FitPoint> points, const FitProjection& projection);

}  // namespace shapevm
