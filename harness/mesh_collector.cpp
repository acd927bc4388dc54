#include "harness/mesh_collector.h"

#include <fmt/format.h>

#include <algorithm>

namespace shapevm::harness {

void MeshCollector::on_face(const FaceEvent& e) {
  if (++faces_seen_ > max_faces_) {
    request_stop(kBudgetFaces);  // the engine stops at its next check
    return;
  }
  Face f;
  f.texture = std::string(e.texture);
  f.color = e.color;
  for (const auto& c : e.corners) {
    const std::array<int32_t, 3> position =
        e.wide_model ? c.model_wide : std::array<int32_t, 3>{c.model[0], c.model[1], c.model[2]};
    auto [it, inserted] = vertex_ids_.emplace(position, static_cast<uint32_t>(vertices_.size()));
    if (inserted) vertices_.push_back(position);
    f.vertices.push_back(it->second);
    if (e.textured) f.texcoords.push_back(c.texcoord);
  }
  if (!e.textured) f.texture.clear();
  faces_.push_back(std::move(f));
}

namespace {

// A texel coordinate as a 0..1 texture coordinate (clamped: the engines clamp to the image).
double normalised(uint16_t texel, int size) {
  return std::clamp(static_cast<double>(texel) / size, 0.0, 1.0);
}

}  // namespace

std::string MeshCollector::to_obj(double scale,
                                  const std::map<std::string, std::array<int, 2>>& texture_sizes,
                                  const std::string& mtl_library) const {
  std::string out = "# shapevm export: the faces drawn by one run, in draw order\n";
  if (!mtl_library.empty()) out += "mtllib " + mtl_library + "\n";
  for (const auto& v : vertices_)
    out += fmt::format("v {} {} {}\n", v[0] * scale, v[1] * scale, v[2] * scale);
  uint32_t vt = 0;
  std::string current;
  for (const auto& f : faces_) {
    // Untextured faces use a material per palette index.
    const std::string material = f.texture.empty() ? fmt::format("color_{}", f.color) : f.texture;
    if (material != current) {
      current = material;
      out += "usemtl " + material + "\n";
    }
    std::array<int, 2> size{0, 0};
    if (auto it = texture_sizes.find(f.texture); it != texture_sizes.end()) size = it->second;
    const bool has_vt = !f.texcoords.empty() && size[0] > 0 && size[1] > 0;
    if (has_vt)
      for (const auto& t : f.texcoords)
        out +=
            fmt::format("vt {} {}\n", normalised(t[0], size[0]), 1.0 - normalised(t[1], size[1]));
    out += "f";
    for (size_t i = 0; i < f.vertices.size(); ++i) {
      if (has_vt) {
        out += fmt::format(" {}/{}", f.vertices[i] + 1, vt + i + 1);
      } else {
        out += fmt::format(" {}", f.vertices[i] + 1);
      }
    }
    if (has_vt) vt += static_cast<uint32_t>(f.texcoords.size());
    out += "\n";
  }
  return out;
}

ExportScene MeshCollector::to_scene(std::string name, double scale,
                                    const std::map<std::string, std::array<int, 2>>& texture_sizes,
                                    const raster::Palette& palette) const {
  ExportScene scene;
  scene.name = std::move(name);
  scene.scale = scale;
  scene.palette = palette;
  ExportNode& node = scene.nodes.emplace_back();
  node.name = scene.name;
  for (const auto& v : vertices_)
    node.positions.push_back({double(v[0]), double(v[1]), double(v[2])});
  for (const auto& f : faces_) {
    ExportFace& out = node.faces.emplace_back();
    out.corners = f.vertices;
    out.color = f.color;
    out.material = f.texture;
    out.line = f.vertices.size() == 2;
    auto it = texture_sizes.find(f.texture);
    if (it == texture_sizes.end() || it->second[0] <= 0 || it->second[1] <= 0) continue;
    for (const auto& t : f.texcoords)
      out.texcoords.push_back({normalised(t[0], it->second[0]), normalised(t[1], it->second[1])});
  }
  return scene;
}

}  // namespace shapevm::harness
