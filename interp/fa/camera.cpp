#include "interp/fa/camera.h"

#include <algorithm>
#include <vector>

#include "interp/common/camera_fit.h"

namespace shapevm::fa {
namespace {

int16_t q15(int64_t v) {
  return static_cast<int16_t>(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
}

}  // namespace

ViewSetup make_view(const CameraSpec& camera) {
  // Forward f: from the camera to the shape. Heading 0 puts the camera behind the shape looking
  // along +Y; positive pitch raises the camera so f points down.
  const int64_t sh = sin_q15(camera.heading), ch = cos_q15(camera.heading);
  const int64_t sp = sin_q15(camera.pitch), cp = cos_q15(camera.pitch);
  const int64_t fx = -(sh * cp) >> 15, fy = (ch * cp) >> 15, fz = -sp;
  // Right r = f x up, flattened: (ch, sh, 0). Up u = r x f.
  const int64_t rx = ch, ry = sh, rz = 0;
  const int64_t ux = (ry * fz - rz * fy) >> 15;
  const int64_t uy = (rz * fx - rx * fz) >> 15;
  const int64_t uz = (rx * fy - ry * fx) >> 15;
  ViewSetup v;
  // Columns: view x = rel·r, view y = rel·u, view z = rel·(-f).
  v.m = {q15(rx), q15(ux), q15(-fx), q15(ry), q15(uy), q15(-fy), q15(rz), q15(uz), q15(-fz)};
  v.xv = static_cast<int32_t>((fx * camera.distance) >> 15);
  v.yv = static_cast<int32_t>((fy * camera.distance) >> 15);
  v.zv = static_cast<int32_t>((fz * camera.distance) >> 15);
  return v;
}

int32_t fit_camera_distance(std::span<const std::array<int16_t, 3>> vertices,
                            const CameraSpec& camera, int width, int height) {
  // The vertices in the view's orientation from the shape's origin, where the camera looks: view
  // = (v + rel) * M, and the depth of v at distance d is d - (v * M).z.
  const ViewSetup view = make_view({0, camera.heading, camera.pitch});
  std::vector<FitPoint> points;
  points.reserve(vertices.size());
  for (const auto& v : vertices) {
    int64_t out[3];
    for (int k = 0; k < 3; ++k)
      out[k] = (int64_t{v[0]} * view.m[0 + k] + int64_t{v[1]} * view.m[3 + k] +
                int64_t{v[2]} * view.m[6 + k]) >>
               15;
    points.push_back({out[0], out[1], out[2]});
  }
  FitProjection projection;
  projection.width = width;
  projection.height = height;
  projection.focal_pixels = height;  // FaProgram::render_setup
  projection.near = 1;               // FrameSettings::near_z: one shape unit
  return static_cast<int32_t>(std::min<int64_t>(fit_distance(points, projection), INT32_MAX));
}

}  // namespace shapevm::fa
