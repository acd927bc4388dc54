#include "raster/clip.h"

#include "raster/fixed_point.h"

namespace shapevm::raster {

namespace {

// The point where the edge from `inside` to `outside` meets z = near_z. The exact crossing lies
// between the two vertices, so every interpolated value fits in int32.
ViewVertex crossing(const ViewVertex& inside, const ViewVertex& outside, int32_t near_z) {
  const int64_t numerator = static_cast<int64_t>(near_z) - inside.z;       // <= 0
  const int64_t denominator = static_cast<int64_t>(outside.z) - inside.z;  // < 0
  auto along = [&](int32_t from, int32_t to) {
    // Negate both so the divisor is positive, as mul_div_floor requires.
    return static_cast<int32_t>(
        from + mul_div_floor(static_cast<int64_t>(to) - from, -numerator, -denominator));
  };
  ViewVertex out;
  out.x = along(inside.x, outside.x);
  out.y = along(inside.y, outside.y);
  out.z = near_z;
  out.u = along(inside.u, outside.u);
  out.v = along(inside.v, outside.v);
  out.shade = along(inside.shade, outside.shade);
  return out;
}

}  // namespace

std::vector<ViewVertex> clip_polygon_near(std::span<const ViewVertex> polygon, int32_t near_z) {
  std::vector<ViewVertex> out;
  clip_polygon_near(polygon, near_z, out);
  return out;
}

void clip_polygon_near(std::span<const ViewVertex> polygon, int32_t near_z,
                       std::vector<ViewVertex>& out) {
  out.clear();
  const size_t count = polygon.size();
  out.reserve(count + 2);
  for (size_t i = 0; i < count; ++i) {
    const ViewVertex& current = polygon[i];
    const ViewVertex& next = polygon[(i + 1) % count];
    const bool current_inside = current.z >= near_z;
    const bool next_inside = next.z >= near_z;
    if (current_inside) out.push_back(current);
    if (current_inside && !next_inside) out.push_back(crossing(current, next, near_z));
    if (!current_inside && next_inside) out.push_back(crossing(next, current, near_z));
  }
}

bool clip_line_near(ViewVertex& a, ViewVertex& b, int32_t near_z) {
  const bool a_inside = a.z >= near_z;
  const bool b_inside = b.z >= near_z;
  if (!a_inside && !b_inside) return false;
  if (!a_inside) a = crossing(b, a, near_z);
  if (!b_inside) b = crossing(a, b, near_z);
  return true;
}

}  // namespace shapevm::raster
