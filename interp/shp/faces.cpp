#include "interp/shp/faces.h"

#include <iterator>

namespace shapevm::shp {
namespace {

float normal_dot(const Face& a, const Face& b) {
  return a.normal[0].value() * b.normal[0].value() + a.normal[1].value() * b.normal[1].value() +
         a.normal[2].value() * b.normal[2].value();
}

// Record i's triangle into `p`, whose lists keep their room.
void single(const std::vector<Face>& faces, uint32_t i, FacePolygon& p) {
  const Face& f = faces[i];
  p.first = i;
  p.records = 1;
  p.vertices.clear();
  p.uv.clear();
  // A new polygon's lists would otherwise grow from nothing to 1, 2 and 4 entries: three
  // allocations each, most of assembling a level's polygons.
  p.vertices.reserve(3);
  p.uv.reserve(3);
  for (size_t c = 0; c < 3; ++c) {
    p.vertices.push_back(f.vertices[c]);
    p.uv.push_back({f.u[c].value(), f.v[c].value()});
  }
  p.reversed = f.has_polygon_fields() && f.polygon == 3;
}

}  // namespace

std::vector<FacePolygon> assemble_polygons(const Level& level) {
  std::vector<FacePolygon> out;
  out.resize(assemble_polygons(level, out));
  return out;
}

size_t assemble_polygons(const Level& level, std::vector<FacePolygon>& out) {
  const std::vector<Face>& faces = level.faces;
  size_t count = 0;
  // The next polygon: the first unused one of `out`, or a new one.
  const auto next = [&]() -> FacePolygon& {
    if (count == out.size()) out.emplace_back();
    return out[count++];
  };
  for (uint32_t i = 0; i < faces.size(); ++i) {
    const Face& f = faces[i];
    const bool starts = i == 0 || !faces[i - 1].has_polygon_fields() || faces[i - 1].remaining == 0;
    const uint64_t later = f.remaining;
    if (f.has_polygon_fields() && f.polygon == 1 && starts && later > 0 &&
        i + later < faces.size()) {
      bool merge = true;
      for (uint64_t k = 1; k <= later && merge; ++k)
        merge = normal_dot(f, faces[i + k]) >= kFanMergeDot;
      if (merge) {
        FacePolygon& p = next();
        single(faces, i, p);
        p.records = static_cast<uint32_t>(1 + later);
        for (uint64_t k = 1; k <= later; ++k) {
          const Face& g = faces[i + k];
          p.vertices.push_back(g.vertices[2]);
          p.uv.push_back({g.u[2].value(), g.v[2].value()});
        }
        i += static_cast<uint32_t>(later);
        continue;
      }
    }
    single(faces, i, next());
  }
  return count;
}

ModeStyle mode_style(uint32_t mode) {
  ModeStyle s;
  switch (mode) {
    case 0:
      s.lit = true;
      break;
    case 1:
      s.lines = true;
      s.lit = true;
      break;
    case 2:
      s.lit = true;
      s.blend = Blend::kAdd;
      break;
    case 3:
      s.textured = true;
      break;
    case 4:
      s.textured = true;
      s.blend = Blend::kAdd;
      break;
    case 5:
      s.textured = true;
      s.blend = Blend::kAlpha;
      break;
    case 6:
      s.textured = true;
      s.lit = true;
      s.lightmap = true;
      break;
    case 7:
      s.textured = true;
      s.lit = true;
      s.highlight = true;
      break;
    case 8:
    case 10:
      s.textured = true;
      s.lit = true;
      s.blend = Blend::kAdd;
      break;
    default:  // others: untextured, unlit, opaque
      break;
  }
  return s;
}

const char* mode_name(uint32_t mode) {
  static const char* const kNames[] = {
      "untextured", "wire",          "untextured added", "unlit", "unlit added", "unlit alpha",
      "lit",        "lit highlight", "lit added",        "other", "lit added"};
  return mode < std::size(kNames) ? kNames[mode] : "other";
}

}  // namespace shapevm::shp
