#include "interp/bi2/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace shapevm::bi2 {
namespace {

// Adds `polygons` of `mesh` to `node`, positions taken from `posed` minus `origin`.
void add_polygons(ExportNode& node, const Mesh& mesh, const std::vector<Vec3>& posed,
                  const Vec3& origin, const std::vector<uint32_t>& polygons) {
  std::map<uint32_t, uint32_t> local;
  auto corner = [&](uint32_t v) {
    auto [it, added] = local.emplace(v, static_cast<uint32_t>(node.positions.size()));
    if (added)
      node.positions.push_back({double(posed[v][0] - origin[0]), double(posed[v][1] - origin[1]),
                                double(posed[v][2] - origin[2])});
    return it->second;
  };
  for (uint32_t f : polygons) {
    const Polygon& p = mesh.polygons[f];
    ExportFace face;
    for (uint32_t v : p.vertices) face.corners.push_back(corner(v));
    face.color = static_cast<uint8_t>(std::clamp(polygon_colour(p), 0, 255));
    face.line = p.vertices.size() == 2;
    node.faces.push_back(std::move(face));
  }
}

}  // namespace

ExportScene export_scene(const Session& session, const RunState& state) {
  ExportScene scene;
  scene.name = session.source();
  scene.axis_signs = {-1, -1, 1};
  scene.palette = session.palette();
  const auto& instances = session.instances();
  ExportNode root;
  root.name = session.source();
  if (session.kind() == Kind::kLayer) {
    scene.nodes.push_back(std::move(root));
    for (const Instance& inst : instances) {
      ExportNode node;
      node.name = fmt::format("placement{}_object{}", inst.placement, inst.object_id);
      node.parent = 0;
      node.translation = {double(inst.offset[0]), double(inst.offset[1]), double(inst.offset[2])};
      std::vector<uint32_t> all(inst.mesh->polygons.size());
      for (uint32_t f = 0; f < all.size(); ++f) all[f] = f;
      add_polygons(node, *inst.mesh, posed_vertices(*inst.mesh, {}), {0, 0, 0}, all);
      scene.nodes.push_back(std::move(node));
    }
    return scene;
  }
  const Mesh& mesh = session.mesh();
  std::vector<PartPose> poses;
  for (size_t i = 0; i < mesh.parts.size(); ++i) {
    const Part& part = mesh.parts[i];
    poses.push_back(
        i < state.posed.size() && state.posed[i]
            ? state.poses[i]
            : PartPose{{part.angles[0], part.angles[1], part.angles[2]},
                       {part.translation[0], part.translation[1], part.translation[2]}});
  }
  const std::vector<Vec3> posed = posed_vertices(mesh, poses);
  std::vector<uint32_t> unowned;
  for (uint32_t f = 0; f < mesh.polygons.size(); ++f)
    if (owning_part(mesh, f) < 0) unowned.push_back(f);
  add_polygons(root, mesh, posed, {0, 0, 0}, unowned);
  scene.nodes.push_back(std::move(root));
  for (size_t i = 0; i < mesh.parts.size(); ++i) {
    const Part& part = mesh.parts[i];
    ExportNode node;
    node.name = fmt::format("part{}", i);
    node.parent = 0;
    const Vec3 origin = {part.pivot[0] + poses[i].translation[0],
                         part.pivot[1] + poses[i].translation[1],
                         part.pivot[2] + poses[i].translation[2]};
    node.translation = {double(origin[0]), double(origin[1]), double(origin[2])};
    std::vector<uint32_t> owned;
    for (uint32_t f = part.first_polygon; f < part.first_polygon + part.polygon_count; ++f)
      if (owning_part(mesh, f) == static_cast<int32_t>(i)) owned.push_back(f);
    add_polygons(node, mesh, posed, origin, owned);
    scene.nodes.push_back(std::move(node));
  }
  return scene;
}

}  // namespace shapevm::bi2
