// BI-11: the 3DLD record (object ids with unused slots, padding, the count at 0x20, 16-byte
// placements from 0x22), read and drawn: every placement of a used slot places its LAND object
// at (x, 0, z); unused slots are skipped; the unknown word is kept and shown.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "core/input_error.h"
#include "interp/bi2/layer.h"
#include "interp/bi2/lib_archive.h"
#include "tests/bi2/bi2_fixture.h"

namespace bi2_layer_tests {

using namespace shapevm;
using namespace shapevm::testing;

namespace {

const char* kLayer = R"(3dld
  objects 1 0 0xffff 0xfffe 0 0
  place 0 1000 0
  place 1 -2000 3000 unknown 0xffff
  place 2 0 0
  place 3 5000 5000
end
)";

const char* kTile =
    "3dob\n vertex 0 0 0\n vertex 100 0 0\n vertex 0 0 100\n polygon shade 32 vertices 0 1 "
    "2\nend\n";
const char* kPost = "3dob\n vertex 0 0 0\n vertex 0 -200 0\n polygon shade 64 vertices 0 1\nend\n";

}  // namespace

TEST_CASE("BI-11: the 3DLD layout: tag, six object ids, padding, count at 0x20, placements") {
  const auto bytes = bi2_bytes(kLayer);
  REQUIRE(bytes.size() == 0x22 + 4 * 16);
  CHECK(std::string(bytes.begin(), bytes.begin() + 4) == "3DLD");
  CHECK(load_u16(&bytes[0x04]) == 1);
  CHECK(load_u16(&bytes[0x08]) == 0xffff);
  CHECK(load_u16(&bytes[0x20]) == 4);
  CHECK(load_u16(&bytes[0x22 + 16]) == 1);           // slot
  CHECK(load_u16(&bytes[0x22 + 16 + 2]) == 0xffff);  // unknown_02
  CHECK(load_i16(&bytes[0x22 + 16 + 4]) == -2000);   // x
  CHECK(load_i16(&bytes[0x22 + 16 + 6]) == 3000);    // z
  const bi2::Layer l = bi2::read_layer(bytes, "t");
  CHECK(l.placements.size() == 4);
  CHECK(l.placements[1].unknown_02 == 0xffff);
  CHECK(bi2::unused_object(l.object_ids[2]));
  CHECK(bi2::unused_object(l.object_ids[3]));
  CHECK(bi2::write_layer(l) == bytes);
}

TEST_CASE("BI-11: a placement slot beyond the six ids and a short record are rejected") {
  auto bytes = bi2_bytes(kLayer);
  bytes[0x22 + 32] = 6;
  CHECK_THROWS_WITH_AS((void)bi2::read_layer(bytes, "LAYR000.LIB:#5"),
                       doctest::Contains("offset 0x42: expected placement 2: a slot 0..5"),
                       InputError);
  bytes.resize(0x22 + 20);
  CHECK_THROWS_WITH_AS((void)bi2::read_layer(bytes, "t"), doctest::Contains("4 placements"),
                       InputError);
}

TEST_CASE("BI-11: a scene places each used slot's object at (x, 0, z); unused slots skipped") {
  Bi2Files f;
  f.write("LAND.LIB",
          bi2::write_lib({{"LAND000", bi2_bytes(kTile)}, {"LAND001", bi2_bytes(kPost)}}));
  f.write("LAYR.LIB", bi2::write_lib({{"LAYR000", bi2_bytes(kLayer)}}));
  auto p = f.open("LAYR.LIB:#0", bi2_state({}, {{"objects", f.path("LAND.LIB")}}));
  const auto r = bi2_run(*p, bi2_state({}, {{"objects", f.path("LAND.LIB")}}));
  // Placements 0 (slot 0 -> object 1, the post) and 1 (slot 1 -> object 0, the tile); 2 and 3
  // name unused slots.
  REQUIRE(r.steps.size() == 2);
  std::set<int64_t> placements;
  for (const auto& s : r.steps) {
    placements.insert(s.fields.at("placement"));
    if (s.fields.at("placement") == 0) CHECK(s.fields.at("object") == 1);
    if (s.fields.at("placement") == 1) CHECK(s.fields.at("object") == 0);
  }
  CHECK(placements == std::set<int64_t>{0, 1});
  for (const auto& face : r.faces) {
    if (face.model.size() == 2) {  // the post at (1000, 0, 0)
      CHECK(face.model[0] == std::array<int32_t, 3>{1000, 0, 0});
      CHECK(face.model[1] == std::array<int32_t, 3>{1000, -200, 0});
    } else {  // the tile at (-2000, 0, 3000)
      CHECK(face.model[1] == std::array<int32_t, 3>{-1900, 0, 3000});
    }
  }
  // info lists the placements with the unknown word and the skipped ones.
  const auto info = p->info_json();
  CHECK(info["placements"].size() == 4);
  CHECK(info["placements"][1]["unknown_02"] == 0xffff);
  CHECK(info["placements"][2]["unused"] == true);
  CHECK(p->info_text().find("unused slot: skipped") != std::string::npos);
  // Export: one node per placed object.
  const auto scene = p->export_scene(bi2_state({}, {{"objects", f.path("LAND.LIB")}}));
  REQUIRE(scene.has_value());
  CHECK(scene->nodes.size() == 3);
  CHECK(scene->nodes[1].translation == std::array<double, 3>{1000, 0, 0});
}

TEST_CASE("BI-11: an object id past the terrain archive is an error naming the id and slot") {
  Bi2Files f;
  f.write("LAND.LIB", bi2::write_lib({{"LAND000", bi2_bytes(kTile)}}));
  f.write("LAYR.LIB", bi2::write_lib({{"LAYR000", bi2_bytes(kLayer)}}));
  auto p = f.open("LAYR.LIB:#0", bi2_state({}, {{"objects", f.path("LAND.LIB")}}));
  Bi2Recorder sink;
  CHECK_THROWS_WITH_AS(p->run(bi2_state({}, {{"objects", f.path("LAND.LIB")}}), sink),
                       doctest::Contains("expected object id 1 (placement 0, slot 0) below the 1 "
                                         "members"),
                       InputError);
}

}  // namespace bi2_layer_tests
