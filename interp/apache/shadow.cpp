#include "interp/apache/shadow.h"

#include "interp/apache/camera.h"

namespace shapevm::apache {

ShadowStyle shadow_style(const PacketType& type) {
  if (type.primitive != Primitive::kPolygon) return ShadowStyle::kNone;
  if (type.remap == Remap::kHeatHaze) return ShadowStyle::kNone;
  if (type.remap == Remap::kGlass) return ShadowStyle::kMediumMesh;
  return ShadowStyle::kFineMesh;
}

std::optional<uint32_t> shadow_geometry_record(uint32_t record) {
  if (record == 0x4ba || record == 0x4bb) return kSharedShadowGeometry;
  return std::nullopt;
}

std::optional<std::array<int64_t, 3>> project_onto_plane(const std::array<int64_t, 3>& point,
                                                         const std::array<int32_t, 3>& sun,
                                                         int64_t plane_y) {
  if (sun[1] <= 0) return std::nullopt;
  const int64_t drop = point[1] - plane_y;  // how far the point is above the plane
  return std::array<int64_t, 3>{point[0] - drop * sun[0] / sun[1], plane_y,
                                point[2] - drop * sun[2] / sun[1]};
}

std::optional<int32_t> receiver_plane(const ModelHeader& receiver, int heading, int64_t x,
                                      int64_t z) {
  if (!receiver.receives_shadows()) return std::nullopt;
  // Rotate the point into the receiver's frame (the inverse of its heading) and test its bounds.
  const int64_t s = sin_q15(heading), c = cos_q15(heading);
  const int64_t lx = (x * c - z * s) >> 15;
  const int64_t lz = (x * s + z * c) >> 15;
  const auto& b = receiver.bounds;
  if (lx < b[0] || lx > b[1] || lz < b[4] || lz > b[5]) return std::nullopt;
  return receiver.height;
}

}  // namespace shapevm::apache
