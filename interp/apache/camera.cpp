#include "interp/apache/camera.h"

namespace shapevm::apache {
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

}  // namespace shapevm::apache
