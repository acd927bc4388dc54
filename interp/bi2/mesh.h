// The 3DOB mesh (docs/bi2.md, "3DOB"): a 66-byte header, the polygon records from 0x42, then the
// vertex table (6 x V), the face normals (6 x F), the part records (32 x P) with their u16 vertex
// lists, and the runtime vertex slots (10 x V), which end the file. read_mesh checks every
// invariant the seed gives and says where one breaks; write_mesh lays a mesh out again.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interp/common/events.h"

namespace shapevm::bi2 {

inline constexpr uint32_t kMeshHeaderBytes = 0x42;
inline constexpr uint32_t kPolygonFixedBytes = 26;
inline constexpr uint32_t kVertexBytes = 6;
inline constexpr uint32_t kNormalBytes = 6;
inline constexpr uint32_t kPartBytes = 32;
inline constexpr uint32_t kSlotBytes = 10;
inline constexpr int32_t kUnitNormal = 16384;  // 14-bit fixed point

using Vec3i16 = std::array<int16_t, 3>;

// Something the reader noticed that does not stop the mesh from drawing: a reserved field that is
// not zero, a shade or bias outside what the seed has seen, a normal that is not unit length.
struct Note {
  uint32_t offset = 0;
  DiagnosticLevel level = DiagnosticLevel::kInfo;
  std::string message;
};

struct Polygon {
  uint32_t offset = 0;  // file offset of the record (written by write_mesh)
  std::array<uint8_t, 8> reserved_04{};
  uint16_t shade = 0;
  uint16_t unknown_10 = 0;
  uint16_t unknown_12 = 0;
  int16_t bias = 0;
  uint16_t reserved_16 = 0;
  uint16_t unknown_18 = 0;
  std::vector<uint32_t> vertices;  // vertex indices, resolved from the stored pointers
  Vec3i16 normal{};                // its face normal (the face-normal table, same index)
};

struct Part {
  uint32_t first_polygon = 0;      // polygon index polygon_ptr points at
  uint32_t polygon_count = 0;      // polygon_count_minus_one + 1
  std::vector<uint16_t> vertices;  // the vertex-index list
  Vec3i16 pivot{};
  Vec3i16 translation{};  // runtime; 0 on disk
  Vec3i16 angles{};       // runtime; 0 on disk
  std::array<uint8_t, 6> reserved_1a{};
};

struct Mesh {
  std::string source;
  std::array<uint16_t, 5> reserved_0c{};
  std::array<uint8_t, 38> reserved_lead{};
  std::vector<Vec3i16> vertices;
  std::vector<Polygon> polygons;
  std::vector<Part> parts;
  std::vector<uint8_t> slots;  // 10 x V runtime vertex slots as stored
  // Header offsets as read (or as write_mesh laid them out).
  uint16_t vertex_offset = 0, slot_offset = 0, face_offset = 0, trailing_offset = 0;
  std::vector<Note> notes;
};

bool is_mesh(std::span<const uint8_t> bytes);  // "3DOB"
// InputError (source, offset, expectation) for anything the format does not allow.
Mesh read_mesh(std::span<const uint8_t> bytes, const std::string& source);
// The file for `mesh` (offsets and pointers computed; Polygon::offset ignored). InputError when
// the mesh cannot be written (more than 65535 bytes, an index out of range, no vertices).
std::vector<uint8_t> write_mesh(const Mesh& mesh);

// The stored pointer for vertex `index` and back (assumptions.h, kVertexPointer).
uint16_t vertex_pointer(uint32_t index, uint32_t vertex_offset);

}  // namespace shapevm::bi2
