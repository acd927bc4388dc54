#include "interp/bi2/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "interp/bi2/assumptions.h"
#include "interp/bi2/engine_name.h"
#include "interp/bi2/pause.h"
#include "interp/common/budget_option.h"
#include "interp/common/camera_fit.h"

namespace shapevm::bi2 {
namespace {

struct Bounds {
  Vec3 lo{INT32_MAX, INT32_MAX, INT32_MAX}, hi{INT32_MIN, INT32_MIN, INT32_MIN};
};

Bounds bounds_of(const std::vector<Instance>& instances) {
  Bounds b;
  for (const auto& inst : instances)
    for (const auto& v : inst.mesh->vertices)
      for (size_t k = 0; k < 3; ++k) {
        const int32_t c = v[k] + inst.offset[k];
        b.lo[k] = std::min(b.lo[k], c);
        b.hi[k] = std::max(b.hi[k], c);
      }
  if (instances.empty()) b = {{0, 0, 0}, {0, 0, 0}};
  return b;
}

int16_t clamp16(int32_t v) {
  return static_cast<int16_t>(std::clamp<int32_t>(v, INT16_MIN, INT16_MAX));
}

// Whether the polygon's view-space corners wind away from the viewer (only with
// assumed::kCullBackFaces): the normal of the first three corners points away from the eye.
[[maybe_unused]] bool back_facing(const std::vector<ViewPoint>& view, const Polygon& p) {
  if (p.vertices.size() < 3) return false;
  const ViewPoint& a = view[p.vertices[0]];
  const ViewPoint& b = view[p.vertices[1]];
  const ViewPoint& c = view[p.vertices[2]];
  const int64_t ux = int64_t{b.x} - a.x, uy = int64_t{b.y} - a.y, uz = int64_t{b.z} - a.z;
  const int64_t vx = int64_t{c.x} - a.x, vy = int64_t{c.y} - a.y, vz = int64_t{c.z} - a.z;
  const __int128 nx = static_cast<__int128>(uy) * vz - static_cast<__int128>(uz) * vy;
  const __int128 ny = static_cast<__int128>(uz) * vx - static_cast<__int128>(ux) * vz;
  const __int128 nz = static_cast<__int128>(ux) * vy - static_cast<__int128>(uy) * vx;
  return nx * a.x + ny * a.y + nz * a.z >= 0;
}

struct Item {
  size_t instance = 0;
  uint32_t polygon = 0;
  int64_t depth = 0;
};

// Whether a sink's work budget (faces, pixels, trace bytes) is exhausted; if so the run ends at
// `offset`, unclean, with the budget's reason.
bool work_budget_exhausted(EventSink& sink, uint32_t offset, RunOutcome& out) {
  const std::string_view reason = sink.stop_requested();
  if (reason.empty()) return false;
  out.clean = false;
  out.reason = std::string(reason);
  out.end_offset = offset;
  sink.on_diagnostic({kEngine, offset, DiagnosticLevel::kError,
                      fmt::format("{} ({} raises it)", reason, budget_option(reason))});
  return true;
}

}  // namespace

int32_t polygon_colour(const Polygon& p) {
  return int32_t{p.shade} + assumed::kRampCentre + p.bias;
}

int32_t owning_part(const Mesh& mesh, uint32_t index) {
  for (size_t i = 0; i < mesh.parts.size(); ++i) {
    const Part& part = mesh.parts[i];
    if (index >= part.first_polygon && index < part.first_polygon + part.polygon_count)
      return static_cast<int32_t>(i);
  }
  return -1;
}

Vec3 camera_target(const std::vector<Instance>& instances) {
  const Bounds b = bounds_of(instances);
  Vec3 out{};
  for (size_t k = 0; k < 3; ++k) out[k] = static_cast<int32_t>((int64_t{b.lo[k]} + b.hi[k]) / 2);
  return out;
}

int32_t default_camera_distance(const std::vector<Instance>& instances, const CameraSpec& camera,
                                int width, int height) {
  // `--camera fit`: every vertex at rest, turned to the camera's heading and pitch about the
  // target, fills the frame (interp/common/camera_fit.h).
  const View turn({0, camera.heading, camera.pitch}, camera_target(instances));
  std::vector<FitPoint> points;
  for (const auto& inst : instances)
    for (const auto& v : inst.mesh->vertices) {
      const ViewPoint p =
          turn.to_view({v[0] + inst.offset[0], v[1] + inst.offset[1], v[2] + inst.offset[2]});
      points.push_back({p.x, p.y, p.z});
    }
  FitProjection projection;
  projection.width = width;
  projection.height = height;
  projection.focal_pixels = height;  // Bi2Program::render_setup
  projection.near = assumed::kNearZ;
  projection.minimum = assumed::kMinimumCameraDistance;
  return static_cast<int32_t>(std::min<int64_t>(fit_distance(points, projection), INT32_MAX));
}

RunOutcome run_draw(const std::vector<Instance>& instances, const RunState& state, EventSink& sink,
                    PauseHandler* pause) {
  RunOutcome out;
  const bool lone = instances.size() == 1 && instances[0].placement < 0;
  for (const auto& inst : instances)
    for (const Note& n : inst.mesh->notes) {
      sink.on_diagnostic({kEngine, n.offset, n.level,
                          inst.placement < 0
                              ? n.message
                              : fmt::format("placement {} (object {}): {}", inst.placement,
                                            inst.object_id, n.message)});
    }
  // Posed vertices in the drawing's model frame, then view space.
  std::vector<std::vector<Vec3>> posed;
  for (const auto& inst : instances) {
    std::vector<PartPose> poses;
    if (lone) {
      for (size_t i = 0; i < inst.mesh->parts.size(); ++i) {
        const Part& part = inst.mesh->parts[i];
        if (i < state.poses.size() && state.posed[i]) {
          poses.push_back(state.poses[i]);
        } else {
          poses.push_back({{part.angles[0], part.angles[1], part.angles[2]},
                           {part.translation[0], part.translation[1], part.translation[2]}});
        }
      }
    }
    std::vector<Vec3> p = posed_vertices(*inst.mesh, poses);
    for (Vec3& v : p)
      for (size_t k = 0; k < 3; ++k) v[k] += inst.offset[k];
    posed.push_back(std::move(p));
  }
  CameraSpec camera = state.camera;
  if (camera.distance == 0)
    camera.distance = default_camera_distance(instances, camera, state.width, state.height);
  const View view(camera, camera_target(instances));
  std::vector<std::vector<ViewPoint>> viewed;
  for (const auto& p : posed) {
    std::vector<ViewPoint> v;
    v.reserve(p.size());
    for (const Vec3& m : p) v.push_back(view.to_view(m));
    viewed.push_back(std::move(v));
  }
  // The painter's order.
  std::vector<Item> items;
  for (size_t i = 0; i < instances.size(); ++i) {
    const Mesh& mesh = *instances[i].mesh;
    for (uint32_t f = 0; f < mesh.polygons.size(); ++f) {
      const Polygon& p = mesh.polygons[f];
      if constexpr (assumed::kCullBackFaces) {
        if (back_facing(viewed[i], p)) continue;
      }
      int64_t sum = 0, lo = INT64_MAX, hi = INT64_MIN;
      for (uint32_t v : p.vertices) {
        const int64_t d = -int64_t{viewed[i][v].z};
        sum += d;
        lo = std::min(lo, d);
        hi = std::max(hi, d);
      }
      int64_t key = sum / static_cast<int64_t>(p.vertices.size());
      if constexpr (assumed::kSortKey == assumed::SortKey::kMaxDepth) key = hi;
      if constexpr (assumed::kSortKey == assumed::SortKey::kMinDepth) key = lo;
      items.push_back({i, f, key});
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.depth > b.depth; });

  PauseView pv;
  pv.state = &state;
  std::vector<FaceCorner> corners;
  std::vector<EventField> fields;
  uint64_t steps = 0;
  bool stopped = false;
  for (const Item& item : items) {
    const Instance& inst = instances[item.instance];
    const Polygon& p = inst.mesh->polygons[item.polygon];
    const int32_t part = owning_part(*inst.mesh, item.polygon);
    const int32_t colour = polygon_colour(p);
    const bool line = p.vertices.size() == 2;
    const std::string_view mnemonic = line ? "draw_line" : "draw_polygon";
    if (steps >= state.step_limit) {
      out.clean = false;
      out.reason = "budget: steps";
      out.end_offset = p.offset;
      sink.on_diagnostic({kEngine, p.offset, DiagnosticLevel::kError,
                          fmt::format("budget: {} polygons drawn (--max-steps)", steps)});
      stopped = true;
      break;
    }
    pv.offset = p.offset;
    pv.mnemonic = mnemonic;
    pv.polygon = item.polygon;
    pv.part = part;
    pv.shade = p.shade;
    pv.bias = p.bias;
    pv.colour = colour;
    pv.corners = static_cast<int64_t>(p.vertices.size());
    pv.depth = item.depth;
    pv.placement = inst.placement;
    pv.steps = steps;
    pv.posed = posed[item.instance];
    pv.view = viewed[item.instance];
    if (pause != nullptr && pause->pause(Bi2PausePoint(pv))) {
      out.reason = std::string(kStoppedByDebugger);
      out.end_offset = p.offset;
      stopped = true;
      break;
    }
    if (sink.wants_ops()) {
      fields = {{"polygon", item.polygon}, {"part", part},
                {"shade", p.shade},        {"bias", p.bias},
                {"colour", colour},        {"vertices", static_cast<int64_t>(p.vertices.size())},
                {"depth", item.depth}};
      if (inst.placement >= 0) {
        fields.push_back({"placement", inst.placement});
        fields.push_back({"object", inst.object_id});
      }
      OpEvent op;
      op.engine = kEngine;
      op.offset = p.offset;
      op.size = kPolygonFixedBytes + 2 * static_cast<uint32_t>(p.vertices.size());
      op.op = static_cast<uint16_t>(p.vertices.size());
      op.name = mnemonic;
      op.fields = fields;
      sink.on_op(op);
      if (work_budget_exhausted(sink, p.offset, out)) {
        stopped = true;
        break;
      }
    }
    if (colour < 0 || colour > 255) {
      sink.on_diagnostic(
          {kEngine, p.offset + 0x0E, DiagnosticLevel::kWarning,
           fmt::format("polygon {}: colour {} + {} + {} = {} is outside the "
                       "palette; clamped",
                       item.polygon, p.shade, assumed::kRampCentre, p.bias, colour)});
    }
    corners.clear();
    for (uint32_t v : p.vertices) {
      FaceCorner c;
      c.index = v;
      const Vec3& m = posed[item.instance][v];
      c.model = {clamp16(m[0]), clamp16(m[1]), clamp16(m[2])};
      c.model_wide = {m[0], m[1], m[2]};
      c.view = viewed[item.instance][v];
      corners.push_back(c);
    }
    FaceEvent face;
    face.engine = kEngine;
    face.offset = p.offset;
    face.sequence = static_cast<uint32_t>(steps);
    face.color = static_cast<uint8_t>(std::clamp(colour, 0, 255));
    face.corners = corners;
    face.wide_model = true;
    sink.on_face(face);
    ++steps;
    if (work_budget_exhausted(sink, p.offset, out)) {
      stopped = true;
      break;
    }
  }
  out.ops = steps;
  out.faces = steps;
  if (!stopped) out.reason = "all polygons drawn";
  pv = PauseView{};
  pv.state = &state;
  pv.steps = steps;
  pv.ended = true;
  pv.clean = out.clean;
  pv.reason = out.reason;
  pv.offset = out.end_offset;
  if (pause != nullptr) (void)pause->pause(Bi2PausePoint(pv));
  sink.on_end({kEngine, out.end_offset, out.reason, out.clean, out.ops, out.faces});
  return out;
}

}  // namespace shapevm::bi2
