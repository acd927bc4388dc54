// The commands reach every engine through the registry: recognition by content (never the file
// name), state options checked against what the engine declares, `check` round trips, `lib` on
// any engine's containers, and the exit code of an internal error kept apart from bad input.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>

#include "core/file_io.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_engines_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH";
const std::string kVehicle = SHAPEVM_EXAMPLES_BUILD_DIR "/apache/vehicle/3DOBJS.BIN";

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("cli engines: a file is recognised by its content, not its name") {
  ScratchDir dir;
  // An FA shape named like an Apache archive, and an Apache archive named like an FA shape.
  std::filesystem::copy_file(kJet, dir / "3DOBJS.BIN");
  std::filesystem::copy_file(kVehicle, dir / "TANK.SH");
  const auto fa = run_cli("info " + shell_quote((dir / "3DOBJS.BIN").string()) + " --json");
  REQUIRE_MESSAGE(fa.exit_code == 0, fa.err);
  CHECK(has(fa.out, "\"header\""));
  const auto apache = run_cli("info " + shell_quote((dir / "TANK.SH").string() + ":tank"));
  REQUIRE_MESSAGE(apache.exit_code == 0, apache.err);
  CHECK(has(apache.out, "tank"));
  // Assembler text too: an Apache source under an FA-looking name assembles as Apache.
  std::filesystem::copy_file(SHAPEVM_SOURCE_DIR "/examples/apache/crate.apa", dir / "crate.fas");
  const auto asm_apache = run_cli("asm " + shell_quote((dir / "crate.fas").string()) + " -o " +
                                  shell_quote((dir / "out.BIN").string()));
  REQUIRE_MESSAGE(asm_apache.exit_code == 0, asm_apache.err);
  CHECK(std::filesystem::exists(dir / "3DPAL.RGB"));
}

TEST_CASE("cli engines: --set names the engine does not declare are errors with the closest") {
  // FA used to take any name as an import and silently render the default.
  const auto typo = run_cli("render " + shell_quote(kJet) + " -o /dev/null --set _PLgeardown=1");
  CHECK(typo.exit_code == 2);
  CHECK(has(typo.err, "knows no \"_PLgeardown\""));
  CHECK(has(typo.err, "closest: _PLgearDown"));
  // An import the shape does not name is refused too (the tank has no x86).
  const auto other = run_cli("trace " + shell_quote(kTank) + " --set _PLgearDown=1");
  CHECK(other.exit_code == 2);
  // Globals and record words are declared for every shape.
  const auto ok = run_cli("trace " + shell_quote(kTank) +
                          " --no-ops --set health=0 --set record+0x10=3 --set _detail=1");
  CHECK_MESSAGE(ok.exit_code == 0, ok.err);
}

TEST_CASE("cli engines: check rewrites a file with the engine's writer and compares") {
  ScratchDir dir;
  const auto same =
      run_cli("check " + shell_quote(kJet) + " -o " + shell_quote((dir / "again.SH").string()));
  CHECK_MESSAGE(same.exit_code == 0, same.err);
  CHECK(has(same.out, "identical"));
  CHECK(shapevm::read_file(dir / "again.SH") == shapevm::read_file(kJet));
  // A byte appended after the image is not part of what the writer writes: exit 1, the offset.
  auto bytes = shapevm::read_file(kJet);
  const size_t size = bytes.size();
  bytes.push_back(0x5A);
  shapevm::write_file_atomic(dir / "longer.SH", bytes);
  const auto differs = run_cli("check " + shell_quote((dir / "longer.SH").string()));
  CHECK(differs.exit_code == 1);
  CHECK(has(differs.out, fmt::format("0x{:x}", size)));
  // Bad input stays exit 2.
  shapevm::write_text_atomic(dir / "junk", "not a shape");
  CHECK(run_cli("check " + shell_quote((dir / "junk").string())).exit_code == 2);
}

TEST_CASE("cli engines: lib lists and extracts an Apache archive's records") {
  ScratchDir dir;
  const auto ls = run_cli("lib ls " + shell_quote(kVehicle));
  REQUIRE_MESSAGE(ls.exit_code == 0, ls.err);
  CHECK(has(ls.out, "tank"));
  CHECK(has(ls.out, "turret"));
  const auto extract = run_cli("lib extract " + shell_quote(kVehicle) + " turret -o " +
                               shell_quote((dir / "x").string()));
  REQUIRE_MESSAGE(extract.exit_code == 0, extract.err);
  CHECK(std::filesystem::exists(dir / "x" / "turret"));
}

TEST_CASE("cli engines: gen offers one subcommand per engine with a generator") {
  const auto help = run_cli("gen --help");
  CHECK(help.exit_code == 0);
  CHECK(has(help.out, "fa"));
  CHECK(has(help.out, "apache"));
}

TEST_CASE("cli engines: each generator's help says once that a seed repeats its files") {
  // The command adds the sentence after every engine's own text; an engine saying it too
  // printed it twice.
  for (const char* engine : {"fa", "apache", "shp", "bi2"}) {
    CAPTURE(engine);
    const auto help = run_cli(fmt::format("gen {} --help", engine));
    CHECK(help.exit_code == 0);
    const std::string sentence = "same --seed always gives the same";
    const size_t first = help.out.find(sentence);
    REQUIRE(first != std::string::npos);
    CHECK(help.out.find(sentence, first + 1) == std::string::npos);
  }
}

}  // namespace tools_cli_engines_tests
