#include "interp/apache/geometry.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "interp/apache/assumptions.h"

namespace shapevm::apache {

Vec3 decode_short_vertex(const std::array<int16_t, 3>& v) {
  return {v[0] * assumed::kShortCoordinateScale, v[1] * assumed::kShortCoordinateScale,
          v[2] * assumed::kShortCoordinateScale};
}

Vec3 decode_grid_vertex(const std::array<uint8_t, 6>& v) {
  Vec3 out{};
  for (size_t axis = 0; axis < 3; ++axis) {
    out[axis] = (int32_t{v[axis]} - assumed::kGridBias) * assumed::kGridCoarseUnit +
                (int32_t{v[axis + 3]} - assumed::kGridBias) * assumed::kGridFineUnit;
  }
  return out;
}

namespace {

void read_vertex_entries(const ByteReader& r, uint32_t at, uint32_t count, int32_t encoding,
                         VertexList& out) {
  // The description is formatted only for the error: formatting it on every read was one of a
  // first run's many small allocations.
  r.require(at, size_t{count} * 6, [&] { return fmt::format("{} six-byte vertices", count); });
  out.local.reserve(out.local.size() + count);
  if (encoding == 0) {
    out.raw.reserve(out.raw.size() + count);
  } else {
    out.grid.reserve(out.grid.size() + count);
  }
  const uint8_t* p = r.data().data() + at;
  for (uint32_t i = 0; i < count; ++i, p += 6) {
    if (encoding == 0) {
      std::array<int16_t, 3> v{load_i16(p), load_i16(p + 2), load_i16(p + 4)};
      out.raw.push_back(v);
      out.local.push_back(decode_short_vertex(v));
    } else {
      std::array<uint8_t, 6> v{p[0], p[1], p[2], p[3], p[4], p[5]};
      out.grid.push_back(v);
      out.local.push_back(decode_grid_vertex(v));
    }
  }
}

}  // namespace

VertexList read_vertices(std::span<const uint8_t> bytes, uint32_t offset, int32_t encoding,
                         const std::string& source) {
  const ByteReader r(bytes, source);
  VertexList out;
  out.offset = offset;
  const uint16_t count = r.u16(offset, "the vertex count");
  read_vertex_entries(r, offset + 2, count, encoding, out);
  return out;
}

std::vector<Vec3> read_bounding_box(std::span<const uint8_t> bytes, uint32_t offset,
                                    int32_t encoding, const std::string& source) {
  const ByteReader r(bytes, source);
  VertexList out;
  read_vertex_entries(r, offset, assumed::kBoundingBoxVertices, encoding, out);
  return out.local;
}

NormalList read_normals(std::span<const uint8_t> bytes, uint32_t offset,
                        const std::string& source) {
  const ByteReader r(bytes, source);
  NormalList out;
  out.offset = offset;
  out.count = r.u16(offset, "the normal count");
  out.flat_count = r.u16(offset + 2, "the flat-shading normal count");
  if (out.flat_count > out.count) {
    r.fail(offset + 2, fmt::format("expected the flat-shading subset ({}) not to exceed the normal "
                                   "count ({})",
                                   out.flat_count, out.count));
  }
  r.require(offset + 4, size_t{out.count} * 3,
            [&] { return fmt::format("{} three-byte normal vectors", out.count); });
  const uint8_t* raw = r.data().data() + offset + 4;
  out.vectors.resize(out.count);
  for (size_t i = 0; i < out.count; ++i) {
    for (size_t axis = 0; axis < 3; ++axis)
      out.vectors[i][axis] = static_cast<int8_t>(raw[i * 3 + axis]);
  }
  return out;
}

std::vector<Attachment> read_attachments(std::span<const uint8_t> bytes, uint32_t offset,
                                         const std::string& source) {
  const ByteReader r(bytes, source);
  const uint32_t count = r.u32(offset, "the attached-model count");
  if (uint64_t{count} * kAttachmentSize > bytes.size() - offset - 4) {
    r.fail(offset, fmt::format("expected {} 52-byte attached-model records to fit in the file "
                               "({} bytes remain)",
                               count, bytes.size() - offset - 4));
  }
  std::vector<Attachment> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t at = offset + 4 + i * kAttachmentSize;
    Attachment& a = out[i];
    a.offset = at;
    a.model_id = r.u32(at, "an attached model ID");
    for (size_t k = 0; k < 3; ++k) a.translation[k] = r.i32(at + 4 + 4 * k, "a translation");
    for (size_t k = 0; k < 9; ++k) a.rotation[k] = r.i32(at + 16 + 4 * k, "a rotation coefficient");
  }
  return out;
}

std::string record_source(const Archive& archive, const ModelRecord& record) {
  return fmt::format("{}:#{}", archive.source(), record.index);
}

ModelGeometry read_geometry(const Archive& archive, const ModelRecord& record) {
  const ModelHeader& h = record.header;
  const std::string source = archive.source();
  ModelGeometry g;
  if (h.has(kVertices))
    g.vertices = read_vertices(archive.bytes(), h.sections[kVertices], h.encoding, source);
  if (h.has(kBoundingBox))
    g.bounding_box =
        read_bounding_box(archive.bytes(), h.sections[kBoundingBox], h.encoding, source);
  if (h.has(kNormals)) g.normals = read_normals(archive.bytes(), h.sections[kNormals], source);
  if (h.has(kAttached))
    g.attachments = read_attachments(archive.bytes(), h.sections[kAttached], source);
  return g;
}

}  // namespace shapevm::apache
