// End to end: `shapevm compare`, `shapevm regress` and `shapevm trace-diff` as a user runs them,
// with their exit codes (0 same, 1 different, 2 bad input) and output files.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "core/file_io.h"
#include "raster/palette.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_regress_tests {

using namespace shapevm;

namespace {

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

const std::string kExamples = SHAPEVM_SOURCE_DIR "/examples/fa/";

}  // namespace

TEST_CASE("cli compare: identical, one pixel, palette only, masked, and bad input") {
  ScratchDir dir;
  const raster::Palette p = raster::default_palette();
  raster::Framebuffer a(20, 10, 3);
  raster::write_indexed_png(dir / "a.png", a, p);
  raster::Framebuffer b = a;
  b.set(7, 4, 90);
  raster::write_indexed_png(dir / "b.png", b, p);
  raster::Palette p2 = p;
  p2.colors[3] = {0, 0, 1};
  raster::write_indexed_png(dir / "pal.png", a, p2);
  write_file_atomic(dir / "a.raw", a.pixels());

  auto same = run_cli("compare " + q(dir / "a.png") + " " + q(dir / "a.png"));
  CHECK(same.exit_code == 0);
  CHECK(last_line(same.out) == "identical");

  auto one = run_cli("compare " + q(dir / "a.png") + " " + q(dir / "b.png") + " --diff " +
                     q(dir / "d.png"));
  CHECK(one.exit_code == 1);
  CHECK(one.out.find("1 pixel differs (0 excluded)\n") != std::string::npos);
  CHECK(one.out.find("bounding box: x 7..7, y 4..4 (1x1)\n") != std::string::npos);
  CHECK(one.out.find("first difference: (7, 4): A index 3 ") != std::string::npos);
  CHECK(raster::read_mask_png(dir / "d.png").width() == 3 * 20 + 8);
  // The diff image is not overwritten without --force.
  auto again = run_cli("compare " + q(dir / "a.png") + " " + q(dir / "b.png") + " --diff " +
                       q(dir / "d.png"));
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("already exists") != std::string::npos);

  auto palette = run_cli("compare " + q(dir / "a.png") + " " + q(dir / "pal.png"));
  CHECK(palette.exit_code == 1);
  CHECK(palette.out.find("pixels identical") != std::string::npos);
  CHECK(palette.out.find("palette: 1 used entry differs; first: index 3: A #") !=
        std::string::npos);

  auto masked =
      run_cli("compare " + q(dir / "a.png") + " " + q(dir / "b.png") + " --exclude 5,3,4,2");
  CHECK(masked.exit_code == 0);
  CHECK(masked.out.find("8 excluded") != std::string::npos);

  // Raw against PNG, and an RGB diff image read back as a capture through a's PLTE.
  CHECK(
      run_cli("compare " + q(dir / "a.raw") + " " + q(dir / "a.png") + " --size 20x10").exit_code ==
      0);
  auto no_size = run_cli("compare " + q(dir / "a.raw") + " " + q(dir / "a.png"));
  CHECK(no_size.exit_code == 2);
  CHECK(no_size.err.find("needs its size") != std::string::npos);
  auto wrong_size =
      run_cli("compare " + q(dir / "a.raw") + " " + q(dir / "a.png") + " --size 10x10");
  CHECK(wrong_size.exit_code == 2);
  CHECK(wrong_size.err.find("expected exactly 100 bytes") != std::string::npos);
  write_text_atomic(dir / "junk.png", "not a png");
  auto junk = run_cli("compare " + q(dir / "junk.png") + " " + q(dir / "a.png"));
  CHECK(junk.exit_code == 2);
  CHECK(junk.err.find("junk.png: not a readable PNG") != std::string::npos);
}

TEST_CASE("cli regress: FA cases pass, fail and bless; reports, shards and the final line") {
  ScratchDir dir;
  const std::string manifest = R"({"version": 1, "defaults": {"engine": "fa", "size": "160x120"},
    "cases": [
      {"name": "tank", "file": ")" +
                               kExamples + R"(tank.fas", "capture": "cap/tank.png"},
      {"name": "tank_destroyed", "file": ")" +
                               kExamples + R"(tank.fas", "state": {"destroyed": true},
       "capture": "cap/tank_destroyed.png"},
      {"name": "jet_gear", "file": ")" +
                               kExamples + R"(jet.fas", "state": {"set": ["_PLgearDown=1"]},
       "capture": "cap/jet_gear.raw"}
    ]})";
  write_text_atomic(dir / "m.json", manifest);
  std::filesystem::create_directories(dir / "cap");

  auto missing = run_cli("regress " + q(dir / "m.json"));
  CHECK(missing.exit_code == 2);
  CHECK(last_line(missing.out) == "0 passed, 3 failed");

  auto bless = run_cli("regress " + q(dir / "m.json") + " --update -j 2");
  CHECK(bless.exit_code == 0);
  CHECK(bless.out.find("3 captures updated") != std::string::npos);
  CHECK(bless.err.find('\r') == std::string::npos);  // no progress bar: stderr is no terminal

  auto pass = run_cli("regress " + q(dir / "m.json") + " -j 2 --junit " + q(dir / "j.xml"));
  CHECK(pass.exit_code == 0);
  CHECK(last_line(pass.out) == "3 passed, 0 failed");

  // Swap two captures: both cases now differ.
  std::filesystem::rename(dir / "cap/tank.png", dir / "cap/tmp.png");
  std::filesystem::rename(dir / "cap/tank_destroyed.png", dir / "cap/tank.png");
  std::filesystem::rename(dir / "cap/tmp.png", dir / "cap/tank_destroyed.png");
  auto fail = run_cli("regress " + q(dir / "m.json") + " --junit " + q(dir / "j.xml") + " --html " +
                      q(dir / "html"));
  CHECK(fail.exit_code == 1);
  CHECK(fail.out.find("FAILED  /cases/0 tank: ") != std::string::npos);
  CHECK(last_line(fail.out) == "1 passed, 2 failed");
  CHECK(std::filesystem::exists(dir / "html/index.html"));
  CHECK(std::filesystem::exists(dir / "html/case-1-diff.png"));
  std::ifstream xml(dir / "j.xml");
  std::stringstream text;
  text << xml.rdbuf();
  CHECK(text.str().find("failures=\"2\" errors=\"0\"") != std::string::npos);

  auto shard1 = run_cli("regress " + q(dir / "m.json") + " --shard 1/2");
  auto shard2 = run_cli("regress " + q(dir / "m.json") + " --shard 2/2");
  CHECK(last_line(shard1.out) == "1 passed, 1 failed");  // cases 0 and 2
  CHECK(last_line(shard2.out) == "0 passed, 1 failed");  // case 1
  CHECK(run_cli("regress " + q(dir / "m.json") + " --shard 3/2").exit_code == 2);

  write_text_atomic(dir / "bad.json", R"({"version": 1, "cases": [{"name": "x"}]})");
  auto bad = run_cli("regress " + q(dir / "bad.json"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.json: /cases/0/engine: missing (and no /defaults/engine)") !=
        std::string::npos);
}

TEST_CASE("cli trace-diff: our trace against itself, against plain lines, and a divergence") {
  ScratchDir dir;
  // Assemble the jet example and trace two states.
  REQUIRE(run_cli("asm " + q(kExamples + "jet.fas") + " -o " + q(dir / "jet.SH")).exit_code == 0);
  REQUIRE(run_cli("trace " + q(dir / "jet.SH") + " -o " + q(dir / "a.jsonl")).exit_code == 0);
  REQUIRE(run_cli("trace " + q(dir / "jet.SH") + " --set _PLgearDown=1 -o " + q(dir / "b.jsonl"))
              .exit_code == 0);
  auto same = run_cli("trace-diff " + q(dir / "a.jsonl") + " " + q(dir / "a.jsonl"));
  CHECK(same.exit_code == 0);
  CHECK(same.out.find("traces match: ") == 0);

  // A plain reference made from our own op lines: handlers by address where the trace has one,
  // else by mnemonic (engine-only handlers have no known address).
  auto plain = run_command(
      "grep '\"ev\":\"op\"' " + q(dir / "a.jsonl") +
      " | sed -E -e 's/.*\"off\":([0-9]+).*\"handler\":\"(0x[0-9A-F]+)\".*/\\1 \\2/'"
      " -e 's/^\\{.*\"off\":([0-9]+),\"op\":[0-9]+,\"name\":\"([^\"]+)\".*/\\1 \\2/' > " +
      q(dir / "ref.txt"));
  REQUIRE(plain.exit_code == 0);
  auto vs_plain = run_cli("trace-diff " + q(dir / "a.jsonl") + " " + q(dir / "ref.txt"));
  CHECK(vs_plain.exit_code == 0);
  CHECK(vs_plain.out.find("opcode events") != std::string::npos);

  auto gear = run_cli("trace-diff " + q(dir / "a.jsonl") + " " + q(dir / "b.jsonl"));
  CHECK(gear.exit_code == 1);
  CHECK(gear.out.find("first divergence at event ") == 0);
  CHECK(gear.out.find("  > line") != std::string::npos);

  write_text_atomic(dir / "bad.txt", "0x10 a b\n");
  auto bad = run_cli("trace-diff " + q(dir / "a.jsonl") + " " + q(dir / "bad.txt"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.txt: line 1: expected \"offset handler\" (2 fields), got 3") !=
        std::string::npos);
}

}  // namespace tools_cli_regress_tests
