// What the scene writers share (harness/scene_export.h).
#include "harness/scene_export.h"

#include <fmt/format.h>

#include <stdexcept>

namespace shapevm::harness {

void validate_scene(const ExportScene& scene) {
  if (!(scene.scale > 0)) throw std::logic_error("export scene: scale must be positive");
  for (size_t n = 0; n < scene.nodes.size(); ++n) {
    const ExportNode& node = scene.nodes[n];
    if (node.parent >= static_cast<int32_t>(n) || node.parent < -1)
      throw std::logic_error(
          fmt::format("export scene: node {} hangs from node {}", n, node.parent));
    for (const ExportFace& f : node.faces) {
      for (uint32_t c : f.corners)
        if (c >= node.positions.size())
          throw std::logic_error(
              fmt::format("export scene: node {} has a corner {} of {} positions", n, c,
                          node.positions.size()));
      if (!f.normals.empty() && f.normals.size() != f.corners.size())
        throw std::logic_error(fmt::format("export scene: node {}: normals per corner", n));
      if (!f.texcoords.empty() && f.texcoords.size() != f.corners.size())
        throw std::logic_error(fmt::format("export scene: node {}: texcoords per corner", n));
    }
  }
}

std::array<double, 3> exported_position(const ExportScene& scene, size_t node,
                                        const std::array<double, 3>& local) {
  std::array<double, 3> p = local;
  // Parents come before their children (validate_scene), so the walk ends at a root.
  for (int32_t n = static_cast<int32_t>(node); n >= 0; n = scene.nodes[n].parent)
    for (int a = 0; a < 3; ++a) p[a] += scene.nodes[n].translation[a];
  for (int a = 0; a < 3; ++a) p[a] = p[a] * scene.axis_signs[a] / scene.scale;
  return p;
}

}  // namespace shapevm::harness
