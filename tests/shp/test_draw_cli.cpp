// Drawing through the command line: `trace` records every part and polygon as a step with its
// fields, `debug` stops polygon by polygon with the part, level, face and mode as registers,
// `render` writes a depth-tested frame, and a malformed drawing state exits 2.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/tools/run_cli.h"

namespace shp_draw_cli_tests {

namespace {

const std::string kExample = SHAPEVM_SOURCE_DIR "/examples/shp/drawing.shpt";

}  // namespace

TEST_CASE("cli shp trace: draw_part and draw_face steps carry their fields (SL-17 SL-18)") {
  const auto r = run_cli("trace " + shell_quote(kExample) + " --set caps=1");
  REQUIRE(r.exit_code == 0);
  std::istringstream in(r.out);
  std::string line;
  int parts = 0, faces = 0, culled = 0, merged = 0, blended = 0, face_events = 0;
  while (std::getline(in, line)) {
    const auto e = nlohmann::json::parse(line);
    if (e["ev"] == "face") ++face_events;
    if (e["ev"] != "op") continue;
    if (e["name"] == "draw_part") {
      ++parts;
      CHECK(e["fields"].contains("level"));
      CHECK(e["fields"].contains("distance"));
    } else if (e["name"] == "draw_face") {
      ++faces;
      culled += e["fields"]["culled"].get<int>();
      if (e["fields"]["records"] == 2) ++merged;
    } else if (e["name"] == "draw_blended") {
      ++blended;
    }
  }
  CHECK(parts == 2);
  CHECK(faces == 16);  // 13 hull records, the front fan merged to one polygon; 4 turret faces
  CHECK(merged == 1);
  CHECK(blended == 2);  // the added left side
  CHECK(culled > 0);
  CHECK(face_events > 0);
}

TEST_CASE("cli shp debug: stops polygon by polygon with part, level, face and mode") {
  ScratchDir dir;
  const auto batch = dir / "commands.txt";
  std::ofstream(batch) << "break face 2\ncontinue\ninfo registers\nstep\ninfo registers\n";
  const auto r = run_cli("debug " + shell_quote(kExample) + " --batch " + shell_quote(batch));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("face           4") != std::string::npos);
  CHECK(r.out.find("mode           2") != std::string::npos);
  CHECK(r.out.find("face           5") != std::string::npos);
}

TEST_CASE("cli shp render: a malformed drawing state exits 2 naming it") {
  ScratchDir dir;
  const auto out = dir / "x.png";
  const auto bad = run_cli("render " + shell_quote(kExample) + " -o " + shell_quote(out) +
                           " --set lod_rule=sideways");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("lod_rule") != std::string::npos);
  const auto good = run_cli("render " + shell_quote(kExample) + " -o " + shell_quote(out));
  CHECK(good.exit_code == 0);
}

}  // namespace shp_draw_cli_tests
