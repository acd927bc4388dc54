// The engine interface's proof: a fake engine (fake_engine.h, tests only) is registered at run
// time and driven through info, disasm, render, trace, view --headless, debug --batch and regress
// in-process, exactly as a user would type them, without any command knowing it exists. The
// next engine is one folder plus one registration line.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "interp/common/registry.h"
#include "raster/png_io.h"
#include "tests/tools/fake_engine.h"
#include "tests/tools/run_cli.h"
#include "tools/command.h"

namespace tools_fake_engine_tests {

using namespace shapevm;

namespace {

// Runs `shapevm ARGS` inside this process with stdout and stderr captured.
CliResult run_here(const std::vector<std::string>& args) {
  ScratchDir capture;
  const std::string out_path = (capture / "out").string(), err_path = (capture / "err").string();
  std::fflush(stdout);
  std::fflush(stderr);
  std::cout.flush();
  const int saved_out = dup(1), saved_err = dup(2);
  std::FILE* out = std::fopen(out_path.c_str(), "wb");
  std::FILE* err = std::fopen(err_path.c_str(), "wb");
  dup2(fileno(out), 1);
  dup2(fileno(err), 2);
  std::vector<const char*> argv{"shapevm"};
  for (const auto& a : args) argv.push_back(a.c_str());
  const int code = tools::run_shapevm(static_cast<int>(argv.size()), argv.data());
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  std::fclose(out);
  std::fclose(err);
  auto text = [](const std::string& path) {
    const auto bytes = read_file(path);
    return std::string(bytes.begin(), bytes.end());
  };
  return {code, text(out_path), text(err_path)};
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Two triangles: a big one in colour 10 around the centre, a small one in colour 20 on top.
std::vector<uint8_t> two_triangles() {
  return testing::fake_file({{10, -50, -40, 50, -40, 0, 50}, {20, -5, -5, 5, -5, 0, 5}});
}

}  // namespace

TEST_CASE("engine interface: a fake engine registered at run time runs through every command") {
  register_engine(std::make_unique<testing::FakeEngine>());
  ScratchDir dir;
  const std::string file = (dir / "shape.fake").string();
  write_file_atomic(file, two_triangles());

  // Recognised by content: the registry names it, FA and Apache decline it.
  CHECK(engine_for(read_input(file)).name() == "fake");

  const CliResult info = run_here({"info", file});
  CHECK(info.exit_code == 0);
  CHECK(has(info.out, "fake program, 2 triangles"));

  const CliResult disasm = run_here({"disasm", file});
  CHECK(disasm.exit_code == 0);
  CHECK(has(disasm.out, "tri 10"));

  // render: the frame is drawn from the engine's face events by the shared renderer.
  const std::string png = (dir / "fake.png").string();
  const CliResult render = run_here({"render", file, "-o", png, "--set", "tint=1"});
  REQUIRE_MESSAGE(render.exit_code == 0, render.err);
  const auto image = raster::read_png(png);
  CHECK(image.frame.at(320, 240) == 21);       // the small triangle, drawn last, tinted
  CHECK(image.frame.at(320, 240 + 60) == 11);  // the big one below it (y up in view space)
  CHECK(image.frame.at(5, 5) == 0);            // the background

  // A --set name the engine does not declare is refused with the closest names; an option it
  // does not take names the engines that do.
  const CliResult unknown = run_here({"render", file, "-o", png, "--force", "--set", "tnt=1"});
  CHECK(unknown.exit_code == 2);
  CHECK(has(unknown.err, "closest: tint"));
  const CliResult merged = run_here({"render", file, "-o", png, "--force", "--merged"});
  CHECK(merged.exit_code == 2);
  CHECK(has(merged.err, "engines that do: fa"));

  // trace: JSON Lines with the engine's name on every event.
  const std::string trace = (dir / "t.jsonl").string();
  const CliResult traced = run_here({"trace", file, "-o", trace});
  REQUIRE_MESSAGE(traced.exit_code == 0, traced.err);
  std::ifstream lines(trace);
  std::string line;
  int ops = 0, faces = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    CHECK(j["eng"] == "fake");
    ops += j["ev"] == "op";
    faces += j["ev"] == "face";
  }
  CHECK(ops == 2);
  CHECK(faces == 2);

  // view --headless: the viewer runs it through the engine's viewer model.
  const CliResult view =
      run_here({"view", file, "--headless", "--frames", "2", "-o", (dir / "v").string()});
  REQUIRE_MESSAGE(view.exit_code == 0, view.err);
  CHECK(std::filesystem::exists(dir / "v" / "frame_00001.png"));

  // debug --batch: step, print a register the engine declares, step back, run to the end.
  const std::string batch = (dir / "cmds").string();
  write_text_atomic(batch, "step\nprint color\nback\nprint color\ncontinue\n");
  const CliResult debug = run_here({"debug", file, "--batch", batch});
  REQUIRE_MESSAGE(debug.exit_code == 0, debug.out << debug.err);
  CHECK(has(debug.out, "color = 20"));
  CHECK(has(debug.out, "color = 10"));
  CHECK(has(debug.out, "end of the triangles"));

  // regress: a manifest case of engine "fake" against the frame render wrote.
  const std::string manifest = (dir / "manifest.json").string();
  write_text_atomic(manifest, R"({"version": 1, "cases": [{"name": "fake_tint", "engine": "fake",
    "file": "shape.fake", "state": {"set": ["tint=1"]}, "capture": "fake.png"}]})");
  const CliResult regress = run_here({"regress", manifest});
  CHECK_MESSAGE(regress.exit_code == 0, regress.out << regress.err);
  CHECK(has(regress.out, "1 passed, 0 failed"));
  // ... and it fails when the state changes the frame.
  write_text_atomic(manifest, R"({"version": 1, "cases": [{"name": "fake_tint", "engine": "fake",
    "file": "shape.fake", "state": {"set": ["tint=2"]}, "capture": "fake.png"}]})");
  CHECK(run_here({"regress", manifest}).exit_code == 1);
}

TEST_CASE("engine interface: a bug is an internal error (exit 3), not bad input (exit 2)") {
  register_engine(std::make_unique<testing::FakeEngine>());
  ScratchDir dir;
  const std::string file = (dir / "buggy.fake").string();
  write_file_atomic(file, testing::fake_file({{255, 0, 0, 1, 0, 0, 1}}));
  const CliResult r = run_here({"info", file});
  CHECK(r.exit_code == 3);
  CHECK(has(r.err, "internal error"));
  CHECK(has(r.err, "fake engine bug"));
  // A malformed file of the same engine stays bad input.
  write_file_atomic(file, testing::fake_file({}));
  std::vector<uint8_t> cut = testing::fake_file({{1, 0, 0, 1, 0, 0, 1}});
  cut.pop_back();
  write_file_atomic(file, cut);
  CHECK(run_here({"info", file}).exit_code == 2);
}

TEST_CASE("engine interface: files no engine claims, and --engine forcing one") {
  ScratchDir dir;
  const std::string junk = (dir / "junk.bin").string();
  write_text_atomic(junk, "nothing any engine reads");
  const CliResult r = run_here({"info", junk});
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "none does"));
  CHECK(has(r.err, "EALIB"));  // each engine says what it recognises
  const CliResult forced = run_here({"info", junk, "--engine", "apache"});
  CHECK(forced.exit_code == 2);
  CHECK_FALSE(has(forced.err, "none does"));  // the engine's own reader reports the problem
  const CliResult no_such = run_here({"info", junk, "--engine", "quake"});
  CHECK(no_such.exit_code == 2);
  CHECK(has(no_such.err, "no engine called \"quake\""));
}

}  // namespace tools_fake_engine_tests
