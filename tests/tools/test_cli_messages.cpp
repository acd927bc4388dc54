// What a new user reads when a command line is wrong: every parse error says "shapevm: error:",
// a mistyped command gets the closest one, `shapevm help CMD` works, numeric state options name
// the range they take, enumerated options list their values plainly, and options that would
// silently do nothing (or something else) are refused.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/tools/run_cli.h"

namespace tools_cli_messages_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("cli messages: a mistyped command suggests the closest one, with the prefix") {
  auto r = run_cli("rendr " + q(kJet));
  CHECK(r.exit_code == 2);
  CHECK(r.err.rfind("shapevm: error: ", 0) == 0);
  CHECK(has(r.err, "unknown command \"rendr\" (did you mean render?)"));
  auto t = run_cli("trcae");
  CHECK(t.exit_code == 2);
  CHECK(has(t.err, "(did you mean trace?)"));
}

TEST_CASE("cli messages: CLI11's own parse errors carry the prefix and point at the help") {
  auto none = run_cli("");
  CHECK(none.exit_code == 2);
  CHECK(none.err.rfind("shapevm: error: ", 0) == 0);
  auto unknown_option = run_cli("render " + q(kJet) + " -o x.png --bogus");
  CHECK(unknown_option.exit_code == 2);
  CHECK(unknown_option.err.rfind("shapevm: error: ", 0) == 0);
  CHECK(has(unknown_option.err, "--bogus"));
  CHECK(has(unknown_option.err, "Run \"shapevm render --help\""));
  auto missing = run_cli("render " + q(kJet));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.rfind("shapevm: error: ", 0) == 0);
  CHECK(has(missing.err, "--output"));
}

TEST_CASE("cli messages: shapevm help CMD prints that command's options; help alone the list") {
  auto render = run_cli("help render");
  CHECK(render.exit_code == 0);
  CHECK(has(render.out, "shapevm render"));
  CHECK(has(render.out, "--lod"));
  CHECK(render.out == run_cli("render --help").out);
  auto all = run_cli("help");
  CHECK(all.exit_code == 0);
  CHECK(has(all.out, "render"));
  CHECK(has(all.out, "regress"));
  auto wrong = run_cli("help rendr");
  CHECK(wrong.exit_code == 2);
  CHECK(has(wrong.err, "shapevm: error: "));
  CHECK(has(wrong.err, "(did you mean render?)"));
}

TEST_CASE("cli messages: numeric state options name the range the program takes") {
  ScratchDir dir;
  auto frame = run_cli("render " + q(kJet) + " -o " + q(dir / "a.png") + " --frame -1");
  CHECK(frame.exit_code == 2);
  CHECK(has(frame.err, "shapevm: error: --frame: -1 is outside 0..4294967295"));
  auto detail = run_cli("trace " + q(kJet) + " --detail 70000");
  CHECK(detail.exit_code == 2);
  CHECK(has(detail.err, "--detail: 70000 is outside 0..65535"));
  auto text = run_cli("trace " + q(kJet) + " --frame two");
  CHECK(text.exit_code == 2);
  CHECK(has(text.err, "--frame: expected an integer, got \"two\""));
  CHECK_FALSE(std::filesystem::exists(dir / "a.png"));
}

TEST_CASE("cli messages: enumerated options list their values plainly") {
  auto objend = run_cli("trace " + q(kJet) + " --objend foo");
  CHECK(objend.exit_code == 2);
  CHECK(has(objend.err, "shapevm: error: --objend: \"foo\" is not one of: absolute, relative"));
  CHECK_FALSE(has(objend.err, "->"));
  CHECK_FALSE(has(objend.err, "{"));
  auto format = run_cli("export " + q(kJet) + " -o x.obj --format stl");
  CHECK(format.exit_code == 2);
  CHECK(has(format.err, "--format: \"stl\" is not one of: obj, gltf, glb"));
  // Any case is accepted, as before.
  CHECK(run_cli("info " + q(kJet) + " --objend RELATIVE").exit_code == 0);
}

TEST_CASE("cli strict options: --lod beyond the program's levels names how many it has") {
  ScratchDir dir;
  auto ok = run_cli("render " + q(kJet) + " -o " + q(dir / "ok.png") + " --lod 2");
  CHECK(ok.exit_code == 0);
  auto beyond = run_cli("render " + q(kJet) + " -o " + q(dir / "no.png") + " --lod 3");
  CHECK(beyond.exit_code == 2);
  CHECK(has(beyond.err, "shapevm: error: --lod 3: "));
  CHECK(has(beyond.err, "has 3 levels of detail: --lod 0..2"));
  CHECK_FALSE(std::filesystem::exists(dir / "no.png"));
  auto trace = run_cli("trace " + q(kTank) + " --lod 99");
  CHECK(trace.exit_code == 2);
  CHECK(has(trace.err, "levels of detail: --lod 0.."));
}

TEST_CASE("cli strict options: --frames needs --headless") {
  auto r = run_cli("view " + q(kJet) + " --frames 5");
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "shapevm: error: --frames: only with --headless"));
}

TEST_CASE("cli strict options: the output's extension must name the format written") {
  ScratchDir dir;
  auto jpg = run_cli("render " + q(kJet) + " -o " + q(dir / "out.jpg"));
  CHECK(jpg.exit_code == 2);
  CHECK(has(jpg.err, "out.jpg: this command writes an indexed PNG: name the file .png"));
  CHECK_FALSE(std::filesystem::exists(dir / "out.jpg"));
  CHECK(run_cli("render " + q(kJet) + " -o " + q(dir / "OUT.PNG")).exit_code == 0);
  auto diff = run_cli("compare " + q(dir / "OUT.PNG") + " " + q(dir / "OUT.PNG") + " --diff " +
                      q(dir / "d.gif"));
  CHECK(diff.exit_code == 2);
  CHECK(has(diff.err, "d.gif: this command writes PNG"));
  // export: the format follows the extension; another name needs --format, a contradiction fails.
  auto stl = run_cli("export " + q(kTank) + " -o " + q(dir / "t.stl"));
  CHECK(stl.exit_code == 2);
  CHECK(has(stl.err, "export writes .obj, .gltf or .glb"));
  auto clash = run_cli("export " + q(kTank) + " -o " + q(dir / "t.obj") + " --format glb");
  CHECK(clash.exit_code == 2);
  CHECK(has(clash.err, "--format glb writes glb, but the name says obj"));
  CHECK(run_cli("export " + q(kTank) + " -o " + q(dir / "t.mesh") + " --format gltf").exit_code ==
        0);
  CHECK(std::filesystem::exists(dir / "t.mesh"));
}

TEST_CASE("cli messages: only the named command is set up, and nothing a user reads changes") {
  // `render` alone is set up for `render ...`; `--help` sets up every command to list them.
  auto all = run_cli("--help");
  CHECK(all.exit_code == 0);
  for (const char* name :
       {"lib", "disasm", "info", "asm", "gen", "examples", "trace", "render", "export", "variants",
        "view", "check", "compare", "regress", "trace-diff", "debug", "dap", "help"})
    CHECK_MESSAGE(has(all.out, std::string("  ") + name + " "), name);
  auto version = run_cli("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out == "shapevm 0.1.0\n");
  // The command word may follow an option; the error is the same as with every command set up.
  auto misplaced = run_cli("--bogus render");
  CHECK(misplaced.exit_code == 2);
  CHECK(misplaced.err.rfind("shapevm: error: ", 0) == 0);
}

}  // namespace tools_cli_messages_tests
