// trace, render and export through the command line: the JSON Lines schema (docs/trace.md), the
// PNG written, the OBJ of exactly the state that ran, and exit code 2 on a run that stops on an
// error.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "raster/png_io.h"
#include "tests/fa/pic_builder.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_run_tests {

namespace {
const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";

}  // namespace

TEST_CASE("cli trace: JSON Lines with start, op, branch, call, face and end events") {
  auto r = run_cli("trace " + shell_quote(kJet) + " --frame 5 --lod 0");
  REQUIRE(r.exit_code == 0);
  auto ev = json_lines(r.out);
  REQUIRE(ev.size() > 20);
  CHECK(ev.front()["ev"] == "start");
  CHECK(ev.front()["schema"] == 1);
  CHECK(ev.front()["state"]["frame_counter"] == 5);
  CHECK(ev.back()["ev"] == "end");
  CHECK(ev.back()["reason"] == "ShortEOF at top level");
  int faces = 0;
  bool saw_frame = false, saw_call = false, saw_short_jump = false;
  for (const auto& e : ev) {
    CHECK(e["eng"] == "fa");
    if (e["ev"] == "face") {
      CHECK(e["seq"] == faces);
      ++faces;
    }
    if (e["ev"] == "branch" && e["kind"] == "frame") {
      saw_frame = true;
      CHECK(e["value"] == 1);  // 5 mod 4
      CHECK(e["limit"] == 4);
    }
    if (e["ev"] == "call") saw_call = true;
    if (e["ev"] == "op" && e["name"] == "ShortJump") {
      saw_short_jump = true;
      CHECK(e["handler"] == "0x4D30E4");
      CHECK(e["symbol"] == "do_short_ijmp");
    }
  }
  CHECK(ev.back()["faces"] == faces);
  CHECK(saw_frame);
  CHECK(saw_call);
  CHECK(saw_short_jump);
  // Offsets are CODE offsets: the first op is at 14, right after the header.
  CHECK(ev[1]["off"] == 14);
}

TEST_CASE("cli render: writes an indexed PNG of the requested size; state options change it") {
  ScratchDir dir;
  const auto a = (dir / "a.png").string(), b = (dir / "b.png").string();
  REQUIRE(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --size 200x150")
              .exit_code == 0);
  REQUIRE(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(b) +
                  " --size 200x150 --destroyed")
              .exit_code == 0);
  auto ia = shapevm::raster::read_png(a);
  auto ib = shapevm::raster::read_png(b);
  CHECK(ia.frame.width() == 200);
  CHECK(ia.frame.height() == 150);
  CHECK(!(ia.frame == ib.frame));
  CHECK(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a)).exit_code ==
        2);  // exists
  CHECK(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --force --size 0x5")
            .exit_code == 2);
  CHECK(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --force --camera 1,2")
            .exit_code == 2);  // exactly three values, or fit
  CHECK(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --force --camera fit")
            .exit_code == 0);
  CHECK(run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --force --camera x")
            .exit_code == 2);
  CHECK(
      run_cli("render " + shell_quote(kTank) + " -o " + shell_quote(a) + " --force --set nonsense")
          .exit_code == 2);
}

TEST_CASE("cli export: the OBJ holds exactly the faces of the state that ran") {
  ScratchDir dir;
  const auto o = (dir / "t.obj").string();
  REQUIRE(run_cli("export " + shell_quote(kTank) + " -o " + shell_quote(o)).exit_code == 0);
  std::ifstream in(o);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(std::count(text.begin(), text.end(), 'f') >= 10);
  int faces = 0;
  std::istringstream lines_in(text);
  std::string line;
  while (std::getline(lines_in, line)) faces += line.rfind("f ", 0) == 0;
  CHECK(faces == 10);  // the intact tank's finest LOD
  const auto w = (dir / "w.obj").string();
  REQUIRE(run_cli("export " + shell_quote(kTank) + " -o " + shell_quote(w) + " --destroyed")
              .exit_code == 0);
  std::ifstream win(w);
  int wreck = 0;
  while (std::getline(win, line)) wreck += line.rfind("f ", 0) == 0;
  CHECK(wreck == 2);
}

TEST_CASE("FA-24: cli export --merged writes every articulation variant of the jet at once") {
  ScratchDir dir;
  auto faces_in = [](const std::string& path) {
    std::ifstream in(path);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += line.rfind("f ", 0) == 0;
    return n;
  };
  const auto plain = (dir / "plain.obj").string();
  const auto merged = (dir / "merged.obj").string();
  const auto all = (dir / "all.obj").string();
  REQUIRE(run_cli("export " + shell_quote(kJet) + " -o " + shell_quote(plain)).exit_code == 0);
  REQUIRE(run_cli("export " + shell_quote(kJet) + " -o " + shell_quote(merged) + " --merged")
              .exit_code == 0);
  REQUIRE(run_cli("export " + shell_quote(kJet) + " -o " + shell_quote(all) +
                  " --set _PLgearDown=1 --set _PLleftFlap=-1 --set _PLafterBurner=1")
              .exit_code == 0);
  CHECK(faces_in(plain) == 14);
  CHECK(faces_in(merged) == faces_in(all));  // gear, flaps and afterburner: 8 more faces
  CHECK(faces_in(merged) == 22);
}

TEST_CASE("cli trace: a run that exhausts its budget exits 2 and says why") {
  auto r = run_cli("trace " + shell_quote(kJet) + " --no-ops --max-steps 5");
  CHECK(r.exit_code == 2);
  auto ev = json_lines(r.out);
  REQUIRE(!ev.empty());
  CHECK(ev.back()["reason"] == "budget: steps");
  CHECK(ev.back()["ops"] == 5);
  CHECK(r.err.find("budget: steps") != std::string::npos);  // stderr says it too
}

TEST_CASE("cli trace -o: a run that stops on an error says why on stderr, as render does") {
  ScratchDir dir;
  const auto out = (dir / "t.jsonl").string();
  auto traced = run_cli("trace " + shell_quote(kJet) + " --max-depth 1 -o " + shell_quote(out));
  auto rendered = run_cli("render " + shell_quote(kJet) + " --max-depth 1 -o " +
                          shell_quote((dir / "f.png").string()));
  CHECK(traced.exit_code == 2);
  CHECK(rendered.exit_code == 2);
  CHECK(traced.out.empty());  // the trace went to the file
  // The same line render prints: the source, where the run stopped and why.
  CHECK(traced.err.find("call depth limit 1 reached") != std::string::npos);
  CHECK(rendered.err.find(traced.err) != std::string::npos);
  // ...and the file's last line carries the same reason.
  std::ifstream in(out);
  std::string line, last;
  while (std::getline(in, line)) last = line;
  CHECK(nlohmann::json::parse(last)["reason"] == "call depth limit 1 reached (budget)");
  // A clean run prints nothing on stderr.
  auto clean = run_cli("trace " + shell_quote(kJet) + " -o " + shell_quote(out));
  CHECK(clean.exit_code == 0);
  CHECK(clean.err.empty());
}

TEST_CASE("cli render --textures: textured faces sample the PIC the TextureFile names") {
  ScratchDir dir;
  // A dense 64x128 PIC (header, pixels at 64, row heads) whose texels are all index 0xC8.
  const uint32_t w = 64, h = 128;
  const std::vector<uint8_t> pic =
      shapevm::test::build_dense_pic(w, h, std::vector<uint8_t>(w * h, 0xC8));
  std::filesystem::create_directories(dir / "tex");
  {
    std::ofstream out(dir / "tex" / "_jet.pic",
                      std::ios::binary);  // names match case-insensitively
    out.write(reinterpret_cast<const char*>(pic.data()), static_cast<std::streamsize>(pic.size()));
  }
  const auto with = (dir / "with.png").string(), without = (dir / "without.png").string();
  REQUIRE(run_cli("render " + shell_quote(kJet) + " -o " + shell_quote(with) +
                  " --lod 0 --textures " + shell_quote((dir / "tex").string()))
              .exit_code == 0);
  auto plain = run_cli("render " + shell_quote(kJet) + " -o " + shell_quote(without) + " --lod 0");
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.err.find("_JET.PIC not found") != std::string::npos);
  auto count = [](const std::string& path) {
    auto img = shapevm::raster::read_png(path);
    return std::count(img.frame.pixels().begin(), img.frame.pixels().end(), uint8_t{0xC8});
  };
  CHECK(count(with) > 100);
  CHECK(count(without) == 0);
}

}  // namespace tools_cli_run_tests
