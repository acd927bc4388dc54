// FA-54: community archives ship shadow and crash shapes as `.PTS` files (A10.PTS for A10_S.SH);
// the bytes are an ordinary .SH, so shapevm must read them the same whatever the name, loose or
// inside a LIB. The shape here is the bundled tank example.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "tests/fa/lib_builder.h"
#include "tests/tools/run_cli.h"

namespace fa_pts_files_tests {

using namespace shapevm;

namespace {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("FA-54: a .PTS file and a *_S.SH name run exactly as the same bytes named .SH") {
  const auto shape = read_bytes(SHAPEVM_EXAMPLES_BUILD_DIR "/fa/tank.SH");
  REQUIRE(shape.size() > 14);
  ScratchDir dir;
  for (const char* name : {"TANK.SH", "TANK.PTS", "TANK_S.SH", "tank.pts"})
    write_bytes(dir / name, shape);
  write_bytes(dir / "SHADOWS.LIB", test::build_ealib({{"TANK.PTS", 0, shape}}));

  auto trace = [&](const std::string& file) {
    auto r = run_cli("trace " + shell_quote(file));
    CHECK(r.exit_code == 0);
    // The first line names the source file; every event after it must be the same.
    const size_t first_line = r.out.find('\n');
    REQUIRE(first_line != std::string::npos);
    CHECK(r.out.find("\"ev\":\"start\"") < first_line);
    return r.out.substr(first_line + 1);
  };
  auto render = [&](const std::string& file, const std::string& png) {
    auto r = run_cli("render " + shell_quote(file) + " -o " + shell_quote((dir / png).string()));
    CHECK(r.exit_code == 0);
    return read_bytes(dir / png);
  };
  const std::string sh = (dir / "TANK.SH").string();
  const std::string expected_trace = trace(sh);
  REQUIRE(expected_trace.find("\"face\"") != std::string::npos);
  const auto expected_png = render(sh, "sh.png");
  REQUIRE(!expected_png.empty());
  const std::string others[] = {(dir / "TANK.PTS").string(), (dir / "TANK_S.SH").string(),
                                (dir / "tank.pts").string(),
                                (dir / "SHADOWS.LIB").string() + ":TANK.PTS"};
  int n = 0;
  for (const auto& other : others) {
    INFO(other);
    CHECK(trace(other) == expected_trace);
    CHECK(render(other, "other" + std::to_string(n++) + ".png") == expected_png);
    auto info = run_cli("info " + shell_quote(other));
    CHECK(info.exit_code == 0);
    CHECK(info.out.find("faces              13") != std::string::npos);
  }
}

}  // namespace fa_pts_files_tests
