#include "interp/shp/export.h"

#include <cmath>
#include <functional>

#include "interp/shp/draw_state.h"
#include "interp/shp/faces.h"

namespace shapevm::shp {
namespace {

double finite(float v) {
  return std::isfinite(v) ? static_cast<double>(v) : 0.0;
}

std::array<double, 3> vec(const Vec3& v) {
  return {finite(v[0]), finite(v[1]), finite(v[2])};
}

}  // namespace

ExportScene export_model(const Model& model, const StateRequest& state, const std::string& source,
                         const DrawAssets& assets) {
  const DrawState s = parse_draw_state(state);
  const uint32_t lod = s.lod.value_or(0);
  ExportScene scene;
  scene.name = source;
  scene.axis_signs = {-1, -1, 1};
  scene.palette = assets.palette();
  const size_t n = model.parts.size();
  auto parent_of = [&](size_t p) -> int64_t {
    const int32_t parent = model.parts[p].parent;
    return parent >= 0 && static_cast<size_t>(parent) < n && static_cast<size_t>(parent) != p
               ? parent
               : -1;
  };
  // Parents before children: a depth-first walk from the roots (a part in a cycle hangs from
  // the root, as drawing places it).
  std::vector<int32_t> node_of(n, -1);
  std::vector<bool> visiting(n, false);
  std::function<void(size_t)> add = [&](size_t p) {
    if (node_of[p] >= 0 || visiting[p]) return;
    visiting[p] = true;
    const int64_t parent = parent_of(p);
    if (parent >= 0 && !visiting[static_cast<size_t>(parent)]) add(static_cast<size_t>(parent));
    const bool under = parent >= 0 && node_of[static_cast<size_t>(parent)] >= 0;
    const Part& part = model.parts[p];
    ExportNode node;
    node.name = part.name;
    node.parent = under ? node_of[static_cast<size_t>(parent)] : -1;
    const auto origin = vec(part.origin);
    node.translation = origin;
    if (under) {
      const auto po = vec(model.parts[static_cast<size_t>(parent)].origin);
      for (size_t a = 0; a < 3; ++a) node.translation[a] = origin[a] - po[a];
    }
    const bool hidden = (part.flags & kPartDamagedModel) != 0 && !s.destroyed;
    if (!part.levels.empty() && !hidden) {
      const Level& lv = part.levels[std::min<size_t>(lod, part.levels.size() - 1)];
      for (const Vertex& v : lv.vertices) node.positions.push_back(vec(v.position));
      for (const FacePolygon& poly : assemble_polygons(lv)) {
        const Face& f = lv.faces[poly.first];
        if (f.shading_mode() == 1 || (f.flags & kFaceCap) != 0) continue;
        bool valid = true;
        for (uint32_t v : poly.vertices) valid = valid && v < lv.vertices.size();
        if (!valid) continue;
        ExportFace face;
        std::vector<size_t> order(poly.vertices.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        if (poly.reversed && order.size() >= 3) std::swap(order[order.size() - 2], order.back());
        for (size_t i : order) {
          face.corners.push_back(poly.vertices[i]);
          face.normals.push_back(vec(lv.vertices[poly.vertices[i]].normal));
          face.texcoords.push_back({finite(poly.uv[i][0]), finite(poly.uv[i][1])});
        }
        const ModeStyle style = mode_style(f.shading_mode());
        if (style.textured && f.material < lv.materials.size())
          face.material = texture_key(s.prefix, lv.materials[f.material].texture);
        face.color = assets.tables().untextured;
        node.faces.push_back(std::move(face));
      }
    }
    node_of[p] = static_cast<int32_t>(scene.nodes.size());
    scene.nodes.push_back(std::move(node));
    visiting[p] = false;
  };
  for (size_t p = 0; p < n; ++p) add(p);
  return scene;
}

}  // namespace shapevm::shp
