// The bi2 text form: text -> file -> text is exact for meshes, scenery lists and whole LIBs
// (packed members included), every stored field has a spelling (reserved and unknown words), a
// generated archive is rewritten byte for byte (`check`), and bad text names its line.
#include <doctest/doctest.h>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/mesh.h"
#include "interp/bi2/text.h"
#include "interp/bi2/tpwm.h"
#include "interp/common/registry.h"

namespace bi2_text_tests {

using namespace shapevm;
using namespace shapevm::bi2;

namespace {

std::string read_text(const std::string& path) {
  const auto b = read_file(path);
  return {b.begin(), b.end()};
}

void round_trips(const std::vector<uint8_t>& bytes) {
  const std::string text = disassemble_file(bytes, "F");
  const auto again = assemble_text(text, "F.bi2");
  CHECK(again == bytes);
  CHECK(disassemble_file(again, "F") == text);
}

}  // namespace

TEST_CASE("text: the examples assemble, and text -> file -> text is exact") {
  for (const char* name : {"units.bi2", "scenery.bi2"}) {
    const auto bytes =
        assemble_text(read_text(SHAPEVM_SOURCE_DIR "/examples/bi2/" + std::string(name)), name);
    round_trips(bytes);
  }
}

TEST_CASE("text: every stored field has a spelling: reserved, unknown and runtime words") {
  const std::string text = R"(3dob
  reserved_0c 1 0 0 0 2
  reserved_lead 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff
  vertex 1 2 3
  vertex -4 -5 -6
  polygon shade 160 bias -8 normal 1 2 3 u10 0x0a0b u12 0x0c0d u18 0x0001 r16 0x0002 r04 01 02 03 04 05 06 07 08 vertices 0 1
  part polygons 0 1 pivot 7 8 9 translation 1 2 3 angles 4 5 6 r1a 01 02 03 04 05 06 vertices 1 0
  slots 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14
end
)";
  const auto bytes = assemble_text(text, "t.bi2");
  const Mesh m = read_mesh(bytes, "t");
  CHECK(m.reserved_0c == std::array<uint16_t, 5>{1, 0, 0, 0, 2});
  CHECK(m.polygons[0].reserved_04[7] == 8);
  CHECK(m.polygons[0].reserved_16 == 2);
  CHECK(m.polygons[0].unknown_10 == 0x0a0b);
  CHECK(m.parts[0].angles == Vec3i16{4, 5, 6});
  CHECK(m.slots[19] == 0x14);
  round_trips(bytes);
  round_trips(tpwm_pack_literal(bytes));  // a whole packed 3DOB: "3dob tpwm"
}

TEST_CASE("text: check rewrites the generated archives byte for byte") {
  for (const auto& f : generate_archives(7, 12)) {
    const auto r = engine_named("bi2").check(EngineInput{f.name, f.name, std::nullopt, f.bytes});
    CHECK(r.rewritten == r.original);
  }
}

TEST_CASE("text: a member that does not read as its tag is kept as data, byte for byte") {
  std::vector<uint8_t> broken = {'3', 'D', 'O', 'B', 1, 2, 3};
  const auto lib = write_lib({{"BAD", broken}, {"ODD NAME", {1, 2}}});
  const std::string text = disassemble_file(lib, "L.LIB");
  CHECK(text.find("data") != std::string::npos);
  CHECK(text.find("member - raw") != std::string::npos);  // a name with a space
  round_trips(lib);
}

TEST_CASE("text: bad text names its line and what was expected") {
  CHECK_THROWS_WITH_AS(assemble_text("3dob\n vertex 1 2\nend\n", "u.bi2"),
                       doctest::Contains("u.bi2: line 2: expected vertex X Y Z"), InputError);
  CHECK_THROWS_WITH_AS(assemble_text("3dob\n vertex 1 2 3\n polygon vertices 0 4\nend\n", "u.bi2"),
                       doctest::Contains("line 3: expected vertex indices below 1, not 4"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      assemble_text("3dob\n vertex 1 2 3\n polygon shade x vertices 0\nend\n", "u.bi2"),
      doctest::Contains("a shade as an integer"), InputError);
  CHECK_THROWS_WITH_AS(assemble_text("lib\nmember TOOLONGNAME\ndata\nend\n", "u.bi2"),
                       doctest::Contains("at most 8 characters"), InputError);
  CHECK_THROWS_WITH_AS(assemble_text("3dob\n vertex 1 2 3\n", "u.bi2"),
                       doctest::Contains("end of text"), InputError);
  CHECK(looks_like_bi2_text("; comment\n3dob\n"));
  CHECK_FALSE(looks_like_bi2_text(".header\n"));
  CHECK_FALSE(looks_like_bi2_text("model 0 TANK\n"));
}

}  // namespace bi2_text_tests
