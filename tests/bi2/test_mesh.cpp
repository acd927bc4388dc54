// BI-03..BI-06, BI-09: the 3DOB reader on small assembled meshes: every header field, the table
// order and offset chain, vertices and face normals, polygon records and part records, each
// invariant's violation reported with the file, the offset and what was expected there, and
// reserved fields that are not zero kept as info notes.
#include <doctest/doctest.h>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/mesh.h"
#include "tests/bi2/bi2_fixture.h"

namespace bi2_mesh_tests {

using namespace shapevm;
using namespace shapevm::bi2;
using shapevm::testing::bi2_bytes;

namespace {

// Layout: header 0x42; polygon 0 (3 corners, 32 bytes) at 0x42, polygon 1 (2 corners, 30 bytes)
// at 0x62; vertices at 0x80 (4 x 6); face normals at 0x98 (2 x 6); the part at 0xa4 with its
// one-word list at 0xc4; runtime slots at 0xc6 (4 x 10); 0xee bytes in all.
const char* kMesh = R"(3dob
  vertex -100 0 0
  vertex 100 0 0
  vertex 0 -100 0
  vertex 0 0 100
  polygon shade 32 bias -2 u10 0x0102 u12 0x0304 u18 7 vertices 0 1 2
  polygon shade 64 bias 3 normal 0 -16384 0 vertices 0 3
  part polygons 1 1 pivot 0 -50 0 vertices 3
end
)";

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    (void)read_mesh(bytes, "UN3D000.LIB:UNIT001");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("BI-03: the 66-byte header: tag, the four offsets, counts minus one, part count") {
  const auto bytes = bi2_bytes(kMesh);
  REQUIRE(bytes.size() == 0xee);
  CHECK(std::string(bytes.begin(), bytes.begin() + 4) == "3DOB");
  CHECK(load_u16(&bytes[0x04]) == 0x80);  // vertex_offset
  CHECK(load_u16(&bytes[0x06]) == 0xc6);  // slot_offset
  CHECK(load_u16(&bytes[0x08]) == 0x98);  // face_offset
  CHECK(load_u16(&bytes[0x0A]) == 0xa4);  // trailing_offset (the part table)
  CHECK(load_u16(&bytes[0x16]) == 3);     // vertex count - 1
  CHECK(load_u16(&bytes[0x18]) == 1);     // face count - 1
  CHECK(load_u16(&bytes[0x1A]) == 1);     // part count, not minus one
  const Mesh m = read_mesh(bytes, "t");
  CHECK(m.vertex_offset == 0x80);
  CHECK(m.slot_offset == 0xc6);
  CHECK(m.face_offset == 0x98);
  CHECK(m.trailing_offset == 0xa4);
  CHECK(m.vertices.size() == 4);
  CHECK(m.polygons.size() == 2);
  CHECK(m.parts.size() == 1);
  CHECK(m.notes.empty());
}

TEST_CASE("BI-03: a wrong tag or a short header is rejected") {
  auto bytes = bi2_bytes(kMesh);
  bytes[3] = 'X';
  CHECK(error_of(bytes).find("offset 0x0: expected the tag \"3DOB\"") != std::string::npos);
  CHECK(error_of({'3', 'D', 'O', 'B'}).find("66-byte 3DOB header") != std::string::npos);
}

TEST_CASE("BI-03: reserved header fields that are not zero are kept as info notes") {
  auto bytes = bi2_bytes(kMesh);
  bytes[0x0E] = 5;     // reserved_0c[1]
  bytes[0x30] = 0x11;  // reserved_lead
  const Mesh m = read_mesh(bytes, "t");
  REQUIRE(m.notes.size() == 2);
  CHECK(m.notes[0].offset == 0x0E);
  CHECK(m.notes[0].level == DiagnosticLevel::kInfo);
  CHECK(m.reserved_0c[1] == 5);
  CHECK(m.reserved_lead[0x30 - 0x1C] == 0x11);
  CHECK(write_mesh(m) == bytes);  // kept: written back as read
}

TEST_CASE("BI-04: the offset chain: each link's violation names its field and expectation") {
  const auto good = bi2_bytes(kMesh);
  SUBCASE("vertex_offset") {
    auto b = good;
    put_u16(b, 0x04, 0x82);
    const std::string e = error_of(b);
    CHECK(e.find("UN3D000.LIB:UNIT001: offset 0x4: expected vertex_offset at the end of the 2 "
                 "polygon records (0x80), not 0x82") != std::string::npos);
  }
  SUBCASE("face_offset = vertex table + 6 x V") {
    auto b = good;
    put_u16(b, 0x08, 0x9a);
    CHECK(error_of(b).find("offset 0x8: expected face_offset right after the 4 vertices (0x98)") !=
          std::string::npos);
  }
  SUBCASE("trailing_offset = face normals + 6 x F") {
    auto b = good;
    put_u16(b, 0x0A, 0xa0);
    CHECK(error_of(b).find("offset 0xa: expected trailing_offset right after the 2 face normals "
                           "(0xa4)") != std::string::npos);
  }
  SUBCASE("slot_offset = parts 32 x P + their lists") {
    auto b = good;
    put_u16(b, 0x06, 0xc8);
    CHECK(error_of(b).find("offset 0x6: expected slot_offset after the 1 part records and their 1 "
                           "vertex-list words (0xc6") != std::string::npos);
  }
  SUBCASE("the file ends with the runtime slots, 10 x V") {
    auto b = good;
    b.push_back(0);
    CHECK(error_of(b).find("runtime vertex slots (10 x 4 bytes from 0xc6) at 0xee") !=
          std::string::npos);
    b.resize(good.size() - 1);
    CHECK(error_of(b).find("it is 0xed bytes") != std::string::npos);
  }
}

TEST_CASE("BI-04: with no parts, slot_offset equals trailing_offset") {
  const auto bytes = bi2_bytes("3dob\n vertex 0 0 0\n vertex 5 0 0\n polygon vertices 0 1\nend\n");
  const Mesh m = read_mesh(bytes, "t");
  CHECK(m.parts.empty());
  CHECK(m.slot_offset == m.trailing_offset);
  CHECK(bytes.size() == m.slot_offset + 2 * kSlotBytes);
}

TEST_CASE("BI-05: vertices are 3 x i16 (+y down, as stored); one unit normal per polygon") {
  const Mesh m = read_mesh(bi2_bytes(kMesh), "t");
  CHECK(m.vertices[2] == Vec3i16{0, -100, 0});  // up is -y
  // The assembler's normal for polygon 0: (-100,0,0) (100,0,0) (0,-100,0), scaled to 16384.
  CHECK(m.polygons[0].normal == Vec3i16{0, 0, -16384});
  CHECK(m.polygons[1].normal == Vec3i16{0, -16384, 0});
  auto b = bi2_bytes(kMesh);
  put_u16(b, 0x98 + 4, 100);  // polygon 0's normal z: no longer unit length
  const Mesh odd = read_mesh(b, "t");
  REQUIRE(odd.notes.size() == 1);
  CHECK(odd.notes[0].offset == 0x98);
  CHECK(odd.notes[0].message.find("not unit length") != std::string::npos);
}

TEST_CASE("BI-06: polygon records: size 26 + 2n, first pointer, shade, bias, unknowns kept") {
  const auto bytes = bi2_bytes(kMesh);
  CHECK(load_u16(&bytes[0x42]) == 26 + 2 * 3);
  CHECK(load_u16(&bytes[0x62]) == 26 + 2 * 2);
  CHECK(load_u16(&bytes[0x44]) == load_u16(&bytes[0x42 + 0x1A]));  // first_vertex_ptr
  CHECK(load_u16(&bytes[0x4E]) == 2);                              // corners - 1
  const Mesh m = read_mesh(bytes, "t");
  const Polygon& p = m.polygons[0];
  CHECK(p.offset == 0x42);
  CHECK(p.shade == 32);
  CHECK(p.bias == -2);
  CHECK(p.unknown_10 == 0x0102);
  CHECK(p.unknown_12 == 0x0304);
  CHECK(p.unknown_18 == 7);
  CHECK(p.vertices == std::vector<uint32_t>{0, 1, 2});
  CHECK(m.polygons[1].vertices == std::vector<uint32_t>{0, 3});
}

TEST_CASE("BI-06: vertex pointers land on a vertex of the vertex table (assumptions.h)") {
  const auto good = bi2_bytes(kMesh);
  // The pointer of vertex 1 is the file offset of the vertex: 0x80 + 6.
  CHECK(load_u16(&good[0x42 + 0x1A + 2]) == 0x86);
  SUBCASE("not on a 6-byte boundary") {
    auto b = good;
    put_u16(b, 0x42 + 0x1A + 2, 0x87);
    CHECK(error_of(b).find("offset 0x5e: expected a vertex pointer on a 6-byte vertex boundary in "
                           "the vertex table 0x80..0x98, not 0x87") != std::string::npos);
  }
  SUBCASE("outside the table") {
    auto b = good;
    put_u16(b, 0x42 + 0x1A + 4, 0x98);
    CHECK(error_of(b).find("not 0x98") != std::string::npos);
  }
  SUBCASE("first_vertex_ptr differs from vertex_ptrs[0]") {
    auto b = good;
    put_u16(b, 0x44, 0x86);
    CHECK(error_of(b).find("offset 0x44: expected polygon 0: first_vertex_ptr equal to "
                           "vertex_ptrs[0] (0x80), not 0x86") != std::string::npos);
  }
  SUBCASE("record_size other than 26 + 2n") {
    auto b = good;
    put_u16(b, 0x42, 34);
    CHECK(error_of(b).find("offset 0x42: expected polygon 0: record_size 26 + 2 x 3 vertices = 32, "
                           "not 34") != std::string::npos);
  }
}

TEST_CASE("BI-06: shades and biases outside the traced sets are warnings; reserved words info") {
  auto b = bi2_bytes(kMesh);
  put_u16(b, 0x50, 33);      // shade
  put_u16(b, 0x56, 0xFFF0);  // bias -16
  put_u16(b, 0x58, 1);       // reserved_16
  b[0x46] = 9;               // reserved_04
  const Mesh m = read_mesh(b, "t");
  int warnings = 0, infos = 0;
  for (const Note& n : m.notes) (n.level == DiagnosticLevel::kWarning ? warnings : infos) += 1;
  CHECK(warnings == 2);
  CHECK(infos == 2);
  CHECK(m.polygons[0].bias == -16);
}

TEST_CASE("BI-09: part records: polygon range, vertex list, pivot, runtime words, reserved") {
  const auto bytes = bi2_bytes(kMesh);
  CHECK(load_u16(&bytes[0xa4]) == 0x62);  // polygon_ptr: polygon 1's record
  CHECK(load_u16(&bytes[0xa6]) == 0);     // polygon count - 1
  CHECK(load_u16(&bytes[0xa8]) == 0xc4);  // vertex_list_ptr: after the part records
  CHECK(load_u16(&bytes[0xaa]) == 0);     // list count - 1
  CHECK(load_u16(&bytes[0xc4]) == 3);     // the list: vertex index 3
  const Mesh m = read_mesh(bytes, "t");
  const Part& part = m.parts[0];
  CHECK(part.first_polygon == 1);
  CHECK(part.polygon_count == 1);
  CHECK(part.vertices == std::vector<uint16_t>{3});
  CHECK(part.pivot == Vec3i16{0, -50, 0});
  CHECK(part.translation == Vec3i16{});
  CHECK(part.angles == Vec3i16{});
  SUBCASE("polygon_ptr not at a polygon record") {
    auto b = bytes;
    put_u16(b, 0xa4, 0x64);
    CHECK(error_of(b).find("offset 0xa4: expected part 0: polygon_ptr at the start of a polygon "
                           "record") != std::string::npos);
  }
  SUBCASE("more polygons than there are") {
    auto b = bytes;
    put_u16(b, 0xa6, 1);
    CHECK(error_of(b).find("part 0: 2 polygons from polygon 1 within the 2 polygons") !=
          std::string::npos);
  }
  SUBCASE("a vertex list outside the lists") {
    auto b = bytes;
    put_u16(b, 0xa8, 0xc6);
    CHECK(error_of(b).find("offset 0xa8: expected part 0: a vertex list of 1 words inside") !=
          std::string::npos);
  }
  SUBCASE("a vertex index out of range") {
    auto b = bytes;
    put_u16(b, 0xc4, 4);
    CHECK(error_of(b).find("offset 0xc4: expected part 0: a vertex index below 4, not 4") !=
          std::string::npos);
  }
  SUBCASE("runtime words and reserved bytes on disk are kept as notes") {
    auto b = bytes;
    put_u16(b, 0xb8, 45);  // angles X
    b[0xbe] = 1;           // reserved_1a
    const Mesh odd = read_mesh(b, "t");
    CHECK(odd.parts[0].angles[0] == 45);
    CHECK(odd.notes.size() == 2);
    CHECK(write_mesh(odd) == b);
  }
}

}  // namespace bi2_mesh_tests
