// The Starlancer paths of the command line, as a user runs them: asm, info, disasm, trace (the
// loader's model_take_chunk steps with their fields, then the drawing), check, lib ls on a HOG
// with repeated names, gen, and malformed input exiting 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "tests/shp/shp_fixture.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace shp_cli_shp_tests {

using shapevm::testing::shp_image;
using shapevm::testing::triangle_model;

namespace {

std::string write_bytes(const ScratchDir& dir, const std::string& name,
                        const std::vector<uint8_t>& bytes) {
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace

TEST_CASE("cli shp asm, info and disasm: text to model, its description, and back") {
  ScratchDir dir;
  std::ofstream(dir / "tri.shpt") << "shp\n" + triangle_model();
  const std::string model = (dir / "tri.shp").string();
  auto a = run_cli("asm " + shell_quote((dir / "tri.shpt").string()) + " -o " + shell_quote(model));
  REQUIRE(a.exit_code == 0);
  auto info = run_cli("info " + shell_quote(model));
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("part 0 \"Hull\": class 1, parent -1") != std::string::npos);
  CHECK(info.out.find("level 0: distance 0, 3 vertices, 1 faces, 1 materials") !=
        std::string::npos);
  CHECK(info.out.find("vertices=32") != std::string::npos);
  CHECK(info.out.find("triggers=-") != std::string::npos);
  auto j = run_cli("info " + shell_quote(model) + " --json");
  REQUIRE(j.exit_code == 0);
  const auto json = nlohmann::json::parse(j.out);
  CHECK(json["engine"] == "shp");
  CHECK(json["parts"][0]["levels"][0]["faces"] == 1);
  CHECK(json["record_sizes"]["faces"] == 80);
  auto d = run_cli("disasm " + shell_quote(model));
  REQUIRE(d.exit_code == 0);
  CHECK(d.out.find("chunk 04 vertices size=32") != std::string::npos);
  CHECK(d.out.find("face material=0 mode=3 flags=0x0 vertices=0,1,2") != std::string::npos);
  // The listing assembles back to the same bytes.
  std::ofstream(dir / "again.shpt") << d.out;
  auto again = run_cli("asm " + shell_quote((dir / "again.shpt").string()) + " -o " +
                       shell_quote((dir / "again.shp").string()));
  REQUIRE(again.exit_code == 0);
  CHECK(shapevm::read_file((dir / "again.shp").string()) == shapevm::read_file(model));
  // Assembler errors exit 2 with the line.
  std::ofstream(dir / "bad.shpt")
      << "shp\nchunk 04 vertices size=32\n  vertex position=1,2,3,4\nend\n";
  auto bad = run_cli("asm " + shell_quote((dir / "bad.shpt").string()) + " -o " +
                     shell_quote((dir / "bad.shp").string()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("line 3") != std::string::npos);
}

TEST_CASE("cli shp trace: the loader's model_take_chunk steps with their fields, then faces") {
  ScratchDir dir;
  const std::string model = write_bytes(dir, "tri.shp", shp_image(triangle_model()));
  auto r = run_cli("trace " + shell_quote(model));
  REQUIRE(r.exit_code == 0);
  const auto ev = json_lines(r.out);
  REQUIRE(ev.size() > 5);
  CHECK(ev.front()["eng"] == "shp");
  int takes = 0, faces = 0;
  bool face_after_takes = true;
  for (const auto& e : ev) {
    // Drawing's steps (draw_part, draw_face: docs/shp-drawing.md) follow the loader's.
    if (e["ev"] == "op" && e["name"] != "model_take_chunk") {
      CHECK(takes == 12);
      continue;
    }
    if (e["ev"] == "op") {
      CHECK(e["handler"] == "0x4A2EB0");
      CHECK(e["fields"].contains("cursor_before"));
      CHECK(e["fields"].contains("bytes_copied_per_record"));
      if (faces > 0) face_after_takes = false;
      ++takes;
    }
    if (e["ev"] == "face") ++faces;
  }
  CHECK(takes == 12);  // 00 01 | 02 07 09 0A 0D 0F | 04 03 06 | 10
  CHECK(faces == 1);
  CHECK(face_after_takes);
  CHECK(ev.back()["ev"] == "end");
  CHECK(ev.back()["clean"] == true);
  // The first request: the header, hit, 88 of 104 bytes per record.
  const auto& first = ev[1];
  CHECK(first["fields"]["tag"] == 0);
  CHECK(first["fields"]["hit"] == 1);
  CHECK(first["fields"]["record_size"] == 88);
  CHECK(first["fields"]["bytes_copied_per_record"] == 88);
  CHECK(first["fields"]["cursor_after"] == 94);
}

TEST_CASE("cli shp check: identical rewrite with box classes; a normalised rewrite exits 1") {
  ScratchDir dir;
  const std::string model = write_bytes(dir, "tri.shp", shp_image(triangle_model()));
  auto ok = run_cli("check " + shell_quote(model));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("identical") != std::string::npos);
  CHECK(ok.out.find("stored boxes: 1 zero (never filled in)") != std::string::npos);
  std::string odd = triangle_model();
  odd.replace(odd.rfind("end"), 3, "end size=1 count=1");
  const std::string odd_model = write_bytes(dir, "odd.shp", shp_image(odd));
  auto diff = run_cli("check " + shell_quote(odd_model));
  CHECK(diff.exit_code == 1);
  CHECK(diff.out.find("differs") != std::string::npos);
  // An invalid index is bad input.
  std::string invalid = triangle_model();
  invalid.replace(invalid.find("vertices=0,1,2"), 14, "vertices=0,1,9");
  auto bad = run_cli("check " + shell_quote(write_bytes(dir, "bad.shp", shp_image(invalid))));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("vertex 9 past the level's 3 vertices") != std::string::npos);
}

TEST_CASE("cli shp lib ls and members: a HOG with repeated names, RefPack and stored members") {
  ScratchDir dir;
  const auto image = shp_image(triangle_model());
  const auto hog =
      shapevm::shp::write_hog({{"stalag.SHP", shapevm::shp::refpack_compress_literal(image)},
                               {"STALAG.shp", image},
                               {"stalag.SHP", image}});
  const std::string path = write_bytes(dir, "resource.hog", hog);
  auto ls = run_cli("lib ls " + shell_quote(path));
  REQUIRE(ls.exit_code == 0);
  CHECK(ls.out.find("refpack") != std::string::npos);
  CHECK(ls.out.find("stored") != std::string::npos);
  CHECK(ls.err.find("held by 3 members") != std::string::npos);
  auto info = run_cli("info " + shell_quote(path + ":STALAG.shp"));
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("resource.hog:STALAG.shp") != std::string::npos);
  auto by_index = run_cli("trace " + shell_quote(path + ":#2") + " --no-ops");
  CHECK(by_index.exit_code == 0);
  auto missing = run_cli("info " + shell_quote(path + ":nothere.shp"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("no member named nothere.shp") != std::string::npos);
}

TEST_CASE("cli shp: malformed and truncated models exit 2 with file, offset and expectation") {
  ScratchDir dir;
  auto image = shp_image(triangle_model());
  REQUIRE(image.size() > 40);
  // Cut inside the firing arc chunk's records, or before it. (Erased rather than resized: GCC's
  // -Wstringop-overflow took resize's growing branch for a size below 40.)
  image.erase(image.end() - 40, image.end());
  const std::string cut = write_bytes(dir, "cut.shp", image);
  auto r = run_cli("info " + shell_quote(cut));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cut.shp: offset 0x") != std::string::npos);
  CHECK(r.err.find("expected") != std::string::npos);
}

TEST_CASE("cli shp gen: a synthetic resource.hog whose members run") {
  ScratchDir dir;
  auto g = run_cli("gen shp --count 6 --seed 2 -o " + shell_quote(dir.path().string()));
  REQUIRE(g.exit_code == 0);
  const std::string hog = (dir / "resource.hog").string();
  auto ls = run_cli("lib ls " + shell_quote(hog));
  REQUIRE(ls.exit_code == 0);
  CHECK(ls.out.find("gen0005.SHP") != std::string::npos);
  for (int i = 0; i < 6; ++i) {
    auto c = run_cli("check " + shell_quote(hog + ":#" + std::to_string(i)));
    CHECK(c.exit_code == 0);
  }
}

TEST_CASE("cli shp debug: steps through the loader's requests, back, then on into the drawing") {
  ScratchDir dir;
  const std::string model = SHAPEVM_EXAMPLES_BUILD_DIR "/shp/debris.SHP";
  const std::string batch = (dir / "cmds").string();
  shapevm::write_text_atomic(batch, "step 2\nregs\nback 1\ninfo frame\ncontinue\n");
  const auto r = run_cli("debug " + shell_quote(model) + " --batch " + shell_quote(batch));
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  CHECK(r.out.find("chunk 02 levels size=4") != std::string::npos);  // the pause at the cursor
  CHECK(r.out.find("cursor") != std::string::npos);
  CHECK(r.out.find("struct_size") != std::string::npos);
  CHECK(r.out.find("tick 1") != std::string::npos);
  CHECK(r.out.find("end of run") != std::string::npos);
  // The drawing ran after the loader: the box's three sides facing the default camera.
  CHECK(r.out.find("faces 6") != std::string::npos);
}

TEST_CASE("cli shp render: the bundled examples draw") {
  ScratchDir dir;
  for (const char* name : {"fighter", "station", "debris"}) {
    const auto png = dir / (std::string(name) + ".png");
    auto r = run_cli("render " +
                     shell_quote(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/shp/") + name + ".SHP") +
                     " -o " + shell_quote(png.string()));
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(std::filesystem::exists(png));
  }
}

TEST_CASE("SL-02: lib extract NAME takes the first exact match before a case-insensitive one") {
  ScratchDir dir;
  // Members that are no models: only the lookup matters, so the engine is named.
  const std::vector<uint8_t> upper = {'U', 'P'}, exact = {'E', 'X', 'A', 'C', 'T'};
  const auto hog = shapevm::shp::write_hog({{"STALAG.shp", upper}, {"stalag.SHP", exact}});
  const std::string path = write_bytes(dir, "resource.hog", hog);
  const auto out = dir / "out";
  REQUIRE(run_cli("lib extract " + shell_quote(path) + " stalag.SHP --engine shp -o " +
                  shell_quote(out.string()))
              .exit_code == 0);
  CHECK(shapevm::read_file(out / "stalag.SHP") == exact);
  const auto out2 = dir / "out2";
  REQUIRE(run_cli("lib extract " + shell_quote(path) + " Stalag.shp --engine shp -o " +
                  shell_quote(out2.string()))
              .exit_code == 0);
  // No exact match: the first member that differs only by case.
  CHECK(shapevm::read_file(out2 / "STALAG.shp") == upper);
}

}  // namespace shp_cli_shp_tests
