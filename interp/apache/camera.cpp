#include "interp/apache/camera.h"

#include <algorithm>

namespace shapevm::apache {
namespace {

// Symmetric saturation: view coordinates are negated downstream (depth = -z), so INT32_MIN is
// never produced.
int32_t saturate(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, -INT32_MAX, INT32_MAX));
}

}  // namespace

View make_view(const CameraSpec& spec, const std::array<int64_t, 3>& target) {
  const int64_t sh = sin_q15(spec.heading), ch = cos_q15(spec.heading);
  const int64_t sp = sin_q15(spec.pitch), cp = cos_q15(spec.pitch);
  View v;
  v.forward = {static_cast<int32_t>((sh * cp) >> 15), static_cast<int32_t>(-sp),
               static_cast<int32_t>((ch * cp) >> 15)};
  v.right = {static_cast<int32_t>(ch), 0, static_cast<int32_t>(-sh)};
  // up = forward x right (left-handed model axes: x right, y up, z forward).
  const auto& f = v.forward;
  const auto& r = v.right;
  v.up = {static_cast<int32_t>((int64_t{f[1]} * r[2] - int64_t{f[2]} * r[1]) >> 15),
          static_cast<int32_t>((int64_t{f[2]} * r[0] - int64_t{f[0]} * r[2]) >> 15),
          static_cast<int32_t>((int64_t{f[0]} * r[1] - int64_t{f[1]} * r[0]) >> 15)};
  for (size_t i = 0; i < 3; ++i) v.eye[i] = target[i] - ((int64_t{f[i]} * spec.distance) >> 15);
  return v;
}

ViewPoint View::to_view(const std::array<int64_t, 3>& world) const {
  const int64_t dx = world[0] - eye[0], dy = world[1] - eye[1], dz = world[2] - eye[2];
  auto dot = [&](const std::array<int32_t, 3>& a) {
    return (dx * a[0] + dy * a[1] + dz * a[2]) >> 15;
  };
  return {saturate(dot(right)), saturate(dot(up)), saturate(-dot(forward))};
}

}  // namespace shapevm::apache
