// The regression runner (harness/regress_runner, case_check, regress_report) over a small test
// engine registered by name, as a real engine would be: pass, one-pixel and palette-only failures,
// masks, RGB and raw captures, bad captures, --update, threads and shards, JUnit and HTML reports.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/capture_cache.h"
#include "harness/program_case_renderer.h"
#include "harness/regress_report.h"
#include "harness/regress_runner.h"
#include "interp/fa/assembler.h"
#include "raster/diff_image.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace harness_regress_runner_tests {

using namespace shapevm;

namespace {

// "solid": the frame is the background colour, with index 200 at (state.frame, 0) when a frame is
// given; a palette path ending in "alt" changes entry 5's colour; a file ending in "bad" is bad
// input.
class SolidRenderer : public harness::CaseRenderer {
 public:
  harness::RenderedCase render(const harness::RegressCase& c) override {
    if (c.file.ends_with("bad")) throw InputError(c.file, "a bad shape");
    raster::Framebuffer frame(c.width, c.height, c.background);
    if (c.state.frame) frame.set(static_cast<int>(*c.state.frame) % c.width, 0, 200);
    raster::Palette palette = raster::default_palette();
    if (c.palette.ends_with("alt")) palette.colors[5] = {1, 2, 3};
    return {frame, palette, {}};
  }
};

harness::EngineRegistry solid_engine() {
  harness::EngineRegistry engines;
  engines.add("solid", [] { return std::make_unique<SolidRenderer>(); });
  return engines;
}

harness::Manifest manifest_in(const ScratchDir& dir, const std::string& cases) {
  const std::string text =
      R"({"version": 1, "defaults": {"engine": "solid", "size": "16x8", "background": 5},
          "cases": [)" +
      cases + "]}";
  write_text_atomic(dir / "m.json", text);
  return harness::read_manifest(dir / "m.json", {"solid"});
}

harness::RunSummary run(const harness::Manifest& m, bool update = false, int jobs = 1,
                        harness::Shard shard = {}) {
  harness::RunnerOptions options;
  options.update = update;
  options.jobs = jobs;
  options.shard = shard;
  return harness::run_regression(m, solid_engine(), options);
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("regress: --update blesses missing captures, then identical frames pass") {
  ScratchDir dir;
  const auto m = manifest_in(dir, R"({"name": "a", "file": "a", "capture": "cap/a.png"},
                                     {"name": "b", "file": "b", "capture": "b.raw", "state": {"frame": 3}})");
  std::filesystem::create_directories(dir / "cap");
  auto before = run(m);
  CHECK(before.errors == 2);  // no captures yet
  CHECK(before.results[0].message.find("no such capture") != std::string::npos);
  auto blessed = run(m, true);
  CHECK(blessed.updated == 2);
  CHECK(blessed.failed == 0);
  CHECK(std::filesystem::file_size(dir / "b.raw") == 16 * 8);
  auto after = run(m);
  CHECK(after.passed == 2);
  CHECK(after.failed == 0);
}

TEST_CASE("regress: a one-pixel difference fails with its position and both indices") {
  ScratchDir dir;
  raster::write_indexed_png(dir / "a.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  const auto m =
      manifest_in(dir, R"({"name": "a", "file": "a", "capture": "a.png", "state": {"frame": 6}})");
  const auto s = run(m);
  REQUIRE(s.results.size() == 1);
  const auto& r = s.results[0];
  CHECK(r.status == harness::CaseStatus::kFailed);
  CHECK(r.pixels.differing == 1);
  CHECK(r.message == "1 pixel differs in x 6..6, y 0..0; first at (6, 0): capture 5, ours 200");
  CHECK(s.failed == 1);
  CHECK(s.errors == 0);
}

TEST_CASE("regress: a palette-only difference fails though every index matches") {
  ScratchDir dir;
  raster::write_indexed_png(dir / "a.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  const auto m =
      manifest_in(dir, R"({"name": "a", "file": "a", "capture": "a.png", "palette": "alt"})");
  const auto r = run(m).results.at(0);
  CHECK(r.status == harness::CaseStatus::kFailed);
  CHECK(r.pixels.differing == 0);
  CHECK(r.palette.differing == 1);
  CHECK(r.message.find("1 used palette entry differs; first 5: capture #") == 0);
}

TEST_CASE("regress: masks and rectangles exclude the known-different pixels") {
  ScratchDir dir;
  raster::write_indexed_png(dir / "a.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  raster::Framebuffer mask(16, 8, 0);
  mask.set(6, 0, 1);
  raster::write_indexed_png(dir / "mask.png", mask, raster::default_palette());
  raster::write_indexed_png(dir / "small.png", raster::Framebuffer(4, 4),
                            raster::default_palette());
  const auto m = manifest_in(dir, R"(
      {"name": "by_mask", "file": "a", "capture": "a.png", "state": {"frame": 6}, "mask": "mask.png"},
      {"name": "by_rect", "file": "a", "capture": "a.png", "state": {"frame": 6}, "exclude": [[5, 0, 2, 1]]},
      {"name": "outside", "file": "a", "capture": "a.png", "state": {"frame": 7}, "mask": "mask.png"},
      {"name": "wrong_mask", "file": "a", "capture": "a.png", "mask": "small.png"})");
  const auto s = run(m);
  CHECK(s.results[0].status == harness::CaseStatus::kPassed);
  CHECK(s.results[1].status == harness::CaseStatus::kPassed);
  CHECK(s.results[1].pixels.excluded == 2);
  CHECK(s.results[2].status == harness::CaseStatus::kFailed);
  CHECK(s.results[3].status == harness::CaseStatus::kError);
  CHECK(s.results[3].message ==
        (dir / "small.png").string() + ": the mask is 4x4; the case's frame is 16x8");
}

TEST_CASE("regress: RGB captures are matched through the case's palette; bad captures are errors") {
  ScratchDir dir;
  const raster::Palette p = raster::default_palette();
  raster::Framebuffer expected(16, 8, 5);
  expected.set(2, 0, 200);
  raster::write_rgb_png(dir / "rgb.png", raster::frame_to_rgb(expected, p));
  raster::RgbImage odd = raster::frame_to_rgb(expected, p);
  odd.rgb[3 * 20] = 7;  // pixel (4, 1): a colour that is not in the palette
  odd.rgb[3 * 20 + 1] = 7;
  odd.rgb[3 * 20 + 2] = 8;
  raster::write_rgb_png(dir / "odd.png", odd);
  write_text_atomic(dir / "trunc.png", "\x89PNG\r\n");
  write_text_atomic(dir / "short.raw", "123");
  const auto m = manifest_in(dir, R"(
      {"name": "rgb", "file": "a", "capture": "rgb.png", "state": {"frame": 2}},
      {"name": "odd", "file": "a", "capture": "odd.png"},
      {"name": "trunc", "file": "a", "capture": "trunc.png"},
      {"name": "short", "file": "a", "capture": "short.raw"},
      {"name": "badshape", "file": "x.bad", "capture": "rgb.png"})");
  const auto s = run(m);
  CHECK(s.results[0].status == harness::CaseStatus::kPassed);
  CHECK(s.results[0].compared_by_colour);
  CHECK(s.results[1].status == harness::CaseStatus::kError);
  CHECK(s.results[1].message ==
        (dir / "odd.png").string() +
            ": pixel (4, 1) has colour #070708, which is not in the palette");
  CHECK(s.results[2].status == harness::CaseStatus::kError);
  CHECK(s.results[2].message.find("not a readable PNG") != std::string::npos);
  CHECK(s.results[3].message ==
        (dir / "short.raw").string() +
            ": expected exactly 128 bytes for a raw 16x8 8-bit frame, got 3");
  CHECK(s.results[4].message == (dir / "x.bad").string() + ": a bad shape");
  CHECK(s.passed == 1);
  CHECK(s.failed == 4);
  CHECK(s.errors == 4);
}

TEST_CASE("regress: threads and shards give the same results, every case in exactly one shard") {
  ScratchDir dir;
  std::string cases;
  for (int i = 0; i < 23; ++i) {
    if (i) cases += ",";
    cases += "{\"name\": \"c" + std::to_string(i) + "\", \"file\": \"f\", \"capture\": \"c" +
             std::to_string(i) + ".png\", \"state\": {\"frame\": " + std::to_string(i) + "}}";
  }
  const auto m = manifest_in(dir, cases);
  CHECK(run(m, true).updated == 23);
  // Break every third capture.
  for (int i = 0; i < 23; i += 3)
    raster::write_indexed_png(dir / ("c" + std::to_string(i) + ".png"),
                              raster::Framebuffer(16, 8, 5), raster::default_palette());
  const auto serial = run(m);
  const auto parallel = run(m, false, 4);
  REQUIRE(serial.results.size() == 23);
  REQUIRE(parallel.results.size() == 23);
  for (size_t i = 0; i < 23; ++i) {
    CHECK(parallel.results[i].c->index == i);  // manifest order whatever the thread timing
    CHECK(parallel.results[i].status == serial.results[i].status);
    CHECK(parallel.results[i].message == serial.results[i].message);
  }
  CHECK(serial.failed == 8);
  std::multiset<size_t> seen;
  size_t failed = 0;
  for (int k = 1; k <= 4; ++k) {
    const auto shard = run(m, false, 2, {k, 4});
    for (const auto& r : shard.results) seen.insert(r.c->index);
    failed += shard.failed;
  }
  CHECK(seen.size() == 23);
  for (size_t i = 0; i < 23; ++i) CHECK(seen.count(i) == 1);
  CHECK(failed == 8);
}

TEST_CASE("regress: an engine the build does not have is an error naming the case") {
  ScratchDir dir;
  write_text_atomic(
      dir / "m.json",
      R"({"version": 1, "cases": [{"name": "a", "engine": "bi2", "file": "f", "capture": "a.png"}]})");
  const auto m = harness::read_manifest(dir / "m.json");
  CHECK_THROWS_WITH_AS(
      run(m),
      ((dir / "m.json").string() + ": /cases/0/engine: no engine \"bi2\" in this build").c_str(),
      InputError);
}

TEST_CASE("regress: JUnit XML and the HTML report describe the failing cases") {
  ScratchDir dir;
  raster::write_indexed_png(dir / "a.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  const auto m = manifest_in(dir, R"({"name": "same", "file": "a", "capture": "a.png"},
                                     {"name": "x<y&z", "file": "a", "capture": "a.png", "state": {"frame": 1}},
                                     {"name": "broken", "file": "f.bad", "capture": "a.png"})");
  const auto s = run(m);
  const std::string xml = harness::junit_xml(m, s);
  CHECK(xml.find("tests=\"3\" failures=\"1\" errors=\"1\"") != std::string::npos);
  CHECK(xml.find("<testcase classname=") != std::string::npos);
  CHECK(xml.find("name=\"same\" time=") != std::string::npos);
  CHECK(xml.find("name=\"x&lt;y&amp;z\"") != std::string::npos);
  CHECK(xml.find("<failure message=\"1 pixel differs") != std::string::npos);
  CHECK(xml.find("<error message=\"") != std::string::npos);
  CHECK(xml.find("x<y") == std::string::npos);  // escaped everywhere
  harness::write_junit(dir / "junit.xml", m, s);
  CHECK(read_text(dir / "junit.xml") == xml);

  harness::write_html_report(dir / "report", m, s);
  const std::string html = read_text(dir / "report" / "index.html");
  CHECK(html.find("1 passed, 2 failed (1 errors)") != std::string::npos);
  CHECK(html.find("x&lt;y&amp;z") != std::string::npos);
  CHECK(html.find("case-1-diff.png") != std::string::npos);
  CHECK(html.find("case-0-") == std::string::npos);  // passing cases have no images
  // The highlight panel is RGB; read as a mask it has the frame's size and red (nonzero) at (1, 0).
  const auto diff = raster::read_mask_png(dir / "report" / "case-1-diff.png");
  CHECK(diff.width() == 16);
  CHECK(raster::read_png(dir / "report" / "case-1-ours.png").frame.at(1, 0) == 200);
  CHECK(raster::read_png(dir / "report" / "case-1-capture.png").frame.at(1, 0) == 5);
}

TEST_CASE("regress: --update with threads blesses a capture that several cases share") {
  ScratchDir dir;
  std::string cases;
  for (int i = 0; i < 12; ++i) {
    if (i) cases += ",";
    cases += "{\"name\": \"s" + std::to_string(i) +
             R"(", "file": "f", "capture": "same.png", "state": {"frame": 4}})";
  }
  const auto m = manifest_in(dir, cases);
  const auto blessed = run(m, true, 4);
  CHECK(blessed.errors == 0);
  CHECK(blessed.updated + blessed.passed == 12);
  const auto again = run(m, false, 4);
  CHECK(again.passed == 12);
  CHECK(raster::read_png(dir / "same.png").frame.at(4, 0) == 200);
}

TEST_CASE("regress: cases that share a capture each compare with it, and it is decoded once") {
  ScratchDir dir;
  std::filesystem::create_directories(dir / "cap");
  raster::write_indexed_png(dir / "cap/shared.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  const auto m = manifest_in(dir, R"({"name": "plain", "file": "a", "capture": "cap/shared.png"},
      {"name": "dot", "file": "a", "state": {"frame": 3}, "capture": "cap/shared.png"},
      {"name": "dot_excluded", "file": "a", "state": {"frame": 3}, "capture": "cap/shared.png",
       "exclude": [[3, 0, 1, 1]]},
      {"name": "plain_again", "file": "a", "capture": "cap/shared.png"},
      {"name": "own", "file": "a", "capture": "own.raw"})");
  write_file_atomic(dir / "own.raw", std::vector<uint8_t>(16 * 8, 5));
  for (int jobs : {1, 2}) {
    INFO("jobs " << jobs);
    const auto r = run(m, false, jobs);
    REQUIRE(r.results.size() == 5);
    CHECK(r.results[0].status == harness::CaseStatus::kPassed);
    CHECK(r.results[1].status == harness::CaseStatus::kFailed);
    CHECK(r.results[1].pixels.differing == 1);
    REQUIRE(r.results[1].capture.has_value());  // kept for the report
    CHECK(r.results[1].capture->at(3, 0) == 5);
    CHECK(r.results[2].status == harness::CaseStatus::kPassed);
    CHECK(r.results[3].status == harness::CaseStatus::kPassed);
    CHECK(r.results[4].status == harness::CaseStatus::kPassed);
  }
  std::vector<const harness::RegressCase*> cases;
  for (const auto& c : m.cases) cases.push_back(&c);
  harness::CaptureCache cache(cases);
  const raster::Palette palette = raster::default_palette();
  const auto first = cache.take(m.cases[0], palette);
  cache.finish(m.cases[0]);
  CHECK(cache.take(m.cases[1], palette) == first);
  cache.finish(m.cases[1]);
  CHECK(cache.take(m.cases[2], palette) == first);
  cache.finish(m.cases[2]);
  CHECK(cache.kept() == 1);
  CHECK(cache.take(m.cases[3], palette) == first);  // the last to name it
  cache.finish(m.cases[3]);
  CHECK(cache.kept() == 0);  // let go once every case naming it is done
  cache.take(m.cases[4], palette);
  CHECK(cache.kept() == 0);  // named by one case only: never kept
  cache.finish(m.cases[4]);
  CHECK(cache.decoded() == 2);

  // Cases that finish without taking the capture (--update writing a new one, an error before
  // the comparison) still count: the capture is not held past the last of them.
  harness::CaptureCache skipping(cases);
  skipping.finish(m.cases[0]);
  const auto taken = skipping.take(m.cases[1], palette);
  skipping.finish(m.cases[1]);
  CHECK(skipping.kept() == 1);  // cases 2 and 3 are still to come
  skipping.finish(m.cases[2]);
  skipping.finish(m.cases[3]);
  CHECK(skipping.kept() == 0);
  CHECK(skipping.decoded() == 1);
}

TEST_CASE(
    "regress: --update rewrites a shared capture, and the next case compares with the new one") {
  ScratchDir dir;
  raster::write_indexed_png(dir / "shared.png", raster::Framebuffer(16, 8, 5),
                            raster::default_palette());
  // The first case re-blesses the capture with its dot; the second (no dot) then differs from
  // what the file now holds and is re-blessed in turn.
  const auto m = manifest_in(dir, R"({"name": "dot", "file": "a", "state": {"frame": 3},
                                      "capture": "shared.png"},
                                     {"name": "plain", "file": "a", "capture": "shared.png"})");
  const auto r = run(m, true);
  CHECK(r.results[0].status == harness::CaseStatus::kUpdated);
  CHECK(r.results[1].status == harness::CaseStatus::kUpdated);
  CHECK(raster::read_png(dir / "shared.png").frame.at(3, 0) == 5);
}

TEST_CASE("regress: a manifest of more files than a worker keeps open reopens them as needed") {
  // 20 FA shapes, each twice: the second pass comes after 19 others, so each file's program has
  // been closed and is opened again. Every case still passes against its blessed capture.
  ScratchDir dir;
  std::string cases;
  for (int i = 0; i < 20; ++i) {
    const std::string text = fmt::format(
        ".header radius_world=0 radius=100 scale=8 extents=10,10,10\nVertexBuffer at=0\n v 0, 10, "
        "0\n v {}, 10, 0\n v 0, 10, 10\nFace content=0 layout=0 color={} shadow=0 idx=0,1,2\n"
        "EndObject\n",
        10 + i, 16 + i);
    write_file_atomic(dir / fmt::format("s{}.SH", i), fa::assemble_fa(text, "s.fas").file);
  }
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < 20; ++i)
      cases += fmt::format(R"({}{{"name": "s{}_{}", "file": "s{}.SH", "capture": "s{}.png"}})",
                           cases.empty() ? "" : ",", i, pass, i, i);
  write_text_atomic(
      dir / "m.json",
      R"({"version": 1, "defaults": {"engine": "fa", "size": "64x48"}, "cases": [)" + cases + "]}");
  const harness::Manifest m = harness::read_manifest(dir / "m.json");
  harness::RunnerOptions options;
  options.update = true;
  const auto blessed = harness::run_regression(m, harness::registered_case_engines(), options);
  CHECK(blessed.updated == 20);  // the second pass found its capture already right
  CHECK(blessed.passed == 20);
  options.update = false;
  const auto checked = harness::run_regression(m, harness::registered_case_engines(), options);
  CHECK(checked.passed == 40);
}

}  // namespace harness_regress_runner_tests
