// The regress HTML report as a reader uses it: for every failing case the capture, our frame and
// the difference side by side, and when the difference is small (a few hundred pixels in a big
// frame) the region around it cropped and scaled up, so it is seen without a magnifier.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/file_io.h"
#include "raster/image_zoom.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace tools_regress_html_tests {

using namespace shapevm;

namespace {

const std::string kExamples = SHAPEVM_SOURCE_DIR "/examples/fa/";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

std::string text_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("zoom region: small differences are padded, kept inside the frame and scaled up") {
  // 3x3 pixels in the middle of 640x480: 32x32 around them (8 margin each side, then grown),
  // 8 times (256 / 32).
  const raster::ZoomRegion mid = raster::zoom_region({300, 200, 303, 203}, 640, 480);
  CHECK(mid.rect.right - mid.rect.left == 32);
  CHECK(mid.rect.bottom - mid.rect.top == 32);
  CHECK(mid.rect.left <= 300 - 8);
  CHECK(mid.rect.right >= 303 + 8);
  CHECK(mid.factor == 8);
  // In a corner: moved inside, not shrunk.
  const raster::ZoomRegion corner = raster::zoom_region({0, 0, 2, 2}, 640, 480);
  CHECK(corner.rect == raster::ClipRect{0, 0, 32, 32});
  // 100x40: the longer side 116, 256/116 = 2 times.
  const raster::ZoomRegion wide = raster::zoom_region({100, 100, 200, 140}, 640, 480);
  CHECK(wide.rect == raster::ClipRect{92, 92, 208, 148});
  CHECK(wide.factor == 2);
  // More than a quarter of the frame either way, or nothing: no close-up.
  CHECK(raster::zoom_region({0, 0, 161, 10}, 640, 480).rect.empty());
  CHECK(raster::zoom_region({0, 0, 10, 121}, 640, 480).rect.empty());
  CHECK(raster::zoom_region({}, 640, 480).rect.empty());
  // A frame smaller than the minimum close-up: the whole frame.
  CHECK(raster::zoom_region({5, 5, 6, 6}, 24, 24).rect == raster::ClipRect{0, 0, 24, 24});
}

TEST_CASE("zoom region: the close-up is the crop scaled by whole pixels") {
  raster::RgbImage image;
  image.width = 4;
  image.height = 3;
  for (int i = 0; i < 12; ++i)
    for (int c = 0; c < 3; ++c) image.rgb.push_back(static_cast<uint8_t>(i * 10 + c));
  const raster::RgbImage z = raster::crop_zoomed(image, {{1, 1, 3, 3}, 3});
  REQUIRE(z.width == 6);
  REQUIRE(z.height == 6);
  auto at = [&](int x, int y) { return z.rgb[(static_cast<size_t>(y) * 6 + x) * 3]; };
  CHECK(at(0, 0) == 50);  // source (1, 1) = pixel 5
  CHECK(at(2, 2) == 50);
  CHECK(at(3, 0) == 60);   // source (2, 1)
  CHECK(at(5, 5) == 100);  // source (2, 2) = pixel 10
  CHECK_THROWS_AS(raster::crop_zoomed(image, {{3, 0, 5, 2}, 2}), std::invalid_argument);
}

TEST_CASE(
    "regress HTML: three images per failing case, and a close-up when the difference is small") {
  ScratchDir dir;
  const std::string manifest = R"({"version": 1, "defaults": {"engine": "fa", "size": "320x240"},
    "cases": [
      {"name": "speck", "file": ")" +
                               kExamples + R"(tank.fas", "capture": "cap/speck.png"},
      {"name": "same", "file": ")" +
                               kExamples + R"(tank.fas", "capture": "cap/same.png"},
      {"name": "swapped", "file": ")" +
                               kExamples + R"(tank.fas", "state": {"destroyed": true},
       "capture": "cap/swapped.png"}
    ]})";
  write_text_atomic(dir / "m.json", manifest);
  std::filesystem::create_directories(dir / "cap");
  REQUIRE(run_cli("regress " + q(dir / "m.json") + " --update").exit_code == 0);
  // speck: 4x3 pixels changed near the top-left corner; swapped: the intact tank's capture for
  // the destroyed one, a large difference.
  raster::IndexedImage speck = raster::read_png(dir / "cap/speck.png");
  for (int y = 20; y < 23; ++y)
    for (int x = 30; x < 34; ++x)
      speck.frame.set(x, y, static_cast<uint8_t>(speck.frame.at(x, y) ^ 0x55));
  raster::write_indexed_png(dir / "cap/speck.png", speck.frame, speck.palette);
  std::filesystem::copy_file(dir / "cap/same.png", dir / "cap/swapped.png",
                             std::filesystem::copy_options::overwrite_existing);

  auto r = run_cli("regress " + q(dir / "m.json") + " --html " + q(dir / "html"));
  REQUIRE(r.exit_code == 1);
  const std::string html = text_of(dir / "html/index.html");
  // Cases 0 and 2 failed: capture, ours and difference for each.
  for (int c : {0, 2}) {
    for (const char* kind : {"capture", "ours", "diff"}) {
      const std::string file = fmt::format("case-{}-{}.png", c, kind);
      CHECK(count(html, "src=\"" + file + "\"") == 1);
      CHECK(std::filesystem::exists(dir / "html" / file));
    }
  }
  CHECK(count(html, "case-1-") == 0);
  CHECK(count(html, "<div class=\"frames\">") == 3);  // two rows of three, and one close-up row
  // The speck has a close-up of all three, the large difference none.
  for (const char* kind : {"capture", "ours", "diff"}) {
    const std::string file = fmt::format("case-0-{}-zoom.png", kind);
    CHECK(count(html, "src=\"" + file + "\"") == 1);
    REQUIRE(std::filesystem::exists(dir / "html" / file));
    CHECK_FALSE(std::filesystem::exists(dir / "html" / fmt::format("case-2-{}-zoom.png", kind)));
  }
  // 4x3 pixels: 32x32 around them, 8 times.
  const raster::ZoomRegion expected = raster::zoom_region({30, 20, 34, 23}, 320, 240);
  CHECK(html.find(fmt::format("x {}..{}, y {}..{}, {}&times;", expected.rect.left,
                              expected.rect.right - 1, expected.rect.top, expected.rect.bottom - 1,
                              expected.factor)) != std::string::npos);
  const raster::Framebuffer zoom = raster::read_mask_png(dir / "html/case-0-diff-zoom.png");
  CHECK(zoom.width() == 32 * 8);
  CHECK(zoom.height() == 32 * 8);
}

}  // namespace tools_regress_html_tests
