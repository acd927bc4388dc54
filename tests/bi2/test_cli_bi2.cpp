// The Battle Isle 2 paths of the command line on the examples built from examples/bi2 at build
// time: info (text and JSON), disasm (which assembles again), trace (a step per polygon with its
// fields), render (a part turned changes the frame; a scene with --objects), check, lib ls and
// extract, gen; malformed files exit 2 with file, offset and expectation.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/lib_archive.h"
#include "raster/png_io.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace bi2_cli_bi2_tests {

namespace {

const std::string kUnits = SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB";
const std::string kScenery = SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/scenery.LIB";

}  // namespace

TEST_CASE("cli bi2 info: a LIB's members, a mesh's parts and polygons, JSON") {
  const auto all = run_cli("info " + shell_quote(kUnits));
  REQUIRE(all.exit_code == 0);
  CHECK(all.out.find("Battle Isle 2 LIB, 2 members") != std::string::npos);
  CHECK(all.out.find("TANK001") != std::string::npos);
  CHECK(all.out.find("tpwm") != std::string::npos);
  const auto tank = run_cli("info " + shell_quote(kUnits + ":TANK001"));
  REQUIRE(tank.exit_code == 0);
  CHECK(tank.out.find("3DOB mesh, 18 vertices, 13 polygons, 1 parts (TPWM)") != std::string::npos);
  CHECK(tank.out.find("part0: polygons 6..12, 10 vertices, pivot (0, -80, 10)") !=
        std::string::npos);
  CHECK(tank.out.find("2 corners (line)") != std::string::npos);
  const auto j = run_cli("info " + shell_quote(kUnits + ":#0") + " --json");
  REQUIRE(j.exit_code == 0);
  const auto info = nlohmann::json::parse(j.out);
  CHECK(info["engine"] == "bi2");
  CHECK(info["parts"][0]["polygons"] == nlohmann::json::array({6, 12}));
  CHECK(info["polygons"][12]["colour"] == 0 + 16 + 6);  // shade + ramp centre + bias
  CHECK(info["polygons"][0].contains("unknown_10"));
}

TEST_CASE("cli bi2 disasm: the listing assembles to the same member bytes") {
  ScratchDir dir;
  const auto r = run_cli("disasm " + shell_quote(kUnits + ":AMMO001A"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("polygon shade 0 bias 8 normal 0 -16384 0 vertices 0 1") != std::string::npos);
  shapevm::write_text_atomic(dir / "ammo.bi2", r.out);
  REQUIRE(run_cli("asm " + shell_quote((dir / "ammo.bi2").string()) + " -o " +
                  shell_quote((dir / "AMMO.3DOB").string()))
              .exit_code == 0);
  const auto lib = shapevm::read_file(kUnits);
  const shapevm::bi2::LibArchive archive(lib, "units.LIB");
  const auto member = archive.decoded(archive.find("AMMO001A"));
  CHECK(shapevm::read_file(dir / "AMMO.3DOB") == member);
}

TEST_CASE("cli bi2 trace: one draw step per polygon with its fields, then faces") {
  const auto r = run_cli("trace " + shell_quote(kUnits + ":TANK001") + " --set part0=0,45,0");
  REQUIRE(r.exit_code == 0);
  int steps = 0, lines = 0;
  for (const auto& e : json_lines(r.out)) {
    if (e.value("ev", "") != "op") continue;
    ++steps;
    CHECK(e["eng"] == "bi2");
    CHECK(e["fields"].contains("colour"));
    if (e["name"] == "draw_line") ++lines;
  }
  CHECK(steps == 13);
  CHECK(lines == 1);
}

TEST_CASE("cli bi2 render: turning the turret changes the frame; a scene renders") {
  ScratchDir dir;
  const auto a = dir / "a.png", b = dir / "b.png", s = dir / "s.png";
  REQUIRE(run_cli("render " + shell_quote(kUnits + ":TANK001") + " -o " + shell_quote(a.string()))
              .exit_code == 0);
  REQUIRE(run_cli("render " + shell_quote(kUnits + ":TANK001") + " --set part0=0,90,0 -o " +
                  shell_quote(b.string()))
              .exit_code == 0);
  CHECK(shapevm::read_file(a) != shapevm::read_file(b));
  const auto scene = run_cli("render " + shell_quote(kScenery + ":LAYR005") + " --objects " +
                             shell_quote(kScenery) + " -o " + shell_quote(s.string()));
  CHECK(scene.exit_code == 0);
  // --objects is the bi2 engine's: another engine's program refuses it.
  const auto apache =
      run_cli("render " + shell_quote(SHAPEVM_EXAMPLES_BUILD_DIR "/apache/crate/3DOBJS.BIN:#0") +
              " --objects x -o " + shell_quote((dir / "c.png").string()));
  CHECK(apache.exit_code == 2);
  CHECK(apache.err.find("bi2") != std::string::npos);
}

TEST_CASE("cli bi2 check, lib ls and lib extract on a generated archive") {
  ScratchDir dir;
  REQUIRE(run_cli("gen bi2 --count 6 -o " + shell_quote(dir.path().string())).exit_code == 0);
  const std::string units = (dir / "UN3D000.LIB").string();
  const auto check = run_cli("check " + shell_quote(units));
  CHECK(check.exit_code == 0);
  CHECK(run_cli("check " + shell_quote(units + ":UNIT002")).exit_code == 0);  // a packed member
  // Reserved bytes are kept by the text form, so the rewrite is still exact.
  auto odd = shapevm::read_file(units);
  const shapevm::bi2::LibArchive lib(odd, "u");
  odd[lib.find("#1").offset + 0x1C] = 1;  // reserved_lead of a stored member
  shapevm::write_file_atomic(dir / "ODD.LIB", odd);
  CHECK(run_cli("check " + shell_quote((dir / "ODD.LIB").string())).exit_code == 0);
  // Bytes between the offset word and the first member are not kept: the rewrite differs, exit 1.
  const std::vector<uint8_t> gap = {12,  0, 0, 0, 0xEE, 0xEE, 0xEE, 0xEE, 'A', 'B', 'C', 'D',
                                    'A', 0, 0, 0, 0,    0,    0,    0,    8,   0,   0,   0};
  shapevm::write_file_atomic(dir / "GAP.LIB", gap);
  CHECK(run_cli("check " + shell_quote((dir / "GAP.LIB").string())).exit_code == 1);
  const auto gap_ls = run_cli("lib ls " + shell_quote((dir / "GAP.LIB").string()));
  CHECK(gap_ls.exit_code == 0);
  CHECK((gap_ls.out + gap_ls.err).find("4 bytes between the index offset and the first member") !=
        std::string::npos);
  const auto ls = run_cli("lib ls " + shell_quote(units));
  REQUIRE(ls.exit_code == 0);
  CHECK(ls.out.find("UNIT005") != std::string::npos);
  CHECK(ls.out.find("tpwm") != std::string::npos);
  REQUIRE(run_cli("lib extract " + shell_quote(units) + " UNIT002 -o " +
                  shell_quote((dir / "out").string()))
              .exit_code == 0);
  const auto extracted = shapevm::read_file(dir / "out" / "UNIT002");
  CHECK(std::string(extracted.begin(), extracted.begin() + 4) == "3DOB");  // unpacked
  CHECK(run_cli("info " + shell_quote((dir / "LAYR000.LIB").string() + ":#3")).exit_code == 0);
}

TEST_CASE("cli bi2: malformed files exit 2 with the file, the offset and the expectation") {
  ScratchDir dir;
  auto bytes = shapevm::bi2::write_mesh(shapevm::bi2::generate_unit(1, 0));
  bytes[0x04] ^= 2;  // vertex_offset
  shapevm::write_file_atomic(dir / "BAD.3DOB", bytes);
  const auto r = run_cli("info " + shell_quote((dir / "BAD.3DOB").string()));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("BAD.3DOB: offset 0x4: expected vertex_offset") != std::string::npos);
  auto lib = shapevm::bi2::write_lib({{"A", {1, 2, 3}}, {"B", {4}}});
  lib.push_back(0);  // no longer whole entries: not recognised as a LIB at all
  shapevm::write_file_atomic(dir / "X.LIB", lib);
  CHECK(run_cli("info " + shell_quote((dir / "X.LIB").string()) + " --engine bi2").exit_code == 2);
}

}  // namespace bi2_cli_bi2_tests
