// Regression manifests (harness/regress_manifest): paths relative to the manifest, defaults, and
// precise errors (manifest path, JSON pointer, what was expected) for malformed manifests.
#include <doctest/doctest.h>

#include <string>

#include "core/input_error.h"
#include "harness/regress_manifest.h"
#include "harness/regress_runner.h"

namespace harness_regress_manifest_tests {

using namespace shapevm;
using harness::parse_manifest;

namespace {

// The message of the InputError `text` raises, or "" if it parses.
std::string error_of(const std::string& text) {
  try {
    parse_manifest(text, "/data/m.json", {"fa", "apache"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("manifest: cases take defaults and resolve paths against the manifest's folder") {
  const harness::Manifest m = parse_manifest(R"({
    "version": 1,
    "defaults": {"engine": "fa", "size": "320x200", "palette": "pal/PALETTE.PAL",
                 "state": {"detail": 2, "frame": 1}},
    "cases": [
      {"name": "a", "file": "shapes/A.SH", "capture": "cap/a.png"},
      {"name": "b", "file": "/abs/B.SH", "capture": "cap/b.raw", "size": "64x32",
       "state": {"frame": 3, "destroyed": true, "set": ["_PLgearDown=1"], "merged": true}, "camera": "100,90,10",
       "mask": "masks/b.png", "exclude": [[1, 2, 3, 4]], "background": 7},
      {"name": "c", "file": "FA_2.LIB:A10.SH", "capture": "c.png", "engine": "apache"}
    ]})",
                                             "/data/m.json", {"fa", "apache"});
  REQUIRE(m.cases.size() == 3);
  const auto& a = m.cases[0];
  CHECK(a.engine == "fa");
  CHECK(a.file == "/data/shapes/A.SH");
  CHECK(a.capture == "/data/cap/a.png");
  CHECK(a.palette == "/data/pal/PALETTE.PAL");
  CHECK(a.width == 320);
  CHECK(a.height == 200);
  CHECK(a.state.detail == 2);
  CHECK(a.state.frame == 1);
  CHECK(a.capture_format == harness::CaptureFormat::kPng);
  const auto& b = m.cases[1];
  CHECK(b.file == "/abs/B.SH");
  CHECK(b.capture_format == harness::CaptureFormat::kRaw);
  CHECK(b.width == 64);
  CHECK(b.state.frame == 3);   // the case overrides the default
  CHECK(b.state.detail == 2);  // and keeps the rest of it
  CHECK(b.state.destroyed);
  CHECK(b.state.merged);
  CHECK_FALSE(a.state.merged);
  CHECK(b.state.sets == std::vector<std::string>{"_PLgearDown=1"});
  CHECK(b.state.camera == "100,90,10");
  CHECK(b.mask == "/data/masks/b.png");
  REQUIRE(b.exclude.size() == 1);
  CHECK(b.exclude[0] == raster::ClipRect{1, 2, 4, 6});
  CHECK(b.background == 7);
  CHECK(b.pointer == "/cases/1");
  CHECK(m.cases[2].file == "/data/FA_2.LIB:A10.SH");  // the container part is resolved
  CHECK(m.cases[2].engine == "apache");
}

TEST_CASE("manifest: malformed manifests name the JSON pointer and what was expected") {
  CHECK(error_of("{\"version\": 1, \"cases\": [").find("/data/m.json: offset 0x") == 0);
  CHECK(error_of("[]") == "/data/m.json: /: expected an object, got an array");
  CHECK(error_of(R"({"cases": []})") == "/data/m.json: /version: missing; expected 1");
  CHECK(error_of(R"({"version": 2, "cases": []})") ==
        "/data/m.json: /version: expected 1 (the only manifest version)");
  CHECK(error_of(R"({"version": 1, "cases": []})") ==
        "/data/m.json: /cases: expected a non-empty array of cases, got an empty array");
  const std::string ok_case = R"("name": "x", "engine": "fa", "file": "x.SH", "capture": "x.png")";
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(}, {"name": "y"}]})") ==
        "/data/m.json: /cases/1/engine: missing (and no /defaults/engine)");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(, "state": {"frame": "two"}}]})") ==
        "/data/m.json: /cases/0/state/frame: expected an integer 0..4294967295, got \"two\"");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(, "state": {"lod": -1}}]})") ==
        "/data/m.json: /cases/0/state/lod: expected an integer 0..255, got -1");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(, "size": "640*480"}]})") ==
        "/data/m.json: /cases/0/size: expected \"WIDTHxHEIGHT\" with each side 1..8192, got "
        "\"640*480\"");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(, "colour": 3}]})")
            .find("/data/m.json: /cases/0/colour: unknown field; expected one of ") == 0);
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(}, {)" + ok_case + R"(}]})") ==
        "/data/m.json: /cases/1/name: duplicate name \"x\" (also /cases/0)");
  CHECK(
      error_of(
          R"({"version": 1, "cases": [{"name": "x", "engine": "bi3", "file": "x", "capture": "x.png"}]})") ==
      "/data/m.json: /cases/0/engine: unknown engine \"bi3\"; expected one of fa, apache");
  CHECK(
      error_of(
          R"({"version": 1, "cases": [{"name": "x", "engine": "fa", "file": "x", "capture": "x.bmp"}]})") ==
      "/data/m.json: /cases/0/capture: expected a .png or .raw file name, got \"x.bmp\"");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case + R"(, "exclude": [[0, 0, 0, 5]]}]})")
            .find("/data/m.json: /cases/0/exclude/0: expected [x, y, width, height]") == 0);
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case +
                 R"(, "state": {"set": ["noequals"]}}]})") ==
        "/data/m.json: /cases/0/state/set/0: expected \"NAME=VALUE\", got \"noequals\"");
  CHECK(error_of(R"({"version": 1, "cases": [{)" + ok_case +
                 R"(, "camera": "1,2,3", "state": {"camera": "4,5,6"}}]})") ==
        "/data/m.json: /cases/0/camera: given twice: here and in /state/camera; keep one");
  CHECK(error_of(R"({"version": 1, "defaults": {"state": {"destroyed": 1}}, "cases": [{)" +
                 ok_case + "}]}") ==
        "/data/m.json: /defaults/state/destroyed: expected true or false, got 1");
}

TEST_CASE("shard: K/N parses strictly and the N shards cover every case exactly once") {
  CHECK(harness::parse_shard("2/4").index == 2);
  CHECK(harness::parse_shard("2/4").count == 4);
  for (const char* bad : {"0/4", "5/4", "1/0", "a/b", "1/2/3", "3", "1/2x", ""})
    CHECK_THROWS_AS(harness::parse_shard(bad), InputError);
  for (int n = 1; n <= 7; ++n) {
    for (size_t i = 0; i < 50; ++i) {
      int owners = 0;
      for (int k = 1; k <= n; ++k) owners += harness::Shard{k, n}.contains(i) ? 1 : 0;
      CHECK(owners == 1);
    }
  }
}

}  // namespace harness_regress_manifest_tests
