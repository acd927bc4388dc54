// Battle Isle 2 through the engine-neutral tools, as a user types them: `view --headless` (the
// viewer draws what `render` draws) and `debug --batch` (a pause before every polygon, stepping
// back, the polygon's registers), on the built tank example.
#include <doctest/doctest.h>

#include "core/file_io.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace bi2_cli_bi2_tools_tests {

namespace {

const std::string kTank = SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB:TANK001";

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("cli bi2: view --headless draws what render draws, turret input included") {
  ScratchDir dir;
  const auto r = run_cli("view " + shell_quote(kTank) +
                         " --set part0=0,45,0 --headless --frames 2 --size 160x120 -o " +
                         shell_quote((dir / "frames").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto first = shapevm::raster::read_png(dir / "frames" / "frame_00000.png");
  const auto rendered =
      run_cli("render " + shell_quote(kTank) + " --set part0=0,45,0 --size 160x120 -o " +
              shell_quote((dir / "r.png").string()));
  REQUIRE(rendered.exit_code == 0);
  CHECK(shapevm::raster::read_png(dir / "r.png").frame == first.frame);
}

TEST_CASE("cli bi2: debug --batch pauses before each polygon, steps back, shows its registers") {
  ScratchDir dir;
  const std::string batch = (dir / "cmds").string();
  shapevm::write_text_atomic(batch,
                             "step 3\n"
                             "info frame\n"
                             "back 2\n"
                             "info frame\n"
                             "regs\n"
                             "continue\n");
  const auto r = run_cli("debug " + shell_quote(kTank) + " --batch " + shell_quote(batch));
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  CHECK(has(r.out, "tick 3"));
  CHECK(has(r.out, "tick 1"));
  CHECK(has(r.out, "colour"));  // a register the bi2 engine declares
  CHECK(has(r.out, "shade"));
  CHECK(has(r.out, "end of run"));
  const auto bad =
      run_cli("debug " + shell_quote(kTank) + " --set turret=3 --batch " + shell_quote(batch));
  CHECK(bad.exit_code == 2);
  CHECK(has(bad.err, "closest"));
}

}  // namespace bi2_cli_bi2_tools_tests
