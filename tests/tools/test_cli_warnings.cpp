// Warnings a run repeats: one line per missing texture name for a whole regression run, however
// many cases draw it; and SDL's own log lines say they come from SDL through shapevm.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/file_io.h"
#include "harness/sdl_library.h"
#include "harness/viewer_sdl.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_warnings_tests {

namespace {

const std::string kJetSource = SHAPEVM_SOURCE_DIR "/examples/fa/jet.fas";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find(part) != std::string::npos) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("warnings: one line per missing texture name across a regression run of many cases") {
  ScratchDir dir;
  // A second jet whose texture has another name, so the run misses two names.
  std::ifstream in(kJetSource);
  std::string jet((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string other = jet;
  const auto at = other.find("_JET.PIC");
  REQUIRE(at != std::string::npos);
  other.replace(at, 8, "_OTH.PIC");
  shapevm::write_text_atomic(dir / "jet.fas", jet);
  shapevm::write_text_atomic(dir / "oth.fas", other);
  constexpr int kCases = 50;
  std::string cases;
  for (int i = 0; i < kCases; ++i) {
    cases += (i == 0 ? "" : ",\n") +
             fmt::format(R"({{"name": "c{0}", "file": "{1}", "state": {{"frame": {0}, "lod": 0}},
                 "capture": "cap/c{0}.png"}})",
                         i, i % 2 == 0 ? "jet.fas" : "oth.fas");
  }
  shapevm::write_text_atomic(
      dir / "m.json",
      R"({"version": 1, "defaults": {"engine": "fa", "size": "80x60"}, "cases": [)" + cases + "]}");
  std::filesystem::create_directories(dir / "cap");
  auto bless = run_cli("regress " + q(dir / "m.json") + " --update -j 2");
  REQUIRE(bless.exit_code == 0);
  const auto warnings = lines_with(bless.err, "warning: texture");
  REQUIRE(warnings.size() == 2);
  CHECK(lines_with(bless.err, "_JET.PIC not found").size() == 1);
  CHECK(lines_with(bless.err, "_OTH.PIC not found").size() == 1);
  CHECK(lines_with(bless.err, "(25 cases, the first /cases/0 c0)").size() == 1);
  CHECK(lines_with(bless.err, "(25 cases, the first /cases/1 c1)").size() == 1);
  // The same when the cases pass.
  auto pass = run_cli("regress " + q(dir / "m.json"));
  CHECK(pass.exit_code == 0);
  CHECK(lines_with(pass.err, "warning: texture").size() == 2);
}

TEST_CASE("warnings: a single case keeps its own name in the warning") {
  ScratchDir dir;
  shapevm::write_text_atomic(
      dir / "m.json",
      R"({"version": 1, "defaults": {"engine": "fa", "size": "80x60"}, "cases": [
        {"name": "only", "file": ")" +
          kJetSource + R"(", "state": {"lod": 0}, "capture": "c.png"}]})");
  auto r = run_cli("regress " + q(dir / "m.json") + " --update");
  REQUIRE(r.exit_code == 0);
  const auto warnings = lines_with(r.err, "warning: ");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "shapevm: warning: /cases/0 only: texture _JET.PIC not found; its faces are drawn without "
        "it");
}

TEST_CASE("warnings: SDL's log lines are prefixed, and its chatter below warnings is dropped") {
  using shapevm::harness::sdl_log_line;
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_WARN, "no joystick\n") ==
        "shapevm: SDL warning: no joystick\n");
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_ERROR, "lost the display") ==
        "shapevm: SDL error: lost the display\n");
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_CRITICAL, "x") == "shapevm: SDL error: x\n");
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_INFO, "video driver x11").empty());
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_DEBUG, "y").empty());
  CHECK(sdl_log_line(SDL_LOG_PRIORITY_VERBOSE, "z").empty());
  // Installed, SDL's output goes through it (not SDL's default "WARN: ..." printer).
  SDL_LogOutputFunction before = nullptr;
  void* data = nullptr;
  shapevm::harness::sdl_library().SDL_LogGetOutputFunction(&before, &data);
  shapevm::harness::install_sdl_log_output();
  SDL_LogOutputFunction after = nullptr;
  shapevm::harness::sdl_library().SDL_LogGetOutputFunction(&after, &data);
  const bool installed = after != nullptr && after != before;
  CHECK(installed);
  shapevm::harness::sdl_library().SDL_LogSetOutputFunction(before, nullptr);
}

}  // namespace tools_cli_warnings_tests
