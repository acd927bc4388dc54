// Golden frames: the examples in several states (tests/golden/manifest.json: gear, animation frame,
// LOD, detail, destroyed, camera) run through the regression runner exactly as `shapevm regress`
// runs them, and must match the checked-in PNGs pixel for pixel (indices and palette).
// Regenerate only deliberately:
//   build/shapevm regress tests/golden/manifest.json --update
// (or SHAPEVM_UPDATE_GOLDEN=1 build/tests/shapevm_tests -sf='*test_golden_frames.cpp').
// The same comparison runs in every build type (Release in CI, Debug/ASan by hand), so a frame
// that depended on the optimiser would fail one of them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "harness/regress_runner.h"
#include "raster/png_io.h"
#include "tools/fa_shape_loader.h"
#include "tools/regress_engines.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"

using namespace shapevm;

TEST_CASE("golden frames: FA-18 FA-31 FA-43 FA-45 FA-50 every manifest case matches its capture") {
  const bool update = std::getenv("SHAPEVM_UPDATE_GOLDEN") != nullptr;
  const harness::EngineRegistry engines = tools::builtin_case_engines();
  const harness::Manifest manifest =
      harness::read_manifest(SHAPEVM_SOURCE_DIR "/tests/golden/manifest.json", engines.names());
  CHECK(manifest.cases.size() >= 10);
  harness::RunnerOptions options;
  options.jobs = 2;
  options.update = update;
  const harness::RunSummary summary = harness::run_regression(manifest, engines, options);
  for (const auto& r : summary.results) {
    INFO(r.c->name << ": " << r.message);
    if (update)
      CHECK(r.status != harness::CaseStatus::kError);
    else
      CHECK(r.status == harness::CaseStatus::kPassed);
  }
  CHECK(summary.results.size() == manifest.cases.size());
}

TEST_CASE(
    "golden frames: the state changes the frame (frames, LOD, damage differ from the default)") {
  auto render = [](const char* example, const tools::RunOptions& o) {
    fa::Shape shape =
        tools::load_fa_shape(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/") + example + ".SH");
    return tools::render_fa_frame(shape, tools::fa_run_state(o, 480), 640, 480, 0, nullptr).frame;
  };
  tools::RunOptions base;
  tools::RunOptions destroyed;
  destroyed.destroyed = true;
  CHECK(render("tank", base) != render("tank", destroyed));
  tools::RunOptions lod2;
  lod2.lod = 2;
  CHECK(render("jet", base) != render("jet", lod2));
  tools::RunOptions frame1;
  frame1.frame = 1;
  CHECK(render("jet", base) != render("jet", frame1));  // the exhaust colour cycles
}
