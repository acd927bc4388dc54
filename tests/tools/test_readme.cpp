// The README's Use section runs as written: every `shapevm ...` line of its sh blocks runs, in
// order, in one scratch directory that holds what the repository root holds for it (`build` and
// `examples`, `tests` as links to the real ones), with the built binary first on PATH, and must
// exit 0. The one rule for skipping: a `view` line without `--headless` opens a window, which a
// test has no display for, so it is skipped (and there must be such lines no more than the
// README's window examples). Outputs land in the scratch directory, never in the build.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/run_cli.h"

namespace tools_readme_tests {

namespace {

// The `shapevm` lines of the sh code blocks between "## Use" and the next "## " heading.
std::vector<std::string> use_lines(const std::string& readme) {
  std::istringstream in(readme);
  std::string line;
  bool in_use = false, in_block = false;
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      in_use = line == "## Use";
      continue;
    }
    if (!in_use) continue;
    if (line.rfind("```", 0) == 0) {
      in_block = !in_block;
      continue;
    }
    if (in_block && line.rfind("shapevm ", 0) == 0) out.push_back(line);
  }
  return out;
}

bool needs_window(const std::string& line) {
  return line.rfind("shapevm view ", 0) == 0 && line.find("--headless") == std::string::npos;
}

}  // namespace

TEST_CASE("README: every shapevm line of the Use section runs as written on the bundled files") {
  std::ifstream file(SHAPEVM_SOURCE_DIR "/README.md");
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  const std::vector<std::string> lines = use_lines(text.str());
  REQUIRE(lines.size() >= 20);

  namespace fs = std::filesystem;
  ScratchDir dir;
  fs::create_directory_symlink(fs::path(SHAPEVM_EXE).parent_path(), dir / "build");
  fs::create_directory_symlink(SHAPEVM_SOURCE_DIR "/examples", dir / "examples");
  fs::create_directory_symlink(SHAPEVM_SOURCE_DIR "/tests", dir / "tests");
  fs::create_directory(dir / "bin");
  fs::create_symlink(SHAPEVM_EXE, dir / "bin" / "shapevm");

  int skipped = 0;
  for (const std::string& line : lines) {
    CAPTURE(line);
    if (needs_window(line)) {
      ++skipped;
      continue;
    }
    // No display for anything that would try to open one.
    const auto r = run_command("cd " + shell_quote(dir.path().string()) +
                               " && PATH=" + shell_quote((dir / "bin").string()) +
                               ":\"$PATH\" SDL_VIDEODRIVER=dummy " + line);
    INFO(r.err);
    CHECK(r.exit_code == 0);
  }
  CHECK(skipped <= 1);
  // The outputs stayed in the scratch directory.
  CHECK_FALSE(fs::exists(fs::path(SHAPEVM_EXE).parent_path() / "jet.png"));
}

}  // namespace tools_readme_tests
