// The program that runs for a Battle Isle 2 mesh or scene: its draw (docs/bi2.md, "The draw").
// Parts are posed, every vertex is taken into view space, the polygons are sorted farthest first
// (the painter's algorithm, assumptions.h) and each is emitted as one step: a pause point, an
// OpEvent "draw_polygon" / "draw_line" with its fields, and its FaceEvent with colour = shade +
// ramp centre + bias in the fight palette. A scene (3DLD) draws every placed object's polygons
// in one sorted list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/bi2/mesh.h"
#include "interp/bi2/run_state.h"
#include "interp/common/engine.h"

namespace shapevm::bi2 {

// One mesh placed in the drawing: a lone mesh at the origin, or a 3DLD placement.
struct Instance {
  const Mesh* mesh = nullptr;
  Vec3 offset{};           // model units (x, 0, z for a placement)
  int32_t placement = -1;  // the placement index; -1 for a lone mesh
  uint16_t object_id = 0;  // the LAND object id (scenes)
};

// The palette index of a polygon (assumptions.h: shade + ramp centre + bias), unclamped.
int32_t polygon_colour(const Polygon& polygon);
// The part that owns polygon `index`, or -1.
int32_t owning_part(const Mesh& mesh, uint32_t index);
// The default camera distance (`--camera fit`: the instances at rest fill a width x height frame
// seen at the camera's heading and pitch) and the target, for these instances at rest.
int32_t default_camera_distance(const std::vector<Instance>& instances, const CameraSpec& camera,
                                int width, int height);
Vec3 camera_target(const std::vector<Instance>& instances);

// Runs the draw: posed parts (lone meshes only), sorted polygons, events into `sink`, a pause
// before every polygon and at the end. Notes of the meshes are emitted first as diagnostics.
RunOutcome run_draw(const std::vector<Instance>& instances, const RunState& state, EventSink& sink,
                    PauseHandler* pause);

}  // namespace shapevm::bi2
