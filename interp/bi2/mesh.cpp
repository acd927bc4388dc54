#include "interp/bi2/mesh.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/expect.h"

namespace shapevm::bi2 {
namespace {

template <size_t N>
bool all_zero(const std::array<uint8_t, N>& a) {
  return std::all_of(a.begin(), a.end(), [](uint8_t b) { return b == 0; });
}

Vec3i16 read_vec(const ByteReader& r, size_t at, const char* what) {
  r.require(at, 6, what);
  const uint8_t* p = r.data().data() + at;
  return {load_i16(p), load_i16(p + 2), load_i16(p + 4)};
}

// The vertex index a stored pointer names; InputError at `at` unless it names a vertex.
uint32_t resolve_pointer(const ByteReader& r, size_t at, uint16_t ptr, uint32_t vertex_offset,
                         uint32_t count) {
  using assumed::VertexPointer;
  if constexpr (assumed::kVertexPointer == VertexPointer::kIndex) {
    if (ptr >= count) expected(r, at, fmt::format("a vertex index below {}, not {}", count, ptr));
    return ptr;
  } else {
    const uint32_t base = assumed::kVertexPointer == VertexPointer::kFileOffset ? vertex_offset : 0;
    const uint32_t end = base + count * kVertexBytes;
    if (ptr < base || ptr >= end || (ptr - base) % kVertexBytes != 0) {
      expected(r, at,
               fmt::format("a vertex pointer on a 6-byte vertex boundary in the vertex table "
                           "0x{:x}..0x{:x}, not 0x{:x}",
                           base, end, ptr));
    }
    return (ptr - base) / kVertexBytes;
  }
}

void push_vec(std::vector<uint8_t>& out, const Vec3i16& v) {
  for (int16_t c : v) append_u16(out, static_cast<uint16_t>(c));
}

}  // namespace

bool is_mesh(std::span<const uint8_t> b) {
  return b.size() >= 4 && b[0] == '3' && b[1] == 'D' && b[2] == 'O' && b[3] == 'B';
}

uint16_t vertex_pointer(uint32_t index, uint32_t vertex_offset) {
  using assumed::VertexPointer;
  if constexpr (assumed::kVertexPointer == VertexPointer::kIndex)
    return static_cast<uint16_t>(index);
  const uint32_t base = assumed::kVertexPointer == VertexPointer::kFileOffset ? vertex_offset : 0;
  return static_cast<uint16_t>(base + index * kVertexBytes);
}

Mesh read_mesh(std::span<const uint8_t> bytes, const std::string& source) {
  const ByteReader r(bytes, source);
  r.require(0, kMeshHeaderBytes, "a 66-byte 3DOB header");
  if (!is_mesh(bytes)) expected(r, 0, "the tag \"3DOB\"");
  Mesh m;
  m.source = source;
  m.vertex_offset = r.u16(0x04, "vertex_offset");
  m.slot_offset = r.u16(0x06, "slot_offset");
  m.face_offset = r.u16(0x08, "face_offset");
  m.trailing_offset = r.u16(0x0A, "trailing_offset");
  for (size_t i = 0; i < 5; ++i) {
    m.reserved_0c[i] = r.u16(0x0C + 2 * i, "reserved_0c");
    if (m.reserved_0c[i] != 0)
      m.notes.push_back(
          {static_cast<uint32_t>(0x0C + 2 * i), DiagnosticLevel::kInfo,
           fmt::format("reserved_0c[{}] is 0x{:x} (0 in every traced file)", i, m.reserved_0c[i])});
  }
  const uint32_t vertex_count = uint32_t{r.u16(0x16, "vertex_count_minus_one")} + 1;
  const uint32_t face_count = uint32_t{r.u16(0x18, "face_count_minus_one")} + 1;
  const uint32_t part_count = r.u16(0x1A, "part_count");
  const auto lead = r.bytes(0x1C, 38, "reserved_lead");
  std::copy(lead.begin(), lead.end(), m.reserved_lead.begin());
  if (!all_zero(m.reserved_lead))
    m.notes.push_back({0x1C, DiagnosticLevel::kInfo,
                       "reserved_lead (0x1c..0x41) is not all zero (0 in every traced file)"});

  // Polygon records, one after another from 0x42.
  size_t at = kMeshHeaderBytes;
  for (uint32_t f = 0; f < face_count; ++f) {
    Polygon p;
    p.offset = static_cast<uint32_t>(at);
    const uint16_t record_size = r.u16(at, "a polygon record_size");
    const uint16_t first_ptr = r.u16(at + 0x02, "first_vertex_ptr");
    const auto reserved = r.bytes(at + 0x04, 8, "reserved_04");
    std::copy(reserved.begin(), reserved.end(), p.reserved_04.begin());
    const uint32_t n = uint32_t{r.u16(at + 0x0C, "a polygon vertex_count_minus_one")} + 1;
    if (record_size != kPolygonFixedBytes + 2 * n) {
      expected(r, at,
               fmt::format("polygon {}: record_size 26 + 2 x {} vertices = {}, not {}", f, n,
                           kPolygonFixedBytes + 2 * n, record_size));
    }
    p.shade = r.u16(at + 0x0E, "shade");
    p.unknown_10 = r.u16(at + 0x10, "unknown_10");
    p.unknown_12 = r.u16(at + 0x12, "unknown_12");
    p.bias = r.i16(at + 0x14, "bias");
    p.reserved_16 = r.u16(at + 0x16, "reserved_16");
    p.unknown_18 = r.u16(at + 0x18, "unknown_18");
    r.require(at + kPolygonFixedBytes, 2 * n, "the polygon's vertex pointers");
    // Pointers are resolved once vertex_offset is known to be right (below).
    p.vertices.assign(n, 0);
    if (first_ptr != r.u16(at + kPolygonFixedBytes, "vertex_ptrs[0]")) {
      expected(r, at + 0x02,
               fmt::format("polygon {}: first_vertex_ptr equal to vertex_ptrs[0] (0x{:x}), "
                           "not 0x{:x}",
                           f, r.u16(at + kPolygonFixedBytes, "vertex_ptrs[0]"), first_ptr));
    }
    if (!all_zero(p.reserved_04))
      m.notes.push_back({p.offset + 4, DiagnosticLevel::kInfo,
                         fmt::format("polygon {}: reserved_04 is not zero (zero on disk in every "
                                     "traced file)",
                                     f)});
    if (p.reserved_16 != 0)
      m.notes.push_back({p.offset + 0x16, DiagnosticLevel::kInfo,
                         fmt::format("polygon {}: reserved_16 is 0x{:x} (0 in every traced file)",
                                     f, p.reserved_16)});
    if (p.shade % assumed::kShadeStep != 0 || p.shade > assumed::kMaxShade)
      m.notes.push_back({p.offset + 0x0E, DiagnosticLevel::kWarning,
                         fmt::format("polygon {}: shade {} is not one of 0, 32, ..., 160 (the "
                                     "traced shades)",
                                     f, p.shade)});
    if (p.bias < -assumed::kMaxBias || p.bias > assumed::kMaxBias)
      m.notes.push_back(
          {p.offset + 0x14, DiagnosticLevel::kWarning,
           fmt::format("polygon {}: bias {} is outside -8..+8 (the traced range)", f, p.bias)});
    at += record_size;
    m.polygons.push_back(std::move(p));
  }
  // The offset chain.
  if (m.vertex_offset != at) {
    expected(r, 0x04,
             fmt::format("vertex_offset at the end of the {} polygon records (0x{:x}), not "
                         "0x{:x}",
                         face_count, at, m.vertex_offset));
  }
  for (Polygon& p : m.polygons)
    for (size_t k = 0; k < p.vertices.size(); ++k) {
      const size_t ptr_at = p.offset + kPolygonFixedBytes + 2 * k;
      p.vertices[k] = resolve_pointer(r, ptr_at, load_u16(bytes.data() + ptr_at), m.vertex_offset,
                                      vertex_count);
    }
  const uint32_t vertex_end = m.vertex_offset + kVertexBytes * vertex_count;
  if (m.face_offset != vertex_end) {
    expected(r, 0x08,
             fmt::format("face_offset right after the {} vertices (0x{:x}), not 0x{:x}",
                         vertex_count, vertex_end, m.face_offset));
  }
  const uint32_t face_end = m.face_offset + kNormalBytes * face_count;
  if (m.trailing_offset != face_end) {
    expected(r, 0x0A,
             fmt::format("trailing_offset right after the {} face normals (0x{:x}), not 0x{:x}",
                         face_count, face_end, m.trailing_offset));
  }
  for (uint32_t v = 0; v < vertex_count; ++v)
    m.vertices.push_back(read_vec(r, m.vertex_offset + kVertexBytes * v, "a vertex (3 x i16)"));
  for (uint32_t f = 0; f < face_count; ++f) {
    const size_t nat = m.face_offset + kNormalBytes * f;
    Polygon& p = m.polygons[f];
    p.normal = read_vec(r, nat, "a face normal (3 x i16)");
    const int64_t len2 = int64_t{p.normal[0]} * p.normal[0] + int64_t{p.normal[1]} * p.normal[1] +
                         int64_t{p.normal[2]} * p.normal[2];
    const int64_t unit2 = int64_t{kUnitNormal} * kUnitNormal;
    if (len2 * 10 < unit2 * 9 || len2 * 10 > unit2 * 11)
      m.notes.push_back({static_cast<uint32_t>(nat), DiagnosticLevel::kInfo,
                         fmt::format("face normal {} ({}, {}, {}) is not unit length (16384)", f,
                                     p.normal[0], p.normal[1], p.normal[2])});
  }
  // Parts and their vertex lists.
  const uint32_t lists_start = m.trailing_offset + kPartBytes * part_count;
  r.require(m.trailing_offset, size_t{kPartBytes} * part_count, "the part records (32 bytes each)");
  uint32_t list_words = 0;
  std::vector<uint16_t> list_ptrs;
  for (uint32_t i = 0; i < part_count; ++i) {
    const size_t pat = m.trailing_offset + size_t{kPartBytes} * i;
    Part part;
    const uint16_t polygon_ptr = r.u16(pat, "polygon_ptr");
    part.polygon_count = uint32_t{r.u16(pat + 2, "polygon_count_minus_one")} + 1;
    list_ptrs.push_back(r.u16(pat + 4, "vertex_list_ptr"));
    const uint32_t list_count = uint32_t{r.u16(pat + 6, "vertex_count_minus_one")} + 1;
    part.vertices.resize(list_count);
    list_words += list_count;
    part.pivot = read_vec(r, pat + 8, "pivot");
    part.translation = read_vec(r, pat + 0x0E, "translation");
    part.angles = read_vec(r, pat + 0x14, "angles");
    const auto reserved = r.bytes(pat + 0x1A, 6, "reserved_1a");
    std::copy(reserved.begin(), reserved.end(), part.reserved_1a.begin());
    const auto first = std::find_if(m.polygons.begin(), m.polygons.end(),
                                    [&](const Polygon& p) { return p.offset == polygon_ptr; });
    if (first == m.polygons.end()) {
      expected(r, pat,
               fmt::format("part {}: polygon_ptr at the start of a polygon record (0x42..0x{:x}), "
                           "not 0x{:x}",
                           i, m.vertex_offset, polygon_ptr));
    }
    part.first_polygon = static_cast<uint32_t>(first - m.polygons.begin());
    if (part.first_polygon + part.polygon_count > face_count) {
      expected(r, pat + 2,
               fmt::format("part {}: {} polygons from polygon {} within the {} polygons", i,
                           part.polygon_count, part.first_polygon, face_count));
    }
    if (part.translation != Vec3i16{} || part.angles != Vec3i16{})
      m.notes.push_back(
          {static_cast<uint32_t>(pat + 0x0E), DiagnosticLevel::kInfo,
           fmt::format("part {}: runtime translation/angles are not zero on disk", i)});
    if (!all_zero(part.reserved_1a))
      m.notes.push_back({static_cast<uint32_t>(pat + 0x1A), DiagnosticLevel::kInfo,
                         fmt::format("part {}: reserved_1a is not zero (0 on disk in every traced "
                                     "file)",
                                     i)});
    m.parts.push_back(std::move(part));
  }
  const uint32_t lists_end = lists_start + 2 * list_words;
  if (m.slot_offset != lists_end) {
    expected(r, 0x06,
             fmt::format("slot_offset after the {} part records and their {} vertex-list words "
                         "(0x{:x}; trailing_offset when there are no parts), not 0x{:x}",
                         part_count, list_words, lists_end, m.slot_offset));
  }
  for (uint32_t i = 0; i < part_count; ++i) {
    Part& part = m.parts[i];
    const uint32_t ptr = list_ptrs[i];
    const size_t pat = m.trailing_offset + size_t{kPartBytes} * i;
    const uint32_t words = static_cast<uint32_t>(part.vertices.size());
    if (ptr < lists_start || ptr + 2 * words > lists_end || (ptr - lists_start) % 2 != 0) {
      expected(r, pat + 4,
               fmt::format("part {}: a vertex list of {} words inside the lists after the "
                           "part records (0x{:x}..0x{:x}), not at 0x{:x}",
                           i, words, lists_start, lists_end, ptr));
    }
    for (uint32_t k = 0; k < words; ++k) {
      const uint16_t v = r.u16(ptr + 2 * k, "a part vertex index");
      if (v >= vertex_count)
        expected(r, ptr + 2 * k,
                 fmt::format("part {}: a vertex index below {}, not {}", i, vertex_count, v));
      part.vertices[k] = v;
    }
  }
  const uint64_t slots_end = uint64_t{m.slot_offset} + uint64_t{kSlotBytes} * vertex_count;
  if (bytes.size() != slots_end) {
    expected(
        r, bytes.size() < slots_end ? bytes.size() : slots_end,
        fmt::format("the file to end with the runtime vertex slots (10 x {} bytes from 0x{:x}) "
                    "at 0x{:x}; it is 0x{:x} bytes",
                    vertex_count, m.slot_offset, slots_end, bytes.size()));
  }
  const auto slots = r.bytes(m.slot_offset, size_t{kSlotBytes} * vertex_count, "runtime slots");
  m.slots.assign(slots.begin(), slots.end());
  if (!std::all_of(m.slots.begin(), m.slots.end(), [](uint8_t b) { return b == 0; }))
    m.notes.push_back(
        {m.slot_offset, DiagnosticLevel::kInfo, "the runtime vertex slots are not all zero"});
  return m;
}

std::vector<uint8_t> write_mesh(const Mesh& m) {
  const std::string& src = m.source.empty() ? std::string("3DOB") : m.source;
  if (m.vertices.empty()) throw InputError(src, "a 3DOB needs at least one vertex");
  if (m.polygons.empty()) throw InputError(src, "a 3DOB needs at least one polygon");
  if (m.vertices.size() > 0x10000 || m.polygons.size() > 0x10000 || m.parts.size() > 0xFFFF)
    throw InputError(src, "too many vertices, polygons or parts for 16-bit counts");
  const auto vcount = static_cast<uint32_t>(m.vertices.size());
  std::vector<uint8_t> out(kMeshHeaderBytes, 0);
  out[0] = '3', out[1] = 'D', out[2] = 'O', out[3] = 'B';
  uint64_t polygons_bytes = 0;
  for (const auto& p : m.polygons) polygons_bytes += kPolygonFixedBytes + 2 * p.vertices.size();
  const uint64_t vertex_offset = kMeshHeaderBytes + polygons_bytes;
  uint64_t list_words = 0;
  for (const auto& part : m.parts) list_words += part.vertices.size();
  const uint64_t face_offset = vertex_offset + uint64_t{kVertexBytes} * vcount;
  const uint64_t trailing = face_offset + uint64_t{kNormalBytes} * m.polygons.size();
  const uint64_t lists_start = trailing + uint64_t{kPartBytes} * m.parts.size();
  const uint64_t slot_offset = lists_start + 2 * list_words;
  if (slot_offset > 0xFFFF)
    throw InputError(src,
                     fmt::format("the tables end at 0x{:x}: 3DOB offsets are 16-bit", slot_offset));
  std::vector<uint32_t> polygon_offsets;
  for (size_t f = 0; f < m.polygons.size(); ++f) {
    const Polygon& p = m.polygons[f];
    if (p.vertices.empty() || p.vertices.size() > 0x10000)
      throw InputError(src, fmt::format("polygon {} needs 1..65536 vertices", f));
    polygon_offsets.push_back(static_cast<uint32_t>(out.size()));
    append_u16(out, kPolygonFixedBytes + 2 * static_cast<uint32_t>(p.vertices.size()));
    for (uint32_t v : p.vertices)
      if (v >= vcount)
        throw InputError(src, fmt::format("polygon {}: vertex {} of {}", f, v, vcount));
    append_u16(out, vertex_pointer(p.vertices[0], static_cast<uint32_t>(vertex_offset)));
    out.insert(out.end(), p.reserved_04.begin(), p.reserved_04.end());
    append_u16(out, static_cast<uint32_t>(p.vertices.size() - 1));
    append_u16(out, p.shade);
    append_u16(out, p.unknown_10);
    append_u16(out, p.unknown_12);
    append_u16(out, static_cast<uint16_t>(p.bias));
    append_u16(out, p.reserved_16);
    append_u16(out, p.unknown_18);
    for (uint32_t v : p.vertices)
      append_u16(out, vertex_pointer(v, static_cast<uint32_t>(vertex_offset)));
  }
  for (const auto& v : m.vertices) push_vec(out, v);
  for (const auto& p : m.polygons) push_vec(out, p.normal);
  uint64_t list_at = lists_start;
  for (size_t i = 0; i < m.parts.size(); ++i) {
    const Part& part = m.parts[i];
    if (part.polygon_count == 0 ||
        part.first_polygon + uint64_t{part.polygon_count} > m.polygons.size())
      throw InputError(src, fmt::format("part {}: polygons {}+{} outside the {} polygons", i,
                                        part.first_polygon, part.polygon_count, m.polygons.size()));
    if (part.vertices.empty())
      throw InputError(src, fmt::format("part {}: an empty vertex list", i));
    append_u16(out, polygon_offsets[part.first_polygon]);
    append_u16(out, part.polygon_count - 1);
    append_u16(out, static_cast<uint32_t>(list_at));
    append_u16(out, static_cast<uint32_t>(part.vertices.size() - 1));
    push_vec(out, part.pivot);
    push_vec(out, part.translation);
    push_vec(out, part.angles);
    out.insert(out.end(), part.reserved_1a.begin(), part.reserved_1a.end());
    list_at += 2 * part.vertices.size();
  }
  for (size_t i = 0; i < m.parts.size(); ++i)
    for (uint16_t v : m.parts[i].vertices) {
      if (v >= vcount) throw InputError(src, fmt::format("part {}: vertex {} of {}", i, v, vcount));
      append_u16(out, v);
    }
  if (!m.slots.empty() && m.slots.size() != size_t{kSlotBytes} * vcount)
    throw InputError(
        src, fmt::format("runtime slots: {} bytes, expected 10 x {}", m.slots.size(), vcount));
  if (m.slots.empty())
    out.resize(out.size() + size_t{kSlotBytes} * vcount, 0);
  else
    out.insert(out.end(), m.slots.begin(), m.slots.end());
  put_u16(out, 0x04, static_cast<uint32_t>(vertex_offset));
  put_u16(out, 0x06, static_cast<uint32_t>(slot_offset));
  put_u16(out, 0x08, static_cast<uint32_t>(face_offset));
  put_u16(out, 0x0A, static_cast<uint32_t>(trailing));
  for (size_t i = 0; i < 5; ++i) put_u16(out, 0x0C + 2 * i, m.reserved_0c[i]);
  put_u16(out, 0x16, vcount - 1);
  put_u16(out, 0x18, static_cast<uint32_t>(m.polygons.size() - 1));
  put_u16(out, 0x1A, static_cast<uint32_t>(m.parts.size()));
  std::copy(m.reserved_lead.begin(), m.reserved_lead.end(), out.begin() + 0x1C);
  return out;
}

}  // namespace shapevm::bi2
