// The glTF 2.0 writer of an ExportScene (harness/scene_export.h), through tinygltf (Debian's
// libtinygltf-dev, used header-only: this file holds its implementation, without its image
// codecs, since a scene only names its pictures).
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <fmt/format.h>
#include <tiny_gltf.h>

#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/text_bytes.h"
#include "harness/scene_export.h"

namespace shapevm::harness {
namespace {

constexpr int kArrayBuffer = 34962;  // bufferView target for vertex attributes
constexpr int kNearest = 9728;       // the engines sample without filtering

// glTF colour factors are linear; palette entries are sRGB.
double srgb_to_linear(uint8_t v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// What one primitive holds: its faces share a material, a mode and the attributes they carry.
struct PrimitiveKey {
  int material = 0;
  bool lines = false;
  bool normals = false;
  bool texcoords = false;
  auto operator<=>(const PrimitiveKey&) const = default;
};

struct PrimitiveData {
  std::vector<float> positions, normals, texcoords;
};

// A file name as a relative URI reference (RFC 3986): the bytes a URI may not hold as they are
// (anything outside printable ASCII, and space, '%', '#', '?') percent-encoded, so a texture
// name with byte 0x98 names the file "<name>.png" with that byte as "%98".
std::string uri_path(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7F || c == '%' || c == '#' || c == '?')
      out += fmt::format("%{:02X}", byte);
    else
      out.push_back(c);
  }
  return out;
}

class GltfBuilder {
 public:
  explicit GltfBuilder(const ExportScene& scene) : scene_(scene) {
    model_.asset.version = "2.0";
    model_.asset.generator = "shapevm";
    model_.buffers.emplace_back();
    mirrored_ = scene.axis_signs[0] * scene.axis_signs[1] * scene.axis_signs[2] < 0;
  }

  tinygltf::Model build() {
    tinygltf::Scene gscene;
    gscene.name = utf8_or_latin1(scene_.name);  // the source, as the user named it
    for (size_t n = 0; n < scene_.nodes.size(); ++n) {
      const ExportNode& node = scene_.nodes[n];
      tinygltf::Node g;
      // Names read from the file are bytes; glTF text is UTF-8 (core/text_bytes.h).
      g.name = node.name.empty() ? fmt::format("node{}", n) : latin1_to_utf8(node.name);
      const auto& t = node.translation;
      if (t != std::array<double, 3>{})
        for (int a = 0; a < 3; ++a)
          g.translation.push_back(t[a] * scene_.axis_signs[a] / scene_.scale);
      if (!node.faces.empty()) g.mesh = add_mesh(node, g.name);
      model_.nodes.push_back(std::move(g));
      if (node.parent < 0) {
        gscene.nodes.push_back(static_cast<int>(n));
      } else {
        model_.nodes[node.parent].children.push_back(static_cast<int>(n));
      }
    }
    model_.scenes.push_back(std::move(gscene));
    model_.defaultScene = 0;
    return std::move(model_);
  }

 private:
  int material_for(const ExportFace& f) {
    const std::string key = f.material.empty() ? fmt::format("color_{}", f.color) : f.material;
    if (auto it = materials_.find(key); it != materials_.end()) return it->second;
    tinygltf::Material m;
    m.name = latin1_to_utf8(key);
    m.pbrMetallicRoughness.metallicFactor = 0.0;
    if (f.material.empty()) {
      const auto& rgb = scene_.palette.colors[f.color];
      m.pbrMetallicRoughness.baseColorFactor = {srgb_to_linear(rgb.r), srgb_to_linear(rgb.g),
                                                srgb_to_linear(rgb.b), 1.0};
    } else {
      if (model_.samplers.empty()) {
        tinygltf::Sampler s;
        s.magFilter = kNearest;
        s.minFilter = kNearest;
        model_.samplers.push_back(s);
      }
      tinygltf::Image image;
      image.name = latin1_to_utf8(f.material);
      image.uri = uri_path(f.material + ".png");
      model_.images.push_back(std::move(image));
      tinygltf::Texture texture;
      texture.sampler = 0;
      texture.source = static_cast<int>(model_.images.size() - 1);
      model_.textures.push_back(texture);
      m.pbrMetallicRoughness.baseColorTexture.index = static_cast<int>(model_.textures.size() - 1);
    }
    model_.materials.push_back(std::move(m));
    return materials_[key] = static_cast<int>(model_.materials.size() - 1);
  }

  void add_corner(PrimitiveData& d, const ExportNode& node, const ExportFace& f, size_t i,
                  const PrimitiveKey& key) {
    const auto& p = node.positions[f.corners[i]];
    for (int a = 0; a < 3; ++a)
      d.positions.push_back(static_cast<float>(p[a] * scene_.axis_signs[a] / scene_.scale));
    if (key.normals)
      for (int a = 0; a < 3; ++a)
        d.normals.push_back(static_cast<float>(f.normals[i][a] * scene_.axis_signs[a]));
    if (key.texcoords)
      for (int a = 0; a < 2; ++a) d.texcoords.push_back(static_cast<float>(f.texcoords[i][a]));
  }

  int add_mesh(const ExportNode& node, const std::string& name) {
    std::map<PrimitiveKey, PrimitiveData> primitives;
    for (const ExportFace& f : node.faces) {
      const size_t n = f.corners.size();
      if (n < 2 || (n == 2 && !f.line)) continue;  // nothing with an area or a length
      PrimitiveKey key{material_for(f), f.line, f.normals.size() == n && !f.line,
                       f.texcoords.size() == n && !f.line};
      PrimitiveData& d = primitives[key];
      if (f.line) {
        for (size_t i = 0; i + 1 < n; ++i) {
          add_corner(d, node, f, i, key);
          add_corner(d, node, f, i + 1, key);
        }
        continue;
      }
      // A fan over the polygon's corners, turned over when the axis change mirrors.
      for (size_t i = 1; i + 1 < n; ++i) {
        add_corner(d, node, f, 0, key);
        add_corner(d, node, f, mirrored_ ? i + 1 : i, key);
        add_corner(d, node, f, mirrored_ ? i : i + 1, key);
      }
    }
    tinygltf::Mesh mesh;
    mesh.name = name;
    for (const auto& [key, d] : primitives) {
      tinygltf::Primitive prim;
      prim.material = key.material;
      prim.mode = key.lines ? TINYGLTF_MODE_LINE : TINYGLTF_MODE_TRIANGLES;
      prim.attributes["POSITION"] = add_accessor(d.positions, 3, true);
      if (key.normals) prim.attributes["NORMAL"] = add_accessor(d.normals, 3, false);
      if (key.texcoords) prim.attributes["TEXCOORD_0"] = add_accessor(d.texcoords, 2, false);
      mesh.primitives.push_back(std::move(prim));
    }
    model_.meshes.push_back(std::move(mesh));
    return static_cast<int>(model_.meshes.size() - 1);
  }

  int add_accessor(const std::vector<float>& values, int components, bool bounds) {
    auto& data = model_.buffers[0].data;
    while (data.size() % 4) data.push_back(0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = data.size();
    view.byteLength = values.size() * sizeof(float);
    view.target = kArrayBuffer;
    const size_t at = data.size();
    data.resize(at + view.byteLength);
    std::memcpy(data.data() + at, values.data(), view.byteLength);
    model_.bufferViews.push_back(view);
    tinygltf::Accessor acc;
    acc.bufferView = static_cast<int>(model_.bufferViews.size() - 1);
    acc.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    acc.count = values.size() / components;
    acc.type = components == 3 ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC2;
    if (bounds) {  // glTF requires them on POSITION
      acc.minValues.assign(components, INFINITY);
      acc.maxValues.assign(components, -INFINITY);
      for (size_t i = 0; i < values.size(); ++i) {
        const size_t c = i % components;
        acc.minValues[c] = std::min(acc.minValues[c], double(values[i]));
        acc.maxValues[c] = std::max(acc.maxValues[c], double(values[i]));
      }
    }
    model_.accessors.push_back(std::move(acc));
    return static_cast<int>(model_.accessors.size() - 1);
  }

  const ExportScene& scene_;
  tinygltf::Model model_;
  std::map<std::string, int> materials_;
  bool mirrored_ = false;
};

}  // namespace

std::vector<uint8_t> scene_to_gltf(const ExportScene& scene, bool binary) {
  validate_scene(scene);
  tinygltf::Model model = GltfBuilder(scene).build();
  if (model.buffers[0].data.empty()) model.buffers.clear();
  std::ostringstream out;
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToStream(&model, out, /*prettyPrint=*/!binary, binary))
    throw std::runtime_error("glTF: tinygltf could not write the scene");
  const std::string s = out.str();
  return {s.begin(), s.end()};
}

}  // namespace shapevm::harness
