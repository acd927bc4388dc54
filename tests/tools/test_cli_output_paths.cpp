// Output paths as a new user gets them wrong: a folder where a file is wanted, a folder that does
// not exist, a folder they may not write. Every message names the path they gave (never the
// temporary file beside it) and the system's reason, and nothing is left behind.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_output_paths_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What write_file_atomic says, as text.
std::string write_error(const std::filesystem::path& path) {
  try {
    shapevm::write_text_atomic(path, "x");
  } catch (const shapevm::InputError& e) {
    return e.what();
  }
  return "";
}

size_t entries(const std::filesystem::path& dir) {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                           std::filesystem::directory_iterator()));
}

// Root ignores permissions; tests that need a folder it cannot write into skip then.
bool can_be_refused() {
  return ::geteuid() != 0;
}

}  // namespace

TEST_CASE("output paths: a folder as the output is refused clearly, before anything runs") {
  ScratchDir dir;
  std::filesystem::create_directories(dir / "out.png");
  auto render = run_cli("render " + q(kJet) + " -o " + q(dir / "out.png"));
  CHECK(render.exit_code == 2);
  CHECK(has(render.err, "out.png: is a folder; name a file to write"));
  CHECK_FALSE(has(render.err, "Success"));
  CHECK_FALSE(has(render.err, ".tmp"));
  auto forced = run_cli("render " + q(kJet) + " -o " + q(dir / "out.png") + " --force");
  CHECK(forced.exit_code == 2);
  CHECK(has(forced.err, "is a folder"));
  std::filesystem::create_directories(dir / "t.jsonl");
  auto trace = run_cli("trace " + q(kJet) + " -o " + q(dir / "t.jsonl"));
  CHECK(trace.exit_code == 2);
  CHECK(has(trace.err, "t.jsonl: is a folder"));
  CHECK(entries(dir.path()) == 2);  // no temporary file left beside them
  CHECK(has(write_error(dir.path()), "is a folder"));
}

TEST_CASE("output paths: a missing folder is named, and the temporary name never shows") {
  ScratchDir dir;
  const auto png = dir / "no" / "such" / "x.png";
  auto render = run_cli("render " + q(kJet) + " -o " + q(png));
  CHECK(render.exit_code == 2);
  CHECK(has(render.err, "x.png: cannot create: the folder " + (dir / "no" / "such").string() +
                            " does not exist"));
  CHECK_FALSE(has(render.err, ".tmp"));
  auto trace = run_cli("trace " + q(kJet) + " -o " + q(dir / "no" / "t.jsonl"));
  CHECK(trace.exit_code == 2);
  CHECK(has(trace.err, "t.jsonl: cannot create: the folder"));
  CHECK_FALSE(has(trace.err, ".tmp"));
}

TEST_CASE("output paths: a name the system refuses gives the system's reason") {
  ScratchDir dir;
  const std::string name = std::string(300, 'n') + ".png";  // longer than any file name may be
  auto render = run_cli("render " + q(kJet) + " -o " + q(dir / name));
  CHECK(render.exit_code == 2);
  CHECK(has(render.err, name + ": cannot create: File name too long"));
  CHECK_FALSE(has(render.err, ".tmp"));
  auto trace = run_cli("trace " + q(kJet) + " -o " + q(dir / name));
  CHECK(trace.exit_code == 2);
  CHECK(has(trace.err, name + ": cannot create: File name too long"));
  CHECK(entries(dir.path()) == 0);
}

TEST_CASE("output paths: a folder that refuses writing gives the system's reason") {
  if (!can_be_refused()) {
    MESSAGE("running as root, which every folder lets write: not tested here");
    return;
  }
  ScratchDir dir;
  const auto locked = dir / "locked";
  std::filesystem::create_directories(locked);
  std::filesystem::permissions(
      locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  auto render = run_cli("render " + q(kJet) + " -o " + q(locked / "x.png"));
  auto trace = run_cli("trace " + q(kJet) + " -o " + q(locked / "t.jsonl"));
  const std::string direct = write_error(locked / "y.bin");
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  CHECK(render.exit_code == 2);
  CHECK(has(render.err, "x.png: cannot create: Permission denied"));
  CHECK_FALSE(has(render.err, ".tmp"));
  CHECK(trace.exit_code == 2);
  CHECK(has(trace.err, "t.jsonl: cannot create: Permission denied"));
  CHECK_FALSE(has(trace.err, ".tmp"));
  CHECK(has(direct, "y.bin: cannot create: Permission denied"));
  CHECK(entries(locked) == 0);
}

TEST_CASE("output paths: a device is refused, never replaced by the renamed file") {
  auto r = run_cli("render " + q(kJet) + " -o /dev/null --force");
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, "/dev/null: is not a regular file"));
  CHECK(std::filesystem::is_character_file("/dev/null"));
}

}  // namespace tools_cli_output_paths_tests
