// What `shapevm info` reports about an FA shape, computed from the static walk of all of CODE
// (every LOD, frame, damage and articulation block, not one state).
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "interp/fa/articulation.h"
#include "interp/fa/walker.h"

namespace shapevm::fa {

// How many instructions one mnemonic names. The mnemonic views the opcode table's static text.
struct OpcodeCount {
  std::string_view mnemonic;
  uint32_t count = 0;
};

struct ShapeInfo {
  uint32_t instructions = 0;
  // Ordered by mnemonic, each mnemonic once. A vector of views, not a map of strings: a shape's
  // map cost a node and a string per opcode used, a twentieth of `info` over a corpus.
  std::vector<OpcodeCount> opcode_counts;
  uint32_t count_of(std::string_view mnemonic) const;  // 0 when the shape has none
  uint32_t vertex_buffers = 0;
  uint32_t vertices = 0;
  uint32_t pool_slots = 0;  // highest slot written + 1
  uint32_t faces = 0;
  uint32_t textured_faces = 0;
  // Faces with the content flags the seed names: 0x10 (perspective-correct mapping, applied to
  // textured faces), 0x02 FILL_BACKGROUND and 0x20 "brighter shading" (not applied: untraced).
  uint32_t perspective_faces = 0;
  uint32_t fill_background_faces = 0;
  uint32_t brighter_shading_faces = 0;
  std::vector<std::string> textures;  // TextureFile names in first-use order
  uint32_t texture_indices = 0;
  uint32_t frame_tables = 0;
  uint32_t max_frames = 0;
  uint32_t lod_sites = 0;
  std::set<uint16_t, std::greater<>> lod_thresholds;  // distinct non-zero pixel thresholds
  uint32_t lod_levels() const { return static_cast<uint32_t>(lod_thresholds.size()) + 1; }
  uint32_t detail_sites = 0;
  std::set<uint16_t> detail_thresholds;
  uint32_t damage_branches = 0;
  uint32_t selectors = 0;  // 0x06/0x0C/0x0E/0x10/0x6C
  uint32_t calls = 0;      // Unmask/UnmaskLong/XformUnmask
  uint32_t x86_blocks = 0;
  uint32_t x86_bytes = 0;
  std::vector<ObjEndReport> obj_end;
  ArticulationAnalysis articulations;  // the x86 selectors' inputs and cases (articulation.h)
};

ShapeInfo analyze_shape(const Shape& shape, const WalkResult& walk);
nlohmann::json shape_info_json(const Shape& shape, const WalkResult& walk, const ShapeInfo& info);
std::string shape_info_text(const Shape& shape, const WalkResult& walk, const ShapeInfo& info);
// One line: name, scale, vertices, faces, LODs, frames, x86 blocks, textures.
std::string shape_summary_line(const Shape& shape, const ShapeInfo& info);

}  // namespace shapevm::fa
