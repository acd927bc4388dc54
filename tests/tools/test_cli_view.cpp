// `shapevm view`: the headless mode end to end (frames written, deterministic, animated, the same
// pixels `render` draws for each frame counter), its errors, and the SDL window itself under
// SDL's dummy video driver (the window's pixels read back are the frame scaled up).
#include <doctest/doctest.h>

#include "core/file_io.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_view_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

std::vector<uint8_t> bytes(const std::filesystem::path& p) {
  return shapevm::read_file(p);
}

}  // namespace

TEST_CASE("cli view: headless writes N consecutive frames and says which counters") {
  ScratchDir dir;
  auto r = run_cli("view " + q(kJet) + " --headless --frames 6 -o " + q(dir / "out"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("6 frames (counter 0..5)") != std::string::npos);
  for (int i = 0; i < 6; ++i)
    CHECK(std::filesystem::exists(dir / ("out/frame_0000" + std::to_string(i) + ".png")));
  CHECK_FALSE(std::filesystem::exists(dir / "out/frame_00006.png"));
}

TEST_CASE("cli view: headless frames are deterministic and animate with the counter (FA-31)") {
  ScratchDir dir;
  for (const char* sub : {"a", "b"}) {
    auto r = run_cli("view " + q(kJet) + " --headless --lod 0 --frames 5 -o " + q(dir / sub));
    REQUIRE(r.exit_code == 0);
  }
  std::vector<std::vector<uint8_t>> frames;
  for (int i = 0; i < 5; ++i) {
    const std::string name = "frame_0000" + std::to_string(i) + ".png";
    frames.push_back(bytes(dir / "a" / name));
    CHECK(frames.back() == bytes(dir / "b" / name));
  }
  // The exhaust has four frames: 0..3 all differ, 4 repeats 0.
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) CHECK(frames[a] != frames[b]);
  CHECK(frames[4] == frames[0]);
}

TEST_CASE("cli view: each headless frame is what render draws at that counter (FA-32 wrap)") {
  ScratchDir dir;
  auto r = run_cli("view " + q(kJet) +
                   " --headless --frame 32766 --frames 3 --lod 0 --set _PLgearDown=1 -o " +
                   q(dir / "v"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("3 frames (counter 32766..0)") != std::string::npos);
  const char* counters[] = {"32766", "32767", "0"};
  for (int i = 0; i < 3; ++i) {
    const auto png = dir / ("r" + std::to_string(i) + ".png");
    // Both at the one default size.
    auto rr = run_cli("render " + q(kJet) + " --lod 0 --set _PLgearDown=1 --frame " + counters[i] +
                      " -o " + q(png));
    REQUIRE(rr.exit_code == 0);
    CHECK(bytes(png) == bytes(dir / ("v/frame_0000" + std::to_string(i) + ".png")));
  }
}

TEST_CASE("cli view: headless refuses to overwrite frames unless --force") {
  ScratchDir dir;
  REQUIRE(run_cli("view " + q(kJet) + " --headless --frames 2 -o " + q(dir.path())).exit_code == 0);
  auto again = run_cli("view " + q(kJet) + " --headless --frames 2 -o " + q(dir.path()));
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("already exists") != std::string::npos);
  CHECK(
      run_cli("view " + q(kJet) + " --headless --frames 2 --force -o " + q(dir.path())).exit_code ==
      0);
}

TEST_CASE("cli view: bad input and bad options exit 2") {
  ScratchDir dir;
  const auto bad = dir / "bad.SH";
  shapevm::write_text_atomic(bad, "MZ not a shape");
  CHECK(run_cli("view " + q(bad) + " --headless -o " + q(dir / "o")).exit_code == 2);
  CHECK(run_cli("view " + q(dir / "missing.SH") + " --headless -o " + q(dir / "o")).exit_code == 2);
  CHECK(run_cli("view " + q(kJet) + " --headless --size 0x10 -o " + q(dir / "o")).exit_code == 2);
  CHECK(run_cli("view " + q(kJet) + " --headless --frames 0 -o " + q(dir / "o")).exit_code == 2);
  CHECK(
      run_cli("view " + q(kJet) + " --headless --screenshot x.png -o " + q(dir / "o")).exit_code ==
      2);
}

TEST_CASE("cli view: the window under SDL's dummy driver shows the frame scaled by whole pixels") {
  ScratchDir dir;
  REQUIRE(run_cli("view " + q(kJet) + " --headless --size 64x48 --lod 0 -o " + q(dir / "h"))
              .exit_code == 0);
  auto r =
      run_command("SDL_VIDEODRIVER=dummy " SHAPEVM_EXE " view " + q(kJet) +
                  " --size 64x48 --scale 3 --lod 0 --paused --screenshot " + q(dir / "shot.png"));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto frame = shapevm::raster::read_png(dir / "h/frame_00000.png");
  const auto shot = shapevm::raster::read_png(dir / "shot.png");
  REQUIRE(shot.frame.width() == 64 * 3);
  REQUIRE(shot.frame.height() == 48 * 3);
  int mismatches = 0;
  for (int y = 0; y < shot.frame.height(); ++y)
    for (int x = 0; x < shot.frame.width(); ++x)
      mismatches += shot.frame.at(x, y) != frame.frame.at(x / 3, y / 3);
  CHECK(mismatches == 0);
}

TEST_CASE("cli view: with no display the window refuses to run invisibly and exits 2") {
  auto r = run_command("SDL_VIDEODRIVER=dummy " SHAPEVM_EXE " view " + q(kJet));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no display") != std::string::npos);
}

}  // namespace tools_cli_view_tests
