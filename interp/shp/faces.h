// A level's face records as the loader and the renderer see them: fans merged into polygons
// (SL-17), each polygon's front (SL-16), and what each shading mode draws (SL-18).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interp/shp/colour_tables.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

// One polygon to draw: a record on its own, or a merged fan.
struct FacePolygon {
  uint32_t first = 0;    // the face record that describes it (material, mode, flags, normal)
  uint32_t records = 1;  // face records it stands for (a merged fan: 1 + remaining)
  // Corners: vertex indices with their texture coordinates, in the record's order (a merged fan:
  // the first record's v0 v1 v2, then each later record's v2).
  std::vector<uint32_t> vertices;
  std::vector<std::array<float, 2>> uv;
  bool reversed = false;  // an odd strip record (3): its front is (v2-v0)x(v1-v0)
};

// The dot product of two face normals at or above which a fan's later records join its first
// (the loader's 0.999, about 2.6 degrees).
inline constexpr float kFanMergeDot = 0.999f;

// The level's records as polygons, in record order. A fan record (polygon kind 1) that starts a
// polygon (the record before it has no records still to come) merges with its `remaining` later
// records when each one's normal lies within kFanMergeDot of its own; otherwise every record is
// its own triangle. Strips never merge; 72-byte records are plain triangles.
std::vector<FacePolygon> assemble_polygons(const Level& level);
// The same into the front of `out`, returning how many: the polygons there are refilled, their
// corner lists keeping their room, and those past the count are left for the next call. The
// renderer assembles every part's polygons each frame; a fresh list was allocations per face.
size_t assemble_polygons(const Level& level, std::vector<FacePolygon>& out);

// What a shading mode draws (SL-18 and the fact sheet's table).
struct ModeStyle {
  bool lines = false;     // mode 1: the edges, by edge mask
  bool textured = false;  // modes >= 3 look up the material's texture
  bool lit = false;       // shaded by the light
  Blend blend = Blend::kNone;
  bool highlight = false;  // mode 7: an added highlight pass, UV from the normals
  bool lightmap = false;   // mode 6: the l<material> pass where the part asks for it (0x80)
};
ModeStyle mode_style(uint32_t shading_mode);
const char* mode_name(uint32_t shading_mode);

// Whether edge k (0: v0-v1, 1: v1-v2, 2: v2-v0) of a wire record is drawn: unless its bit in
// the edge mask is set.
inline bool wire_edge_drawn(uint32_t edge_mask, int k) {
  return ((edge_mask >> k) & 1) == 0;
}

inline constexpr uint32_t kFaceCap = 0x01;
inline constexpr uint32_t kFaceTwoSided = 0x02;

}  // namespace shapevm::shp
