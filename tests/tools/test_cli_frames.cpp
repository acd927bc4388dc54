// Frames a new user can read: one default frame size for every command (view's first headless
// frame is render's frame; trace takes --size, which changes the LOD a program picks), a strict
// --camera, a default camera that frames the model for every engine, and a default palette and
// background under which everything every bundled example draws, shadows included, stands apart
// from the background.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "harness/program_frame.h"
#include "interp/common/registry.h"
#include "raster/png_io.h"
#include "tests/support/program_helpers.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_frames_tests {

namespace {

const std::string kBuilt = SHAPEVM_EXAMPLES_BUILD_DIR;
const std::string kJet = kBuilt + "/fa/jet.SH";
// One example of every engine.
const std::vector<std::string> kOnePerEngine = {
    kBuilt + "/fa/jet.SH", kBuilt + "/apache/vehicle/3DOBJS.BIN:tank", kBuilt + "/shp/fighter.SHP",
    kBuilt + "/bi2/units.LIB:TANK001"};

std::string q(const std::filesystem::path& p) {
  return shell_quote(p.string());
}

// The LOD branches a trace took, in order: "offset:taken".
std::string lod_choices(const std::string& jsonl) {
  std::istringstream in(jsonl);
  std::string line, out;
  while (std::getline(in, line)) {
    const auto e = nlohmann::json::parse(line);
    if (e.value("ev", "") == "branch" && e.value("kind", "") == "lod")
      out += fmt::format("{}:{} ", e["off"].get<int>(), e["taken"].get<bool>());
  }
  return out;
}

struct Box {
  int x0 = INT32_MAX, y0 = INT32_MAX, x1 = -1, y1 = -1;
  bool empty() const { return x1 < 0; }
};

Box drawn_box(const shapevm::raster::Framebuffer& f, uint8_t background) {
  Box b;
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x)
      if (f.at(x, y) != background) {
        b.x0 = std::min(b.x0, x);
        b.y0 = std::min(b.y0, y);
        b.x1 = std::max(b.x1, x);
        b.y1 = std::max(b.y1, y);
      }
  return b;
}

int rgb_distance(const shapevm::raster::Rgb& a, const shapevm::raster::Rgb& b) {
  const int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  int s = 0;
  while ((s + 1) * (s + 1) <= dr * dr + dg * dg + db * db) ++s;
  return s;
}

// Every bundled example, as `shapevm examples` finds them: (spec, engine).
std::vector<std::pair<std::string, std::string>> bundled_examples() {
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kBuilt))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto bytes = shapevm::read_file(file);
    for (const shapevm::Engine* engine : shapevm::engines()) {
      if (!engine->recognises(bytes)) continue;
      for (const auto& example : engine->examples(shapevm::read_input(file.string())))
        out.emplace_back(example.spec, std::string(engine->name()));
    }
  }
  return out;
}

}  // namespace

using shapevm::OpenOptions;

TEST_CASE("frames: view --headless frame 0 is render's frame by default, for every engine") {
  ScratchDir dir;
  for (size_t i = 0; i < kOnePerEngine.size(); ++i) {
    const std::string& spec = kOnePerEngine[i];
    CAPTURE(spec);
    const auto png = dir / fmt::format("r{}.png", i);
    const auto frames = dir / fmt::format("v{}", i);
    REQUIRE(run_cli("render " + q(spec) + " -o " + q(png)).exit_code == 0);
    REQUIRE(run_cli("view " + q(spec) + " --headless --frames 1 -o " + q(frames)).exit_code == 0);
    const auto rendered = shapevm::raster::read_png(png);
    const auto viewed = shapevm::raster::read_png(frames / "frame_00000.png");
    CHECK(rendered.frame.width() == 640);
    CHECK(rendered.frame.height() == 480);
    CHECK(viewed.frame == rendered.frame);
    CHECK(viewed.palette == rendered.palette);
  }
}

TEST_CASE("frames: FA-31 view --headless animates the jet's exhaust at the default size") {
  // The README's `view jet --headless --frames N`: at the default size the default camera picks
  // LOD 0, whose exhaust cycles with the frame counter, so frames 0..3 all differ.
  ScratchDir dir;
  REQUIRE(run_cli("view " + q(kJet) + " --headless --frames 4 -o " + q(dir / "v")).exit_code == 0);
  std::vector<std::vector<uint8_t>> frames;
  for (int i = 0; i < 4; ++i)
    frames.push_back(shapevm::read_file(dir / fmt::format("v/frame_0000{}.png", i)));
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) CHECK(frames[a] != frames[b]);
}

TEST_CASE("frames: FA-48 trace --size takes the frame size, which changes the LOD the jet picks") {
  const auto large = run_cli("trace " + q(kJet) + " --no-ops");
  const auto same = run_cli("trace " + q(kJet) + " --no-ops --size 640x480");
  const auto small = run_cli("trace " + q(kJet) + " --no-ops --size 64x48");
  REQUIRE(large.exit_code == 0);
  REQUIRE(small.exit_code == 0);
  CHECK(same.out == large.out);  // the default size is 640x480, as render's
  CHECK_FALSE(lod_choices(large.out).empty());
  CHECK(lod_choices(small.out) != lod_choices(large.out));
  // The coarser level has fewer events.
  const auto count = [](const std::string& jsonl) {
    return std::count(jsonl.begin(), jsonl.end(), '\n');
  };
  CHECK(count(small.out) < count(large.out));
  CHECK(run_cli("trace " + q(kJet) + " --size 64").exit_code == 2);
}

TEST_CASE("frames: --camera takes exactly three values in their ranges, or fit, for every engine") {
  ScratchDir dir;
  for (const std::string& spec : kOnePerEngine) {
    CAPTURE(spec);
    const auto png = q(dir / "c.png");
    auto render = [&](const std::string& camera) {
      return run_cli("render " + q(spec) + " -o " + png + " --force --camera " + camera);
    };
    for (const char* bad : {"400,150", "400,150,20,5", "400", "x,1,2", "400,150,20x", "-1,0,0",
                            "400,361,0", "400,0,90", "400,0,-90", "400,,20", "fit,1"}) {
      CAPTURE(bad);
      const auto r = render(bad);
      CHECK(r.exit_code == 2);
      // The message names what is allowed.
      CHECK(r.err.find("distance,heading,pitch") != std::string::npos);
      CHECK(r.err.find("fit") != std::string::npos);
      CHECK(r.err.find("-89..89") != std::string::npos);
    }
    CHECK(render("400,150").err.find("2 values given") != std::string::npos);
    CHECK(render("400,0,90").err.find("the pitch 90 is outside -89..89") != std::string::npos);
    for (const char* good : {"fit", "fit,30,20", "0,30,20", "400,-30,-89", "400,360,89"}) {
      CAPTURE(good);
      CHECK(render(good).exit_code == 0);
    }
  }
}

TEST_CASE("frames: the default camera frames the model in every engine (--camera fit)") {
  // "Fills the frame": the drawn box spans at least half the frame's width or height (the fit
  // keeps every point inside 7/8 of the frame about its centre, so a model whose picture sits off
  // the centre fills less than 7/8 on its other side),
  // and stays inside the frame with a margin (nothing cut off at an edge), at the default size
  // and at another aspect.
  for (const std::string& spec : kOnePerEngine) {
    for (const auto& [w, h] : {std::pair{640, 480}, std::pair{300, 400}}) {
      CAPTURE(spec);
      CAPTURE(w);
      OpenOptions open;
      open.state = shapevm::testing::state_with({}, {}, w, h);
      auto program = shapevm::open_program(spec, open);
      const uint8_t bg = program->example_background();
      const auto frame = shapevm::harness::render_program(*program, open.state, bg);
      const Box b = drawn_box(frame.frame, bg);
      REQUIRE_FALSE(b.empty());
      const int bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
      CAPTURE(bw);
      CAPTURE(bh);
      CHECK(std::max(bw * 2 >= w, bh * 2 >= h));
      CHECK(b.x0 > 0);
      CHECK(b.y0 > 0);
      CHECK(b.x1 < w - 1);
      CHECK(b.y1 < h - 1);
      // `fit` is the default, spelled out.
      auto fit_state = open.state;
      fit_state.options.push_back({"camera", "fit"});
      auto fitted = shapevm::open_program(spec, OpenOptions{{}, {}, fit_state});
      CHECK(shapevm::harness::render_program(*fitted, fit_state, bg).frame == frame.frame);
    }
  }
}

TEST_CASE("frames: under the default palette and background everything every example draws shows") {
  // A pixel is drawn when it is the same on two backgrounds (translucent remaps of the background
  // are not counted); every drawn pixel's colour must be at least kVisible away from the
  // background's colour (Euclidean RGB), and Apache's shadows must be drawn and visible too.
  constexpr int kVisible = 48;
  const auto examples = bundled_examples();
  REQUIRE(examples.size() >= 15);
  int shadow_pixels = 0;
  for (const auto& [spec, engine] : examples) {
    CAPTURE(spec);
    OpenOptions open;
    auto program = shapevm::open_program(spec, open, engine);
    const uint8_t bg = program->example_background();
    const uint8_t other = static_cast<uint8_t>(bg == 255 ? 254 : 255);
    const auto frame = shapevm::harness::render_program(*program, open.state, bg);
    const auto on_other = shapevm::harness::render_program(*program, open.state, other);
    const auto& pal = frame.palette.colors;
    int drawn = 0, faint = 0;
    for (int y = 0; y < frame.frame.height(); ++y)
      for (int x = 0; x < frame.frame.width(); ++x) {
        const uint8_t v = frame.frame.at(x, y);
        if (v != on_other.frame.at(x, y)) continue;  // background, or a remap of it
        ++drawn;
        if (rgb_distance(pal[v], pal[bg]) < kVisible) ++faint;
      }
    CHECK(drawn > 100);  // the smallest example, a tracer, is one line of some 300 pixels
    CHECK(faint == 0);
    if (engine == "apache") {
      // Shadows: the pixels that change when shadows are turned off, drawn and visible.
      auto state = open.state;
      state.sets.push_back("shadows=0");
      auto unshadowed = shapevm::open_program(spec, OpenOptions{{}, {}, state}, engine);
      const auto plain = shapevm::harness::render_program(*unshadowed, state, bg);
      for (int y = 0; y < frame.frame.height(); ++y)
        for (int x = 0; x < frame.frame.width(); ++x) {
          const uint8_t v = frame.frame.at(x, y);
          if (plain.frame.at(x, y) != bg || v == plain.frame.at(x, y)) continue;
          ++shadow_pixels;
          CHECK(rgb_distance(pal[v], pal[bg]) >= kVisible);
        }
    }
  }
  CHECK(shadow_pixels > 1000);
}

TEST_CASE("frames: the bundled PALETTE.PAL is read by --palette and written by the project") {
  const std::string pal = kBuilt + "/fa/PALETTE.PAL";
  REQUIRE(std::filesystem::exists(pal));
  CHECK(std::filesystem::file_size(pal) == 768);
  ScratchDir dir;
  const auto with = dir / "with.png";
  REQUIRE(run_cli("render " + q(kJet) + " -o " + q(with) + " --palette " + q(pal)).exit_code == 0);
  const auto image = shapevm::raster::read_png(with);
  // The file holds the built-in palette in 6-bit form: every colour within the 6-bit rounding.
  const auto builtin = shapevm::raster::default_palette();
  for (size_t i = 0; i < 256; ++i) {
    CAPTURE(i);
    CHECK(std::abs(image.palette.colors[i].r - builtin.colors[i].r) <= 3);
    CHECK(std::abs(image.palette.colors[i].g - builtin.colors[i].g) <= 3);
    CHECK(std::abs(image.palette.colors[i].b - builtin.colors[i].b) <= 3);
  }
}

}  // namespace tools_cli_frames_tests
