// Integer geometry of a Battle Isle 2 draw: a part's pose (its pivot turned in Z, then X, then Y
// order, its translation added after, as the seed traces), and the orbiting camera that takes the
// +y-down model frame into view space. Q15 sines (core/trig_q15.h), rounded products: the same
// bytes on every machine.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "interp/bi2/mesh.h"
#include "interp/common/events.h"

namespace shapevm::bi2 {

using Vec3 = std::array<int32_t, 3>;

struct PartPose {
  Vec3 angles{};       // X, Y, Z, in the unit assumptions.h names (degrees)
  Vec3 translation{};  // X, Y, Z model units, added after the rotation
  bool operator==(const PartPose&) const = default;
};

// `v` turned by `angles` (X, Y, Z) about the origin: Z first, then X, then Y.
Vec3 rotate_zxy(const Vec3& v, const Vec3& angles);
// The mesh's vertices with every part posed: for each part in order, each vertex of its list
// becomes pivot + rotate_zxy(vertex - pivot) + translation. `poses` may be shorter than the
// parts (the rest are at rest: the on-disk translation and angles).
std::vector<Vec3> posed_vertices(const Mesh& mesh, const std::vector<PartPose>& poses);

struct CameraSpec {
  int32_t distance = 0;  // model units; 0 = from the model's size
  int heading = 0;       // degrees about the up axis
  int pitch = 0;         // degrees; positive looks down
  bool operator==(const CameraSpec&) const = default;
};

// A camera orbiting `target` (model frame, +y down).
class View {
 public:
  View(const CameraSpec& spec, const Vec3& target);
  ViewPoint to_view(const Vec3& model) const;  // x right, y up, z toward the viewer

 private:
  std::array<int32_t, 3> right_{}, up_{}, forward_{};  // Q15, y-up world
  std::array<int64_t, 3> eye_{};
};

}  // namespace shapevm::bi2
