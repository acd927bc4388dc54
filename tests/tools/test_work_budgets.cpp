// Work budgets (interp/common/work_limits.h): a program that loops over faces stays inside its
// step budget while it draws, traces or exports without end; the faces, pixels and trace-bytes
// budgets stop it, in every engine, with a "budget: ..." reason, exit code 2 and the reason on
// stderr, and each is adjustable from the command line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/fa/shape_text.h"
#include "tests/tools/json_lines.h"
#include "tests/tools/run_cli.h"

namespace tools_work_budgets_tests {

namespace {

// Two faces, then a jump back to them (tests/fa/shape_text.h).
const std::string kFaLoop =
    shapevm::testing::face_loop_text(".image base=0x0 code_va=0x1000 section=CODE stub_relocs=1\n");

// A face, then a winding decision whose continuation is the face again.
const char* kApacheLoop = R"(model 0 loop "Loop"
  encoding short
  properties 1
  vertex -50 0 -50
  vertex 50 0 -50
  vertex 50 100 -50
  vertex -50 100 -50
  normal 0 0 -127
program
top:
  face shadedpolygon colour=80 normal=0 : 3 2 1 0
  winding 3 2 1 0 front=side back=side continue=top
side:
  ret
end
)";

std::string write_text(const ScratchDir& dir, const std::string& name, const std::string& text) {
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return shell_quote(path);
}

size_t count_of(const std::vector<nlohmann::json>& evs, const std::string& kind) {
  size_t n = 0;
  for (const auto& e : evs) n += e["ev"] == kind;
  return n;
}

}  // namespace

TEST_CASE("work budgets: an FA Face, Face, Jump loop stops on faces, pixels and trace bytes") {
  ScratchDir dir;
  const auto loop = write_text(dir, "loop.fas", kFaLoop);

  SUBCASE("faces: exactly --max-faces faces, then the stop") {
    auto r = run_cli("trace " + loop + " --no-ops --max-faces 10");
    CHECK(r.exit_code == 2);
    const auto evs = json_lines(r.out);
    REQUIRE(!evs.empty());
    CHECK(count_of(evs, "face") == 10);
    CHECK(evs.back()["ev"] == "end");
    CHECK(evs.back()["reason"] == "budget: faces");
    CHECK(r.err.find("budget: faces") != std::string::npos);
  }
  SUBCASE("pixels: the default budget (256 frames' worth) ends a render long before the steps") {
    auto r = run_cli("render " + loop + " -o " + shell_quote((dir / "loop.png").string()));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("budget: pixels") != std::string::npos);
    auto small = run_cli("render " + loop + " -o " + shell_quote((dir / "s.png").string()) +
                         " --max-pixels 1");
    CHECK(small.err.find("budget: pixels") != std::string::npos);
  }
  SUBCASE("trace bytes: the trace stops near --max-trace-bytes and says why") {
    const auto out = dir / "loop.jsonl";
    auto r = run_cli("trace " + loop + " --max-trace-bytes 20000 -o " + shell_quote(out.string()));
    CHECK(r.exit_code == 2);
    const auto size = std::filesystem::file_size(out);
    CHECK(size > 20000);
    CHECK(size < 22000);  // the event that crossed the line, the diagnostic and the end
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    const auto evs = json_lines(text.str());
    CHECK(evs.back()["reason"] == "budget: trace bytes");
  }
  SUBCASE("export: the mesh collector counts faces too") {
    auto r = run_cli("export " + loop + " -o " + shell_quote((dir / "loop.obj").string()) +
                     " --max-faces 4");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("budget: faces") != std::string::npos);
  }
  SUBCASE("a budget must be a positive number") {
    auto r = run_cli("render " + loop + " -o x.png --max-faces 0");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--max-faces") != std::string::npos);
  }
}

TEST_CASE("work budgets: an Apache branch whose continuation draws again stops on faces") {
  ScratchDir dir;
  const auto loop = write_text(dir, "loop.apa", kApacheLoop);
  auto r = run_cli("trace " + loop + ":#0 --no-ops --max-faces 7");
  CHECK(r.exit_code == 2);
  const auto evs = json_lines(r.out);
  REQUIRE(!evs.empty());
  CHECK(count_of(evs, "face") == 7);
  CHECK(evs.back()["reason"] == "budget: faces");
  CHECK(evs.back()["faces"] == 7);
  auto rendered = run_cli("render " + loop + ":#0 -o " + shell_quote((dir / "a.png").string()));
  CHECK(rendered.exit_code == 2);
  CHECK(rendered.err.find("budget: pixels") != std::string::npos);
}

TEST_CASE("work budgets: Starlancer and Battle Isle 2 draws stop on a face budget too") {
  const std::string shp = SHAPEVM_EXAMPLES_BUILD_DIR "/shp/fighter.SHP";
  const std::string bi2 = SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB:TANK001";
  for (const auto& spec : {shp, bi2}) {
    CAPTURE(spec);
    auto whole = run_cli("trace " + shell_quote(spec) + " --no-ops");
    REQUIRE(whole.exit_code == 0);
    REQUIRE(count_of(json_lines(whole.out), "face") > 2);
    auto r = run_cli("trace " + shell_quote(spec) + " --no-ops --max-faces 2");
    CHECK(r.exit_code == 2);
    const auto evs = json_lines(r.out);
    REQUIRE(!evs.empty());
    CHECK(count_of(evs, "face") == 2);
    CHECK(evs.back()["reason"] == "budget: faces");
    CHECK(evs.back()["faces"] == 2);
    // The error names the option that raises the budget, as for every budget of every engine.
    CHECK(r.err.find("budget: faces (--max-faces raises it)") != std::string::npos);
    auto steps = run_cli("trace " + shell_quote(spec) + " --no-ops --max-steps 1");
    CHECK(steps.exit_code == 2);
    CHECK(steps.err.find("budget: steps (--max-steps raises it)") != std::string::npos);
  }
}

TEST_CASE("work budgets: every engine's end event counts the face events it ended, shadows too") {
  for (const std::string spec : {SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH",
                                 SHAPEVM_EXAMPLES_BUILD_DIR "/apache/vehicle/3DOBJS.BIN:#0",
                                 SHAPEVM_EXAMPLES_BUILD_DIR "/shp/fighter.SHP",
                                 SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB:TANK001"}) {
    CAPTURE(spec);
    auto r = run_cli("trace " + shell_quote(spec) + " --no-ops");
    REQUIRE(r.exit_code == 0);
    const auto evs = json_lines(r.out);
    REQUIRE(!evs.empty());
    CHECK(count_of(evs, "face") > 0);
    CHECK(evs.back()["faces"] == count_of(evs, "face"));
  }
  // The Apache vehicle casts a shadow: its shadow-pass faces are face events like the others.
  auto r =
      run_cli("trace " + shell_quote(SHAPEVM_EXAMPLES_BUILD_DIR "/apache/vehicle/3DOBJS.BIN:#0") +
              " --no-ops");
  size_t shadows = 0;
  for (const auto& e : json_lines(r.out)) shadows += e["ev"] == "face" && e["shadow"] == true;
  CHECK(shadows > 0);
}

}  // namespace tools_work_budgets_tests
