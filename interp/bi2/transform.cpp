#include "interp/bi2/transform.h"

#include <algorithm>

#include "core/trig_q15.h"

namespace shapevm::bi2 {
namespace {

int32_t mul_q15(int64_t v, int64_t q15) {
  const int64_t p = v * q15;
  // Round half away from zero so +a and -a turn symmetrically.
  return static_cast<int32_t>(p >= 0 ? (p + 16384) >> 15 : -((-p + 16384) >> 15));
}

int32_t saturate(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, -INT32_MAX, INT32_MAX));
}

}  // namespace

Vec3 rotate_zxy(const Vec3& v, const Vec3& a) {
  int64_t x = v[0], y = v[1], z = v[2];
  {  // Z: x toward y
    const int64_t c = cos_q15(a[2]), s = sin_q15(a[2]);
    const int64_t nx = mul_q15(x, c) - mul_q15(y, s), ny = mul_q15(x, s) + mul_q15(y, c);
    x = nx, y = ny;
  }
  {  // X: y toward z
    const int64_t c = cos_q15(a[0]), s = sin_q15(a[0]);
    const int64_t ny = mul_q15(y, c) - mul_q15(z, s), nz = mul_q15(y, s) + mul_q15(z, c);
    y = ny, z = nz;
  }
  {  // Y: z toward x
    const int64_t c = cos_q15(a[1]), s = sin_q15(a[1]);
    const int64_t nx = mul_q15(x, c) + mul_q15(z, s), nz = mul_q15(z, c) - mul_q15(x, s);
    x = nx, z = nz;
  }
  return {saturate(x), saturate(y), saturate(z)};
}

std::vector<Vec3> posed_vertices(const Mesh& mesh, const std::vector<PartPose>& poses) {
  std::vector<Vec3> out;
  out.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices) out.push_back({v[0], v[1], v[2]});
  for (size_t i = 0; i < mesh.parts.size(); ++i) {
    const Part& part = mesh.parts[i];
    PartPose pose{{part.angles[0], part.angles[1], part.angles[2]},
                  {part.translation[0], part.translation[1], part.translation[2]}};
    if (i < poses.size()) pose = poses[i];
    if (pose == PartPose{}) continue;
    for (uint16_t index : part.vertices) {
      Vec3& p = out[index];
      const Vec3 local = {p[0] - part.pivot[0], p[1] - part.pivot[1], p[2] - part.pivot[2]};
      const Vec3 turned = rotate_zxy(local, pose.angles);
      for (size_t k = 0; k < 3; ++k)
        p[k] = saturate(int64_t{turned[k]} + part.pivot[k] + pose.translation[k]);
    }
  }
  return out;
}

View::View(const CameraSpec& spec, const Vec3& target) {
  const int64_t sh = sin_q15(spec.heading), ch = cos_q15(spec.heading);
  const int64_t sp = sin_q15(spec.pitch), cp = cos_q15(spec.pitch);
  // y-up world axes: x right, y up, z forward. Pitch > 0 puts the eye above, looking down.
  forward_ = {static_cast<int32_t>((sh * cp) >> 15), static_cast<int32_t>(-sp),
              static_cast<int32_t>((ch * cp) >> 15)};
  right_ = {static_cast<int32_t>(ch), 0, static_cast<int32_t>(-sh)};
  const auto& f = forward_;
  const auto& r = right_;
  up_ = {static_cast<int32_t>((int64_t{f[1]} * r[2] - int64_t{f[2]} * r[1]) >> 15),
         static_cast<int32_t>((int64_t{f[2]} * r[0] - int64_t{f[0]} * r[2]) >> 15),
         static_cast<int32_t>((int64_t{f[0]} * r[1] - int64_t{f[1]} * r[0]) >> 15)};
  const std::array<int64_t, 3> world_target = {target[0], -int64_t{target[1]}, target[2]};
  for (size_t i = 0; i < 3; ++i)
    eye_[i] = world_target[i] - ((int64_t{f[i]} * spec.distance) >> 15);
}

ViewPoint View::to_view(const Vec3& model) const {
  // The model's +y is down; the world's is up.
  const int64_t dx = model[0] - eye_[0], dy = -int64_t{model[1]} - eye_[1], dz = model[2] - eye_[2];
  auto dot = [&](const std::array<int32_t, 3>& a) {
    return (dx * a[0] + dy * a[1] + dz * a[2]) >> 15;
  };
  return {saturate(dot(right_)), saturate(dot(up_)), saturate(-dot(forward_))};
}

}  // namespace shapevm::bi2
