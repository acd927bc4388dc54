// The OBJ writer of an ExportScene (harness/scene_export.h).
#include <fmt/format.h>

#include <set>

#include "harness/scene_export.h"

namespace shapevm::harness {

namespace {

// An axis change that mirrors (an odd number of negated axes) turns every face over: the corners
// are written the other way round so the front stays the front.
bool mirrors(const ExportScene& scene) {
  return scene.axis_signs[0] * scene.axis_signs[1] * scene.axis_signs[2] < 0;
}

std::string material_name(const ExportFace& f) {
  return f.material.empty() ? fmt::format("color_{}", f.color) : f.material;
}

}  // namespace

std::string scene_to_obj(const ExportScene& scene, const std::string& mtl_library) {
  validate_scene(scene);
  std::string out = fmt::format("# shapevm export of {}: one object per part, Y up\n", scene.name);
  if (!mtl_library.empty()) out += "mtllib " + mtl_library + "\n";
  const bool reverse = mirrors(scene);
  uint32_t v_base = 0, vt_next = 1, vn_next = 1;
  std::string current;
  for (size_t n = 0; n < scene.nodes.size(); ++n) {
    const ExportNode& node = scene.nodes[n];
    if (node.faces.empty()) continue;
    out += fmt::format("o {}\n", node.name.empty() ? fmt::format("node{}", n) : node.name);
    for (const auto& local : node.positions) {
      const auto p = exported_position(scene, n, local);
      out += fmt::format("v {} {} {}\n", p[0], p[1], p[2]);
    }
    for (const ExportFace& f : node.faces) {
      const std::string material = material_name(f);
      if (material != current) {
        current = material;
        out += "usemtl " + material + "\n";
      }
      std::vector<size_t> order(f.corners.size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = reverse && !f.line ? order.size() - 1 - i : i;
      const bool has_vt = f.texcoords.size() == f.corners.size() && !f.line;
      const bool has_vn = f.normals.size() == f.corners.size() && !f.line;
      if (has_vt)
        for (size_t i : order)
          out += fmt::format("vt {} {}\n", f.texcoords[i][0], 1.0 - f.texcoords[i][1]);
      if (has_vn)
        for (size_t i : order)
          out += fmt::format("vn {} {} {}\n", f.normals[i][0] * scene.axis_signs[0],
                             f.normals[i][1] * scene.axis_signs[1],
                             f.normals[i][2] * scene.axis_signs[2]);
      out += f.line ? "l" : "f";
      for (size_t k = 0; k < order.size(); ++k) {
        const uint32_t v = v_base + f.corners[order[k]] + 1;
        if (has_vt && has_vn) {
          out += fmt::format(" {}/{}/{}", v, vt_next + k, vn_next + k);
        } else if (has_vt) {
          out += fmt::format(" {}/{}", v, vt_next + k);
        } else if (has_vn) {
          out += fmt::format(" {}//{}", v, vn_next + k);
        } else {
          out += fmt::format(" {}", v);
        }
      }
      out += "\n";
      if (has_vt) vt_next += static_cast<uint32_t>(order.size());
      if (has_vn) vn_next += static_cast<uint32_t>(order.size());
    }
    v_base += static_cast<uint32_t>(node.positions.size());
  }
  return out;
}

std::string scene_to_mtl(const ExportScene& scene) {
  std::string out = fmt::format("# shapevm export of {}: the materials its OBJ uses\n", scene.name);
  std::set<std::string> written;
  for (const ExportNode& node : scene.nodes) {
    for (const ExportFace& f : node.faces) {
      const std::string name = material_name(f);
      if (!written.insert(name).second) continue;
      out += "\nnewmtl " + name + "\n";
      if (f.material.empty()) {
        const raster::Rgb& c = scene.palette.colors[f.color];
        out += fmt::format("Kd {:.4f} {:.4f} {:.4f}\n", c.r / 255.0, c.g / 255.0, c.b / 255.0);
      } else {
        out += "Kd 1 1 1\nmap_Kd " + f.material + ".png\n";
      }
      // No highlights: the engines shade flat, and OBJ viewers would otherwise add their own.
      out += "Ks 0 0 0\nillum 1\n";
    }
  }
  return out;
}

}  // namespace shapevm::harness
