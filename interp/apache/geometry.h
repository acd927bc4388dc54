// A model's geometry sections as the engine reads them (seed 003, AP-04..AP-09, AP-24): the vertex
// list in either coordinate encoding, the eight bounding-box vertices, the normal list and the
// attached-model definitions. Every read is bounds-checked against the archive.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interp/apache/archive.h"

namespace shapevm::apache {

// Local (transformed) coordinates: signed 16-bit values x16, or grid entries.
using Vec3 = std::array<int32_t, 3>;

struct VertexList {
  uint32_t offset = 0;                       // file offset of the u16 count
  std::vector<std::array<int16_t, 3>> raw;   // encoding 0: as stored
  std::vector<std::array<uint8_t, 6>> grid;  // encoding 1: coarse x,y,z then fine x,y,z
  std::vector<Vec3> local;                   // decoded local coordinates
};

// Encoding 0: three i16 x16 (AP-04). Encoding 1: (coarse - 32) * 4096 + (fine - 32) * 64 (AP-05).
Vec3 decode_short_vertex(const std::array<int16_t, 3>& v);
Vec3 decode_grid_vertex(const std::array<uint8_t, 6>& v);

// The u16 count and six bytes per vertex at `offset` (AP-06).
VertexList read_vertices(std::span<const uint8_t> bytes, uint32_t offset, int32_t encoding,
                         const std::string& source);
// Eight vertices without a count (assumed layout, see assumptions.h).
std::vector<Vec3> read_bounding_box(std::span<const uint8_t> bytes, uint32_t offset,
                                    int32_t encoding, const std::string& source);

struct NormalList {
  uint32_t offset = 0;
  uint16_t count = 0;       // every entry
  uint16_t flat_count = 0;  // the subset needed when Gouraud shading is disabled
  std::vector<std::array<int8_t, 3>> vectors;
};
// Two u16 counts, then `count` signed three-byte vectors (AP-24).
NormalList read_normals(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source);

// One 52-byte attached-model record (AP-07): model ID (0 = gameplay-filled slot, AP-08), three
// i32 translations, nine Q31 rotation coefficients (row-major, assumed).
struct Attachment {
  uint32_t offset = 0;
  uint32_t model_id = 0;
  std::array<int32_t, 3> translation{};
  std::array<int32_t, 9> rotation{};
  bool is_slot() const { return model_id == 0; }
};
inline constexpr uint32_t kAttachmentSize = 52;
std::vector<Attachment> read_attachments(std::span<const uint8_t> bytes, uint32_t offset,
                                         const std::string& source);

// A model's sections read together (absent sections are empty).
struct ModelGeometry {
  VertexList vertices;
  std::vector<Vec3> bounding_box;
  NormalList normals;
  std::vector<Attachment> attachments;
};
ModelGeometry read_geometry(const Archive& archive, const ModelRecord& record);

// Where a record's data lives for diagnostics: "3DOBJS.BIN:#17".
std::string record_source(const Archive& archive, const ModelRecord& record);

}  // namespace shapevm::apache
