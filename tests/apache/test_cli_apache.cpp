// The Apache paths of the command line: asm, info, disasm, trace, render, export, gen and the
// examples, on the archives built from examples/apache at build time; malformed archives exit 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "raster/png_io.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace apache_cli_apache_tests {

namespace {
const std::string kExamples = SHAPEVM_EXAMPLES_BUILD_DIR "/apache";
const std::string kVehicle = kExamples + "/vehicle/3DOBJS.BIN";
const std::string kBuilding = kExamples + "/building/3DOBJS.BIN";
const std::string kTower = kExamples + "/tower/3DOBJS.BIN";
const std::string kCrate = kExamples + "/crate/3DOBJS.BIN";

}  // namespace

TEST_CASE("cli apache info: archive summary, record by #N and by name, every header field") {
  auto all = run_cli("info " + shell_quote(kVehicle));
  REQUIRE(all.exit_code == 0);
  CHECK(all.out.find("4 slots, 4 records (4 signed 16-bit, 0 grid), 1 with attached models") !=
        std::string::npos);
  auto by_name = run_cli("info " + shell_quote(kVehicle + ":TANK") + " --json");
  REQUIRE(by_name.exit_code == 0);
  auto j = nlohmann::json::parse(by_name.out);
  CHECK(j["engine"] == "apache");
  CHECK(j["record"] == 0);
  CHECK(j["next_record"] == 3);
  CHECK(j["lod_chain"] == nlohmann::json::array({0, 3}));
  CHECK(j["target_level"] == 2);
  CHECK(j["attachments"] == 2);
  CHECK(j["gameplay_slots"] == 1);
  CHECK(j["instances"] == 2);  // body and turret; the weapon slot is empty
  CHECK(j["opcodes"]["choose"] == 1);
  CHECK(j["opcodes"]["select"] == 1);
  CHECK(j["packets"]["heathaze"] == 1);
  auto by_index = run_cli("info " + shell_quote(kTower + ":#0"));
  REQUIRE(by_index.exit_code == 0);
  CHECK(by_index.out.find("encoding 1 (grid)") != std::string::npos);
}

TEST_CASE("cli apache disasm: labels, decoded packets, and the listing assembles again") {
  auto r = run_cli("disasm " + shell_quote(kVehicle + ":#0"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("choose 0x1 set=L") != std::string::npos);
  CHECK(r.out.find("select shift=4 mask=0x3 cases=L") != std::string::npos);
  CHECK(r.out.find("winding 2 6 5 front=L") != std::string::npos);
  CHECK(r.out.find("face shadedpolygon colour=136 normal=0 : 3 2 1 0") != std::string::npos);
  CHECK(r.out.find("attached 1") != std::string::npos);
}

TEST_CASE("cli apache trace: engine apache, ops, mask branches, faces and a clean end") {
  auto r = run_cli("trace " + shell_quote(kVehicle + ":tank") + " --set anim=0x23 --set slot1=2");
  REQUIRE(r.exit_code == 0);
  auto ev = json_lines(r.out);
  REQUIRE(ev.size() > 10);
  CHECK(ev.front()["ev"] == "start");
  CHECK(ev.front()["eng"] == "apache");
  CHECK(ev.front()["state"]["anim"] == 0x23);
  CHECK(ev.back()["ev"] == "end");
  CHECK(ev.back()["clean"] == true);
  int masks = 0, faces = 0, shadows = 0, haze = 0;
  for (const auto& e : ev) {
    CHECK(e["eng"] == "apache");
    if (e["ev"] == "branch" && e["kind"] == "mask") ++masks;
    if (e["ev"] == "face") {
      ++faces;
      if (e["shadow"] == true) ++shadows;
      if (e.contains("remap")) ++haze;
    }
  }
  CHECK(masks == 4);  // choose and ifmask, in the shadow pass and in the model pass
  CHECK(faces > 10);
  CHECK(shadows > 0);
  CHECK(haze == 1);  // anim bit 1: the exhaust haze
}

TEST_CASE("cli apache render and export: PNG with the 3DPAL palette, OBJ of the state") {
  ScratchDir dir;
  const auto png = dir / "crate.png";
  auto r = run_cli("render " + shell_quote(kCrate + ":crate") + " -o " + shell_quote(png.string()) +
                   " --size 320x240 --camera 0,40,25");
  REQUIRE(r.exit_code == 0);
  auto image = shapevm::raster::read_png(png);
  CHECK(image.frame.width() == 320);
  CHECK(std::count_if(image.frame.pixels().begin(), image.frame.pixels().end(),
                      [](uint8_t p) { return p != 0; }) > 1000);
  // Refuses to overwrite without --force.
  auto again =
      run_cli("render " + shell_quote(kCrate + ":#0") + " -o " + shell_quote(png.string()));
  CHECK(again.exit_code == 2);
  const auto obj = dir / "tower.obj";
  auto e =
      run_cli("export " + shell_quote(kTower + ":radartwr") + " -o " + shell_quote(obj.string()));
  REQUIRE(e.exit_code == 0);
  std::ifstream in(obj);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("v 0 8000 0") != std::string::npos);  // the antenna tip, grid-decoded
  CHECK(text.find("\nf ") != std::string::npos);
}

TEST_CASE("cli apache: malformed archives and bad members exit 2 with a precise message") {
  ScratchDir dir;
  auto bytes = shapevm::read_file(kBuilding);
  const auto bad = dir / "3DOBJS.BIN";
  // The vertex-list offset of record 0 (header at 8, field 0x34) pointed far outside the file.
  bytes[8 + 0x34 + 3] = 0x7F;
  shapevm::write_file_atomic(bad, bytes);
  auto r = run_cli("info " + shell_quote(bad.string() + ":#0"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("offset 0x3c: expected the vertex list offset") != std::string::npos);
  auto truncated = run_cli("render " + shell_quote(kBuilding + ":#7") + " -o " +
                           shell_quote((dir / "x.png").string()));
  CHECK(truncated.exit_code == 2);
  CHECK(truncated.err.find("no record #7: the archive has 1 slots") != std::string::npos);
  auto name = run_cli("trace " + shell_quote(kBuilding + ":nosuch"));
  CHECK(name.exit_code == 2);
  CHECK(name.err.find("no record named nosuch") != std::string::npos);
  auto fa_option = run_cli("trace " + shell_quote(kBuilding + ":#0") + " --destroyed");
  CHECK(fa_option.exit_code == 2);
  auto set = run_cli("trace " + shell_quote(kBuilding + ":#0") + " --set colour=3");
  CHECK(set.exit_code == 2);
  CHECK(set.err.find("knows no \"colour\"") != std::string::npos);
  // A program byte that is not an opcode: the run stops, exit 2, the trace ends unclean.
  bytes = shapevm::read_file(kBuilding);
  const uint32_t header = 8;
  const uint32_t program = header + (bytes[header + 0x3c] | (bytes[header + 0x3d] << 8));
  bytes[program] = 9;
  shapevm::write_file_atomic(bad, bytes);
  auto stop = run_cli("trace " + shell_quote(bad.string() + ":#0") + " --set shadows=0");
  CHECK(stop.exit_code == 2);
  auto ev = json_lines(stop.out);
  REQUIRE_FALSE(ev.empty());
  CHECK(ev.back()["clean"] == false);
  CHECK(ev.back()["reason"].get<std::string>().find("expected a drawing opcode 0..7, found 9") !=
        std::string::npos);
}

TEST_CASE("cli apache asm and gen: text to archive, textures and palette; a synthetic archive") {
  ScratchDir dir;
  std::ofstream(dir / "m.apa") << "texture 2 type 0 solid 9\nmodel 1 m\n  vertex 0 0 0\nprogram\n"
                                  "  face points colour=3 : 0\n  ret\nend\n";
  auto r = run_cli("asm " + shell_quote((dir / "m.apa").string()) + " -o " +
                   shell_quote((dir / "3DOBJS.BIN").string()));
  REQUIRE(r.exit_code == 0);
  CHECK(std::filesystem::file_size(dir / "3DPAL.RGB") == 672);
  CHECK(std::filesystem::file_size(dir / "OBJTEXT.BIN") == 4 + 3 * 4 + 12 + 4096);
  std::ofstream(dir / "bad.apa") << "model 1 m\n  vertex 0 0\nprogram\n  ret\nend\n";
  auto bad = run_cli("asm " + shell_quote((dir / "bad.apa").string()) + " -o " +
                     shell_quote((dir / "B.BIN").string()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("line 2: vertex takes 3 operand(s), found 2") != std::string::npos);
  const auto gen = dir / "gen";
  auto g = run_cli("gen apache --count 60 --seed 3 -o " + shell_quote(gen.string()));
  REQUIRE(g.exit_code == 0);
  auto info = run_cli("info " + shell_quote((gen / "3DOBJS.BIN").string()) + " --json");
  REQUIRE(info.exit_code == 0);
  auto j = nlohmann::json::parse(info.out);
  CHECK(j["records"] == 60);
  CHECK(j["grid_encoding"].get<int>() > 5);
  CHECK(j["with_attachments"].get<int>() > 2);
  // Every generated record runs cleanly.
  for (int i = 0; i < 60; i += 7) {
    auto t =
        run_cli("trace " + shell_quote((gen / "3DOBJS.BIN").string() + ":#" + std::to_string(i)) +
                " --no-ops --set anim=0x13");
    CHECK(t.exit_code == 0);
  }
}

TEST_CASE("cli examples renders the Apache examples too") {
  ScratchDir dir;
  auto r = run_cli("examples " + shell_quote(SHAPEVM_EXAMPLES_BUILD_DIR) + " -o " +
                   shell_quote(dir.path().string()));
  REQUIRE(r.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "apache_building_citblk.png"));
  CHECK(std::filesystem::exists(dir / "apache_vehicle_tank.png"));
  CHECK(std::filesystem::exists(dir / "apache_tower_radartwr.png"));
  CHECK(std::filesystem::exists(dir / "apache_crate_crate.png"));
  CHECK(std::filesystem::exists(dir / "jet.png"));
}

}  // namespace apache_cli_apache_tests
