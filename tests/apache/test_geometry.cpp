// Vertex encodings, normals and attached models (AP-04..AP-09, AP-24).
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "interp/apache/geometry.h"
#include "interp/apache/interpreter.h"
#include "tests/apache/apache_fixture.h"

namespace apache_geometry_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;

TEST_CASE("AP-04 encoding 0 is three signed 16-bit values multiplied by 16") {
  CHECK(apache::decode_short_vertex({1, -2, 32767}) == apache::Vec3{16, -32, 524272});
  CHECK(apache::decode_short_vertex({-32768, 0, 0}) == apache::Vec3{-524288, 0, 0});
}

TEST_CASE("AP-05 grid local coordinate is (coarse - 32) * 4096 + (fine - 32) * 64") {
  CHECK(apache::decode_grid_vertex({32, 32, 32, 32, 32, 32}) == apache::Vec3{0, 0, 0});
  CHECK(apache::decode_grid_vertex({31, 33, 32, 56, 62, 0}) ==
        apache::Vec3{-4096 + 24 * 64, 4096 + 30 * 64, -32 * 64});
  CHECK(apache::decode_grid_vertex({255, 0, 32, 255, 0, 33}) ==
        apache::Vec3{223 * 4096 + 223 * 64, -32 * 4096 - 32 * 64, 64});
}

TEST_CASE("AP-06 a vertex list is a u16 count and six bytes per vertex in either encoding") {
  ApacheFixture f(R"(
model 0 a
  encoding short
  vertex 1 2 3
  vertex -1 -2 -3
program
  ret
end
model 1 b
  encoding grid
  vertex 33 32 31 40 32 32
program
  ret
end
)");
  const auto a = apache::read_geometry(f.archive, *f.archive.record(0));
  REQUIRE(a.vertices.local.size() == 2);
  CHECK(a.vertices.raw[1] == std::array<int16_t, 3>{-1, -2, -3});
  CHECK(a.vertices.local[1] == apache::Vec3{-16, -32, -48});
  const uint32_t at = f.archive.record(0)->header.sections[apache::kVertices];
  CHECK(f.assembled.archive[at] == 2);
  CHECK(f.assembled.archive[at + 1] == 0);
  CHECK(f.archive.record(1)->header.sections[apache::kVertices] + 2 + 6 <=
        f.archive.record(1)->header.sections[apache::kProgram]);
  const auto b = apache::read_geometry(f.archive, *f.archive.record(1));
  REQUIRE(b.vertices.local.size() == 1);
  CHECK(b.vertices.grid[0] == std::array<uint8_t, 6>{33, 32, 31, 40, 32, 32});
  CHECK(b.vertices.local[0] == apache::Vec3{4096 + 8 * 64, 0, -4096});
}

TEST_CASE("AP-24 normals are two u16 counts then signed three-byte vectors") {
  ApacheFixture f(R"(
model 0 a
  vertex 0 0 0
  normal 0 127 0
  normal -128 5 -7
  normal 1 2 3
  flatnormals 1
program
  ret
end
)");
  const auto g = apache::read_geometry(f.archive, *f.archive.record(0));
  CHECK(g.normals.count == 3);
  CHECK(g.normals.flat_count == 1);
  REQUIRE(g.normals.vectors.size() == 3);
  CHECK(g.normals.vectors[1] == std::array<int8_t, 3>{-128, 5, -7});
  // A subset larger than the list is malformed.
  std::vector<uint8_t> bytes = f.assembled.archive;
  const uint32_t at = f.archive.record(0)->header.sections[apache::kNormals];
  bytes[at + 2] = 4;
  CHECK_THROWS_WITH_AS(
      apache::read_normals(bytes, at, "x"),
      doctest::Contains("flat-shading subset (4) not to exceed the normal count (3)"), InputError);
}

namespace {
const char* kAttachments = R"(
model 1 hull "hull"
  vertex 0 0 0
  attach 2 1000 0 0 0 -2147483648 0 2147483647 0 0 0 0 2147483647
  attach 0 0 500 0
program
  attached 0
  attached 1
  ret
end
model 2 turret "turret"
  vertex 0 0 0
  attach 3 0 0 200
program
  ret
end
model 3 gun "gun"
  vertex 0 0 0
program
  ret
end
model 4 pod "pod"
  vertex 0 0 0
program
  ret
end
)";
}

TEST_CASE("AP-07 attached-model records are 52 bytes: ID, three i32 translations, nine Q31") {
  ApacheFixture f(kAttachments);
  const auto g = apache::read_geometry(f.archive, *f.archive.record(1));
  REQUIRE(g.attachments.size() == 2);
  CHECK(g.attachments[1].offset - g.attachments[0].offset == 52);
  CHECK(g.attachments[0].model_id == 2);
  CHECK(g.attachments[0].translation == std::array<int32_t, 3>{1000, 0, 0});
  CHECK(g.attachments[0].rotation[1] == INT32_MIN);
  CHECK(g.attachments[0].rotation[3] == INT32_MAX);
  CHECK(g.attachments[1].rotation ==
        std::array<int32_t, 9>{INT32_MAX, 0, 0, 0, INT32_MAX, 0, 0, 0, INT32_MAX});
}

TEST_CASE(
    "AP-08 AP-09 construction recurses with composed transforms and ID 0 is a gameplay slot") {
  ApacheFixture f(kAttachments);
  // Slots empty: hull, turret, gun (the ID-0 record is not the archive's record 0).
  auto instances = apache::construct_instances(f.archive, 1, {});
  REQUIRE(instances.size() == 3);
  CHECK(instances[0].record == 1);
  CHECK(instances[1].record == 2);
  CHECK(instances[1].parent == 0);
  CHECK(instances[2].record == 3);
  CHECK(instances[2].parent == 1);
  // The turret is rotated 90 degrees (x' = -y, y' = x): the gun's +z offset stays +z, and the
  // turret's translation adds.
  const auto gun = instances[2].transform.apply({0, 0, 0});
  CHECK(gun[0] == 1000);
  CHECK(gun[1] == 0);
  CHECK(std::abs(gun[2] - 200) <= 1);
  const auto turret_x = instances[1].transform.apply({100, 0, 0});
  CHECK(turret_x[0] == 1000);
  CHECK(std::abs(turret_x[1] - 100) <= 1);
  // Filling slot 1 with the pod adds an instance marked as gameplay-filled.
  instances = apache::construct_instances(f.archive, 1, {{1, 4}});
  REQUIRE(instances.size() == 4);
  CHECK(instances[3].record == 4);
  CHECK(instances[3].from_gameplay_slot);
  CHECK(instances[3].transform.apply({0, 0, 0}) == std::array<int64_t, 3>{0, 500, 0});
}

TEST_CASE("attachment cycles are bounded by the depth limit") {
  ApacheFixture f(R"(
model 1 a
  vertex 0 0 0
  attach 1 0 0 0
program
  ret
end
)");
  CHECK_THROWS_WITH_AS(apache::construct_instances(f.archive, 1, {}, 8),
                       doctest::Contains("nest at most 8 deep"), InputError);
}

}  // namespace apache_geometry_tests
