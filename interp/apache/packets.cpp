#include "interp/apache/packets.h"

#include <fmt/format.h>

#include <array>

#include "interp/apache/program_reader.h"

namespace shapevm::apache {
namespace {

using P = Primitive;
using M = Material;
using S = Shading;
using R = Remap;

// Sizes from the seed's table; every type is its own row.
constexpr std::array<PacketType, kPacketTypeCount> kTypes{{
    {0, "points", 3, 1, P::kPoints, M::kColour, S::kNone, false, false, R::kNone},
    {1, "polyline", 3, 1, P::kPolyline, M::kColour, S::kNone, false, false, R::kNone},
    {2, "polygon", 3, 1, P::kPolygon, M::kColour, S::kNone, false, false, R::kNone},
    {3, "twocolour", 4, 1, P::kPolygon, M::kTwoColour, S::kNone, false, false, R::kNone},
    {4, "mesh", 3, 1, P::kPolygon, M::kMesh, S::kNone, false, false, R::kNone},
    {5, "coarsemesh", 3, 1, P::kPolygon, M::kMesh, S::kNone, false, true, R::kNone},
    {6, "glass", 2, 1, P::kPolygon, M::kRemap, S::kNone, false, false, R::kGlass},
    {7, "texture", 5, 3, P::kPolygon, M::kTexture, S::kNone, false, false, R::kNone},
    {8, "masktexture", 5, 3, P::kPolygon, M::kTexture, S::kNone, true, false, R::kNone},
    {9, "shadedpoints", 4, 1, P::kPoints, M::kColour, S::kFlat, false, false, R::kNone},
    {10, "shadedpolyline", 4, 1, P::kPolyline, M::kColour, S::kFlat, false, false, R::kNone},
    {11, "shadedpolygon", 4, 1, P::kPolygon, M::kColour, S::kFlat, false, false, R::kNone},
    {12, "shadedtwocolour", 5, 1, P::kPolygon, M::kTwoColour, S::kFlat, false, false, R::kNone},
    {13, "shadedmesh", 4, 1, P::kPolygon, M::kMesh, S::kFlat, false, false, R::kNone},
    {14, "shadedcoarsemesh", 4, 1, P::kPolygon, M::kMesh, S::kFlat, false, true, R::kNone},
    {15, "shadedtexture", 6, 3, P::kPolygon, M::kTexture, S::kFlat, false, false, R::kNone},
    {16, "shadedmasktexture", 6, 3, P::kPolygon, M::kTexture, S::kFlat, true, false, R::kNone},
    {17, "gouraud", 4, 2, P::kPolygon, M::kColour, S::kGouraud, false, false, R::kNone},
    {18, "gouraudtwocolour", 5, 2, P::kPolygon, M::kTwoColour, S::kGouraud, false, false, R::kNone},
    {19, "gouraudtexture", 6, 4, P::kPolygon, M::kTexture, S::kGouraud, false, false, R::kNone},
    {20, "gouraudmasktexture", 6, 4, P::kPolygon, M::kTexture, S::kGouraud, true, false, R::kNone},
    {21, "heathaze", 2, 1, P::kPolygon, M::kRemap, S::kNone, false, false, R::kHeatHaze},
}};

}  // namespace

const PacketType* packet_type(uint8_t type) {
  return type < kPacketTypeCount ? &kTypes[type] : nullptr;
}

const PacketType* packet_type_by_name(std::string_view name) {
  for (const auto& t : kTypes)
    if (name == t.name) return &t;
  return nullptr;
}

void decode_packet(std::span<const uint8_t> bytes, uint32_t offset, const std::string& source,
                   Packet& out) {
  const ProgramReader r(bytes, source);
  const uint8_t type_byte = r.u8(offset, "a primitive type byte");
  const PacketType* type = packet_type(type_byte);
  if (type == nullptr) {
    r.fail(offset, fmt::format("expected a primitive type 0..21, found {}", type_byte));
  }
  // Messages are formatted only on failure: this is the interpreter's hot path.
  r.require(offset, type->header_bytes, [&] {
    return fmt::format("the {}-byte header of a type {} ({}) packet", type->header_bytes, type_byte,
                       type->name);
  });
  out = Packet{};
  out.offset = offset;
  out.type = type;
  out.count = bytes[offset + 1];
  uint32_t at = offset + 2;
  switch (type->material) {
    case Material::kColour:
    case Material::kMesh:
      out.colour = bytes[at++];
      break;
    case Material::kTwoColour:
      out.colour = bytes[at++];
      out.colour2 = bytes[at++];
      break;
    case Material::kTexture:
      out.texture = load_u16(bytes.data() + at);
      at += 2;
      out.colour = bytes[at++];
      break;
    case Material::kRemap:
      break;
  }
  if (type->shading != Shading::kNone) {
    out.face_normal = bytes[at++];
    out.has_face_normal = true;
  }
  const size_t vertex_size = size_t{out.count} * type->vertex_bytes;
  r.require(offset + type->header_bytes, vertex_size, [&] {
    return fmt::format("{} vertices of {} bytes for a type {} ({}) packet", out.count,
                       type->vertex_bytes, type_byte, type->name);
  });
  out.vertex_bytes = bytes.subspan(offset + type->header_bytes, vertex_size);
  out.size = static_cast<uint32_t>(type->header_bytes + vertex_size);
}

std::string packet_header_text(const Packet& p) {
  std::string s = p.type->name;
  switch (p.type->material) {
    case Material::kColour:
    case Material::kMesh:
      s += fmt::format(" colour={}", p.colour);
      break;
    case Material::kTwoColour:
      s += fmt::format(" colour={} colour2={}", p.colour, p.colour2);
      break;
    case Material::kTexture:
      s += fmt::format(" texture={} colour={}", p.texture, p.colour);
      break;
    case Material::kRemap:
      break;
  }
  if (p.has_face_normal) s += fmt::format(" normal={}", p.face_normal);
  return s;
}

std::string packet_vertices_text(const Packet& p) {
  std::string s;
  for (size_t i = 0; i < p.count; ++i) {
    const PacketVertex v = p.vertex(i);
    if (i) s += ' ';
    s += fmt::format("{}", v.index);
    if (p.type->material == Material::kTexture) s += fmt::format("/{}/{}", v.u, v.v);
    if (p.type->shading == Shading::kGouraud) s += fmt::format("/n{}", v.normal);
  }
  return s;
}

}  // namespace shapevm::apache
