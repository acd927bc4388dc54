// The 22 primitive packet types (seed 003, "Primitive packets"; AP-20..AP-23): one table with each
// type's header and per-vertex sizes (traced) and what it draws. A packet is the type byte, the
// vertex count, the type's remaining header bytes, then count x per-vertex bytes; the first
// per-vertex byte is the vertex index, textured types add U and V, Gouraud types a normal index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace shapevm::apache {

enum class Primitive : uint8_t { kPoints, kPolyline, kPolygon };
enum class Material : uint8_t { kColour, kTwoColour, kMesh, kRemap, kTexture };
enum class Shading : uint8_t { kNone, kFlat, kGouraud };
enum class Remap : uint8_t { kNone, kGlass, kHeatHaze };

struct PacketType {
  uint8_t type;
  const char* name;      // the project's mnemonic (the seed names the material, not a mnemonic)
  uint8_t header_bytes;  // including type and count (traced)
  uint8_t vertex_bytes;  // traced
  Primitive primitive;
  Material material;
  Shading shading;
  bool masked;       // textures: transparent texels
  bool coarse_mesh;  // meshes: coarse rather than fine
  Remap remap;       // glass or heat haze
};

inline constexpr uint8_t kPacketTypeCount = 22;
// nullptr for a type byte >= 22.
const PacketType* packet_type(uint8_t type);
const PacketType* packet_type_by_name(std::string_view name);

struct PacketVertex {
  uint8_t index = 0;
  uint8_t u = 0, v = 0;  // textured types
  uint8_t normal = 0;    // Gouraud types
};

// A decoded packet; `vertex_bytes` points into the archive (already bounds-checked).
struct Packet {
  uint32_t offset = 0;  // the type byte
  uint32_t size = 0;    // header + vertices
  const PacketType* type = nullptr;
  uint8_t count = 0;
  uint8_t colour = 0;
  uint8_t colour2 = 0;
  uint16_t texture = 0;
  uint8_t face_normal = 0;
  bool has_face_normal = false;
  std::span<const uint8_t> vertex_bytes;

  // Inline: the interpreter reads every textured or Gouraud corner through it on every run.
  PacketVertex vertex(size_t i) const {
    const uint8_t* at = vertex_bytes.data() + i * type->vertex_bytes;
    PacketVertex v;
    v.index = at[0];
    if (type->material == Material::kTexture) {
      v.u = at[1];
      v.v = at[2];
      if (type->shading == Shading::kGouraud) v.normal = at[3];
    } else if (type->shading == Shading::kGouraud) {
      v.normal = at[1];
    }
    return v;
  }
};

// Decodes the packet whose type byte is at `offset`; InputError naming the offset and what was
// expected for an unknown type, a truncated header or truncated vertices.
void decode_packet(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source,
                   Packet& out);

// "polygon colour=12" style text of the header operands (disassembly and the assembler agree).
std::string packet_header_text(const Packet& p);
std::string packet_vertices_text(const Packet& p);

}  // namespace shapevm::apache
