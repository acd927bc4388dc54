// Golden frames: the examples in several states (tests/golden/manifest.json: gear, animation frame,
// LOD, detail, destroyed, camera) run through the regression runner exactly as `shapevm regress`
// runs them, and must match the checked-in PNGs pixel for pixel (indices and palette).
// Regenerate only deliberately:
//   build/shapevm regress tests/golden/manifest.json --update
// (or SHAPEVM_UPDATE_GOLDEN=1 build/tests/shapevm_tests -sf='*test_golden_frames.cpp').
// The same comparison runs in every build type (Release in CI, Debug/ASan by hand), so a frame
// that depended on the optimiser would fail one of them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "harness/program_case_renderer.h"
#include "harness/regress_runner.h"
#include "raster/png_io.h"
#include "tests/support/program_helpers.h"

namespace tools_golden_frames_tests {

using namespace shapevm;

TEST_CASE(
    "golden frames: FA-18 FA-31 FA-43 FA-45 FA-50 AP-11 AP-12 every manifest case matches its "
    "capture") {
  const bool update = std::getenv("SHAPEVM_UPDATE_GOLDEN") != nullptr;
  const harness::EngineRegistry engines = harness::registered_case_engines();
  const harness::Manifest manifest =
      harness::read_manifest(SHAPEVM_SOURCE_DIR "/tests/golden/manifest.json", engines.names());
  CHECK(manifest.cases.size() >= 19);
  // Both engines' examples are in the one manifest.
  CHECK(std::any_of(manifest.cases.begin(), manifest.cases.end(),
                    [](const harness::RegressCase& c) { return c.engine == "apache"; }));
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
  auto render = [](const char* example, std::vector<Setting> options) {
    return testing::render_spec(std::string(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/") + example + ".SH",
                                testing::state_with(std::move(options)))
        .frame;
  };
  CHECK(render("tank", {}) != render("tank", {{"destroyed", "1"}}));
  CHECK(render("jet", {}) != render("jet", {{"lod", "2"}}));
  CHECK(render("jet", {}) != render("jet", {{"frame", "1"}}));  // the exhaust colour cycles
}

}  // namespace tools_golden_frames_tests
