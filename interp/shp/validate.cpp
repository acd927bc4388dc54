#include "interp/shp/validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace shapevm::shp {
namespace {

using Extent = std::array<std::array<double, 3>, 2>;  // min, max

Extent extent_of(const std::vector<std::array<double, 3>>& points) {
  Extent e{};
  for (int a = 0; a < 3; ++a) {
    e[0][a] = INFINITY;
    e[1][a] = -INFINITY;
  }
  for (const auto& p : points)
    for (int a = 0; a < 3; ++a) {
      e[0][a] = std::min(e[0][a], p[a]);
      e[1][a] = std::max(e[1][a], p[a]);
    }
  return e;
}

// Equal within a thousandth of the box's size (the exporters rounded differently).
bool same(const Extent& a, const Extent& b) {
  double size = 1e-3;
  for (int a_ = 0; a_ < 3; ++a_) size = std::max(size, std::fabs(a[1][a_] - a[0][a_]));
  const double tolerance = size * 1e-3;
  for (int i = 0; i < 2; ++i)
    for (int a_ = 0; a_ < 3; ++a_)
      if (!(std::fabs(a[i][a_] - b[i][a_]) <= tolerance)) return false;
  return true;
}

}  // namespace

const char* box_kind_name(BoxKind kind) {
  switch (kind) {
    case BoxKind::kAsStored:
      return "the level-0 vertex extent as stored";
    case BoxKind::kAfterOrientation:
      return "the level-0 extent after the part's orientation";
    case BoxKind::kAxisSwapped:
      return "the level-0 extent up to an axis swap or reflection";
    case BoxKind::kZero:
      return "zero (never filled in)";
    case BoxKind::kDifferent:
      return "a different box";
  }
  return "?";
}

BoxKind classify_box(const Part& part) {
  Extent stored{};
  bool zero = true;
  for (int a = 0; a < 3; ++a) {
    stored[0][a] = part.bbox_min[a];
    stored[1][a] = part.bbox_max[a];
    zero = zero && stored[0][a] == 0 && stored[1][a] == 0;
  }
  std::vector<std::array<double, 3>> points;
  if (!part.levels.empty())
    for (const Vertex& v : part.levels[0].vertices)
      points.push_back({v.position[0], v.position[1], v.position[2]});
  if (!points.empty() && same(stored, extent_of(points))) return BoxKind::kAsStored;
  // A zero box is "never filled in" (checked before the orientation: a part whose orientation is
  // zero would turn every vertex to the origin and match it).
  if (zero) return BoxKind::kZero;
  if (!points.empty()) {
    std::vector<std::array<double, 3>> turned(points.size());
    for (size_t i = 0; i < points.size(); ++i)
      for (int r = 0; r < 3; ++r)
        turned[i][r] = part.orientation[r * 3 + 0] * points[i][0] +
                       part.orientation[r * 3 + 1] * points[i][1] +
                       part.orientation[r * 3 + 2] * points[i][2];
    if (same(stored, extent_of(turned))) return BoxKind::kAfterOrientation;
    const Extent e = extent_of(points);
    std::array<int, 3> axes{0, 1, 2};
    do {
      for (int signs = 0; signs < 8; ++signs) {
        Extent moved{};
        for (int a = 0; a < 3; ++a) {
          const double lo = e[0][axes[a]], hi = e[1][axes[a]];
          const bool flip = (signs >> a) & 1;
          moved[0][a] = flip ? -hi : lo;
          moved[1][a] = flip ? -lo : hi;
        }
        if (same(stored, moved)) return BoxKind::kAxisSwapped;
      }
    } while (std::next_permutation(axes.begin(), axes.end()));
  }
  return BoxKind::kDifferent;
}

std::vector<std::string> validate_model(const Model& m) {
  std::vector<std::string> out;
  for (size_t p = 0; p < m.parts.size(); ++p) {
    const Part& part = m.parts[p];
    if (part.parent != -1 && (part.parent < 0 || static_cast<size_t>(part.parent) >= p)) {
      out.push_back(
          fmt::format("part {}: parent {} is neither -1 nor a part before it", p, part.parent));
    }
    for (size_t l = 0; l < part.levels.size(); ++l) {
      const Level& level = part.levels[l];
      const Level* coarser = l + 1 < part.levels.size() ? &part.levels[l + 1] : nullptr;
      for (size_t v = 0; v < level.vertices.size(); ++v) {
        const auto c = level.vertices[v].counterpart_if_present();
        if (!c || *c == -1) continue;
        if (coarser == nullptr) {
          out.push_back(
              fmt::format("part {} level {} vertex {}: counterpart {} in the last level "
                          "(expected -1)",
                          p, l, v, *c));
        } else if (*c < 0 || static_cast<size_t>(*c) >= coarser->vertices.size()) {
          out.push_back(
              fmt::format("part {} level {} vertex {}: counterpart {} past the next "
                          "level's {} vertices",
                          p, l, v, *c, coarser->vertices.size()));
        }
      }
      for (size_t f = 0; f < level.faces.size(); ++f) {
        const Face& face = level.faces[f];
        for (uint32_t index : face.vertices)
          if (index >= level.vertices.size())
            out.push_back(
                fmt::format("part {} level {} face {}: vertex {} past the level's {} "
                            "vertices",
                            p, l, f, index, level.vertices.size()));
        // Only textured modes (3 and up) look their material up.
        if (face.shading_mode() >= 3 && face.material >= level.materials.size())
          out.push_back(
              fmt::format("part {} level {} face {}: material {} past the level's {} "
                          "materials",
                          p, l, f, face.material, level.materials.size()));
      }
    }
    const size_t faces0 = part.levels.empty() ? 0 : part.levels[0].faces.size();
    for (size_t n = 0; n < part.nodes.size(); ++n) {
      const Node& node = part.nodes[n];
      for (uint32_t face : node.faces)
        if (face >= faces0)
          out.push_back(
              fmt::format("part {} node {}: face {} past level 0's {} faces", p, n, face, faces0));
      // A leaf's children are never read (SL-22); nor are those of a 64-byte record.
      if (node.leaf() || !node.has_children_fields()) continue;
      for (int32_t child : node.children)
        if (child != -1 && (child < 0 || static_cast<size_t>(child) >= part.nodes.size()))
          out.push_back(
              fmt::format("part {} node {}: child {} is neither -1 nor one of the "
                          "part's {} nodes",
                          p, n, child, part.nodes.size()));
    }
  }
  return out;
}

}  // namespace shapevm::shp
