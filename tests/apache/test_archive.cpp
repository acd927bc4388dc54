// The archive, the 188-byte header and relocation (AP-01, AP-02, AP-03, AP-34), names, and
// malformed archives (every offset and count checked, precise errors).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/apache/archive_cache.h"
#include "interp/apache/geometry.h"
#include "interp/apache/session.h"
#include "tests/apache/apache_fixture.h"

namespace apache_archive_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;

namespace {

const char* kTwoModels = R"(
slots 4
model 1 citblkd0 "City block"
  encoding short
  lod 25000 next 3
  bounds -1 2 -3 4 -5 6
  radius 77
  height 88
  properties 3
  target 30000
  meta 11 12
  damage 13
  explosion 14
  aux 15
  radar 16
  gameplay 1
  bbox
  vertex 1 2 3
  vertex -4 5 -6
  normal 0 127 0
  attach 3 10 20 30
  shadowdata 1 2 3 4
  gridlight 9 9
program
  face points colour=5 : 0
  ret
end
model 3 lowdet "Low detail"
  encoding grid
  vertex 32 32 32 32 32 32
program
  ret
end
)";

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    apache::Archive a(bytes, "3DOBJS.BIN");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("AP-01 the archive is a u32 count and that many u32 offsets and 0 means no model") {
  ApacheFixture f(kTwoModels);
  const auto& bytes = f.assembled.archive;
  CHECK(u32_at(bytes, 0) == 4);
  CHECK(f.archive.count() == 4);
  CHECK(f.archive.populated() == 2);
  CHECK(f.archive.slot_offset(0) == 0);
  CHECK(f.archive.record(0) == nullptr);
  CHECK(f.archive.record(2) == nullptr);
  REQUIRE(f.archive.record(1) != nullptr);
  CHECK(f.archive.record(1)->offset == u32_at(bytes, 8));
  CHECK(f.archive.record(1)->offset == 4 + 4 * 4);  // right after the table
  CHECK_THROWS_AS(f.archive.record(4), InputError);
}

TEST_CASE("AP-02 every header field is read from its offset") {
  ApacheFixture f(kTwoModels);
  const apache::ModelHeader& h = f.archive.record(1)->header;
  CHECK(h.encoding == 0);
  CHECK(h.lod_distance == 25000);
  CHECK(h.next_record == 3);
  CHECK(h.bounds == std::array<int32_t, 6>{-1, 2, -3, 4, -5, 6});
  CHECK(h.radius == 77);
  CHECK(h.height == 88);
  CHECK(h.name == "citblkd0");
  CHECK(h.description == "City block");
  CHECK(h.properties == 3);
  CHECK(h.casts_shadow());
  CHECK(h.receives_shadows());
  CHECK_FALSE(h.mobile_collision());
  CHECK(h.target_filter == 30000);
  CHECK(h.target_level() == 2);
  CHECK(h.metadata_a0 == 11);
  CHECK(h.metadata_a4 == 12);
  CHECK(h.damage_threshold == 13);
  CHECK(h.explosion == 14);
  CHECK(h.auxiliary_model == 15);
  CHECK(h.radar_symbol == 16);
  CHECK(h.gameplay_flags == 1);
  // The same bytes patched directly: a field moved to the wrong offset would show here.
  std::vector<uint8_t> bytes = f.assembled.archive;
  const uint32_t at = f.archive.record(1)->offset;
  put_u32(bytes, at + 0xb4, 0x1234);
  put_u32(bytes, at + 0x9c, 50000);
  apache::Archive patched(bytes, "patched");
  CHECK(patched.record(1)->header.radar_symbol == 0x1234);
  CHECK(patched.record(1)->header.target_level() == 3);
  CHECK(f.archive.record(3)->header.encoding == 1);
  CHECK(f.archive.record(3)->header.target_level() == 0);
}

TEST_CASE(
    "AP-03 the seven internal offsets are model-relative and relocated by the model address") {
  ApacheFixture f(kTwoModels);
  const apache::ModelRecord& rec = *f.archive.record(1);
  for (int s = 0; s < apache::kSectionCount; ++s) {
    INFO(apache::section_name(s));
    const uint32_t stored =
        u32_at(f.assembled.archive, rec.offset + 0x2c + 4 * static_cast<size_t>(s));
    CHECK(rec.header.stored[static_cast<size_t>(s)] == stored);
    REQUIRE(stored != 0);
    CHECK(rec.header.sections[static_cast<size_t>(s)] == rec.offset + stored);
  }
  // The low-detail record has no normals, attachments, bounding box, shadow or grid data.
  const apache::ModelHeader& lo = f.archive.record(3)->header;
  for (int s : {apache::kAttached, apache::kBoundingBox, apache::kNormals, apache::kShadow,
                apache::kGridLighting}) {
    CHECK_FALSE(lo.has(s));
    CHECK(lo.sections[static_cast<size_t>(s)] == 0);
  }
  CHECK(lo.has(apache::kVertices));
  CHECK(lo.has(apache::kProgram));
  // Relocated offsets are file offsets: the vertex count sits there.
  const auto g = apache::read_geometry(f.archive, rec);
  CHECK(g.vertices.offset == rec.header.sections[apache::kVertices]);
  CHECK(g.vertices.local.size() == 2);
  CHECK(g.bounding_box.size() == 8);
  CHECK(g.attachments.size() == 1);
}

TEST_CASE("AP-34 the LOD chain follows the next-record link by distance or --set lod") {
  ApacheFixture f(kTwoModels);
  apache::RunState s;
  CHECK(apache::select_lod(f.archive, 1, s, 25000) == 1);
  CHECK(apache::select_lod(f.archive, 1, s, 25001) == 3);
  s.lod = 1;
  CHECK(apache::select_lod(f.archive, 1, s, 0) == 3);
  s.lod = 0;
  CHECK(apache::select_lod(f.archive, 1, s, 1'000'000) == 1);
  s.lod = 5;  // the chain ends at -1
  CHECK(apache::select_lod(f.archive, 1, s, 0) == 3);
}

TEST_CASE("archive members are named by #index or by short name, case-insensitively") {
  ApacheFixture f(kTwoModels);
  CHECK(apache::resolve_record(f.archive, "#1") == 1);
  CHECK(apache::resolve_record(f.archive, "CITBLKD0") == 1);
  CHECK(apache::resolve_record(f.archive, "lowdet") == 3);
  CHECK_THROWS_WITH_AS(apache::resolve_record(f.archive, "#2"),
                       doctest::Contains("record #2 is an empty slot"), InputError);
  CHECK_THROWS_WITH_AS(apache::resolve_record(f.archive, "#9"),
                       doctest::Contains("no record #9: the archive has 4 slots"), InputError);
  CHECK_THROWS_WITH_AS(apache::resolve_record(f.archive, "nosuch"),
                       doctest::Contains("no record named nosuch"), InputError);
  CHECK_THROWS_AS(apache::resolve_record(f.archive, "#x1"), InputError);
}

TEST_CASE("malformed archives fail with the offset and what was expected") {
  ApacheFixture f(kTwoModels);
  const std::vector<uint8_t> good = f.assembled.archive;
  const uint32_t rec = f.archive.record(1)->offset;

  CHECK(error_of({1, 0}).find("offset 0x0") != std::string::npos);
  {
    auto b = good;
    put_u32(b, 0, 0x40000000);  // an offset table larger than the file
    CHECK(error_of(b).find("offset table fits in the file") != std::string::npos);
  }
  {
    auto b = good;
    put_u32(b, 8, static_cast<uint32_t>(b.size() - 10));  // header would run off the end
    CHECK(error_of(b).find("188-byte header") != std::string::npos);
  }
  {
    auto b = good;
    put_u32(b, rec + 0x34, 0x7FFFFFF0);  // vertex list offset beyond the file
    const std::string e = error_of(b);
    CHECK(e.find(fmt::format("offset 0x{:x}", rec + 0x34)) != std::string::npos);
    CHECK(e.find("vertex list offset (model-relative) to lie inside the file") !=
          std::string::npos);
  }
  {
    auto b = good;
    put_u32(b, rec + 0x00, 2);
    CHECK(error_of(b).find("coordinate encoding 0 (signed 16-bit) or 1 (grid), found 2") !=
          std::string::npos);
  }
  {
    auto b = good;
    put_u32(b, rec + 0x08, 4);
    CHECK(error_of(b).find("next LOD record to be -1 or an index below 4, found 4") !=
          std::string::npos);
  }
  {
    // A vertex count larger than the data left.
    auto b = good;
    const uint32_t vertices = f.archive.record(1)->header.sections[apache::kVertices];
    b[vertices] = 0xFF;
    b[vertices + 1] = 0xFF;
    apache::Archive a(b, "3DOBJS.BIN");
    CHECK_THROWS_WITH_AS(apache::read_geometry(a, *a.record(1)),
                         doctest::Contains("65535 six-byte vertices"), InputError);
  }
  {
    // A normal count larger than the data left (the flat-shading subset kept within it).
    auto b = good;
    const auto& header = f.archive.record(1)->header;
    REQUIRE(header.has(apache::kNormals));
    const uint32_t normals = header.sections[apache::kNormals];
    b[normals] = 0xFF;
    b[normals + 1] = 0xFF;
    b[normals + 2] = 0;
    b[normals + 3] = 0;
    apache::Archive a(b, "3DOBJS.BIN");
    CHECK_THROWS_WITH_AS(apache::read_geometry(a, *a.record(1)),
                         doctest::Contains("65535 three-byte normal vectors"), InputError);
  }
}

TEST_CASE("an archive is parsed once per read: sessions on the same bytes share it") {
  ApacheFixture f(kTwoModels);
  const SharedBytes read(f.assembled.archive);
  const auto first = apache::shared_archive(read, "A.BIN");
  const auto again = apache::shared_archive(read, "A.BIN");
  CHECK(again.get() == first.get());
  CHECK(first->populated() == 2);
  REQUIRE(first->record(1) != nullptr);
  CHECK(first->record(1)->header.name == "citblkd0");
  // Another read of equal bytes, or the same bytes under another name (which its messages
  // carry), is parsed again.
  const SharedBytes other_read(f.assembled.archive);
  const auto other = apache::shared_archive(other_read, "A.BIN");
  CHECK(other.get() != first.get());
  CHECK(other->populated() == 2);
  const auto renamed = apache::shared_archive(other_read, "B.BIN");
  CHECK(renamed.get() != other.get());
  CHECK(renamed->source() == "B.BIN");
  // Each keeps its bytes: the first archive still reads its records after the others.
  CHECK(first->record(1)->header.name == "citblkd0");
  CHECK(first->bytes().data() == read.data());
}

}  // namespace apache_archive_tests
