// The CLI contract for the FA commands: exit 0 on success, 2 on bad input or usage, errors that
// name the file (DESIGN.md, "Contracts other programs rely on").
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/tools/run_cli.h"

namespace tools_cli_fa_tests {

namespace {
const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
}

TEST_CASE("cli: disasm and info describe a built example (exit 0)") {
  auto d = run_cli("disasm " + shell_quote(kJet));
  CHECK(d.exit_code == 0);
  CHECK(d.out.find("X86Code") != std::string::npos);
  CHECK(d.out.find("{_PLgearDown}") != std::string::npos);
  CHECK(d.out.find("cmp word ptr") != std::string::npos);
  auto i = run_cli("info --json " + shell_quote(kJet));
  REQUIRE(i.exit_code == 0);
  auto j = nlohmann::json::parse(i.out);
  CHECK(j["x86_blocks"] == 5);  // gear (2 blocks), flaps, afterburner and their join
  CHECK(j["max_frames"] == 4);
  CHECK(j["lod_levels"] == 3);
  CHECK(j["header"]["radius"] == 110);
  CHECK(j["ptr_to_obj_end"][0]["absolute_on_end_object"] == true);
  auto dj = run_cli("disasm --json " + shell_quote(kJet));
  REQUIRE(dj.exit_code == 0);
  CHECK(nlohmann::json::parse(dj.out)["lines"].size() > 50);
}

TEST_CASE("cli: disasm output re-assembles to the identical file") {
  ScratchDir dir;
  REQUIRE(run_cli("disasm " + shell_quote(kJet) + " -o " + shell_quote((dir / "jet.fas").string()))
              .exit_code == 0);
  REQUIRE(run_cli("asm " + shell_quote((dir / "jet.fas").string()) + " -o " +
                  shell_quote((dir / "jet.SH").string()))
              .exit_code == 0);
  CHECK(run_command("cmp " + shell_quote(kJet) + " " + shell_quote((dir / "jet.SH").string()))
            .exit_code == 0);
  // asm refuses to overwrite without --force
  CHECK(run_cli("asm " + shell_quote((dir / "jet.fas").string()) + " -o " +
                shell_quote((dir / "jet.SH").string()))
            .exit_code == 2);
}

TEST_CASE("cli: bad input and bad usage exit 2 with the file named") {
  ScratchDir dir;
  { std::ofstream(dir / "junk.SH") << "MZ this is not a shape"; }
  auto junk = run_cli("disasm " + shell_quote((dir / "junk.SH").string()));
  CHECK(junk.exit_code == 2);
  CHECK(junk.err.find("junk.SH") != std::string::npos);
  auto missing = run_cli("info " + shell_quote((dir / "missing.SH").string()));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("missing.SH") != std::string::npos);
  {
    std::ofstream(dir / "bad.fas")
        << ".header radius_world=0 radius=1 scale=8 extents=1,1,1\nJump @nowhere\n";
  }
  auto bad = run_cli("asm " + shell_quote((dir / "bad.fas").string()) + " -o " +
                     shell_quote((dir / "o.SH").string()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("line 2") != std::string::npos);
  CHECK(run_cli("disasm").exit_code == 2);
  CHECK(run_cli("no-such-command").exit_code == 2);
  CHECK(run_cli("--help").exit_code == 0);
  CHECK(run_cli("disasm --help").exit_code == 0);
}

TEST_CASE("cli: examples prints one summary line per bundled shape") {
  auto r = run_cli("examples");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("jet.SH") != std::string::npos);
  CHECK(r.out.find("tank.SH") != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') >= 4);
}

}  // namespace tools_cli_fa_tests
