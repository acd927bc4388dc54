// The SDL front end's input handling, fed synthetic SDL events (no window, no video driver), and
// the key table: every bound key is a real SDL key name and docs/viewer.md lists it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "harness/sdl_library.h"
#include "harness/viewer_sdl.h"

namespace harness_viewer_sdl_events_tests {

using namespace shapevm;
using namespace shapevm::harness;

namespace {

class StillEngine : public ViewerEngine {
 public:
  StillEngine() {
    caps_.engine = "test";
    caps_.source = "still";
    caps_.lod_levels = 2;
    caps_.detail_levels = 2;
    caps_.frame_counter_modulus = 0x8000;
    caps_.frame_rate = 20;
    caps_.inputs = {{"gear", {1}, 0}};
  }
  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override {
    ViewerState s;
    s.camera = {300, 0, 0};
    return s;
  }
  ViewerRunResult run(const ViewerState&, int32_t, EventSink&) override { return {}; }
  std::string state_json(const ViewerState&, int32_t) const override { return "{}"; }
  const raster::Palette& palette() const override { return palette_; }
  TextureLookup textures() override { return {}; }

 private:
  ViewerCapabilities caps_;
  raster::Palette palette_ = raster::default_palette();
};

SDL_Event key(SDL_Keycode sym, bool repeat = false) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  e.key.repeat = repeat ? 1 : 0;
  return e;
}

}  // namespace

TEST_CASE("viewer sdl: key events become session actions") {
  StillEngine engine;
  ViewerSession s(engine, 32, 24);
  SdlInputState input;
  CHECK(handle_sdl_event(s, input, key(SDLK_l)) == ViewerOutcome::kChanged);
  CHECK(s.state().lod == std::optional<uint32_t>(0));
  handle_sdl_event(s, input, key(SDLK_SPACE));
  CHECK(s.paused());
  handle_sdl_event(s, input, key(SDLK_PERIOD));
  handle_sdl_event(s, input, key(SDLK_PERIOD, true));  // frame steps repeat while held
  CHECK(s.state().frame == 2);
  handle_sdl_event(s, input, key(SDLK_x));
  handle_sdl_event(s, input, key(SDLK_x, true));  // toggles do not repeat
  CHECK(s.state().destroyed);
  handle_sdl_event(s, input, key(SDLK_e));
  CHECK(s.state().effects);
  handle_sdl_event(s, input, key(SDLK_d));
  CHECK(s.state().detail_level == 1);
  handle_sdl_event(s, input, key(SDLK_i));
  CHECK(s.state().inputs[0] == std::optional<size_t>(0));
  handle_sdl_event(s, input, key(SDLK_RIGHT));
  CHECK(s.state().camera.heading == 5);
  handle_sdl_event(s, input, key(SDLK_KP_PLUS));
  CHECK(s.state().camera.distance < 300);
  CHECK(handle_sdl_event(s, input, key(SDLK_p)) == ViewerOutcome::kSavePng);
  CHECK(handle_sdl_event(s, input, key(SDLK_p, true)) == ViewerOutcome::kNone);
  CHECK(handle_sdl_event(s, input, key(SDLK_t)) == ViewerOutcome::kSaveTrace);
  CHECK(handle_sdl_event(s, input, key(SDLK_ESCAPE)) == ViewerOutcome::kQuit);
  CHECK(handle_sdl_event(s, input, key(SDLK_F7)) == ViewerOutcome::kNone);  // unbound
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  CHECK(handle_sdl_event(s, input, quit) == ViewerOutcome::kQuit);
}

TEST_CASE("viewer sdl: a left drag orbits and the wheel zooms") {
  StillEngine engine;
  ViewerSession s(engine, 32, 24);
  SdlInputState input;
  SDL_Event motion{};
  motion.type = SDL_MOUSEMOTION;
  motion.motion.xrel = 20;
  motion.motion.yrel = 10;
  CHECK(handle_sdl_event(s, input, motion) == ViewerOutcome::kNone);  // no button held
  CHECK(s.state().camera.heading == 0);
  SDL_Event down{};
  down.type = SDL_MOUSEBUTTONDOWN;
  down.button.button = SDL_BUTTON_LEFT;
  handle_sdl_event(s, input, down);
  handle_sdl_event(s, input, motion);
  CHECK(s.state().camera.heading == 10);
  CHECK(s.state().camera.pitch == 5);
  SDL_Event up = down;
  up.type = SDL_MOUSEBUTTONUP;
  handle_sdl_event(s, input, up);
  handle_sdl_event(s, input, motion);
  CHECK(s.state().camera.heading == 10);
  SDL_Event wheel{};
  wheel.type = SDL_MOUSEWHEEL;
  wheel.wheel.y = 2;
  handle_sdl_event(s, input, wheel);
  CHECK(s.state().camera.distance == 229);  // 300 * 7/8 = 262, 262 * 7/8 = 229
}

TEST_CASE("viewer sdl: every bound key is an SDL key name and docs/viewer.md lists it") {
  std::ifstream in(SHAPEVM_SOURCE_DIR "/docs/viewer.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (const auto& b : key_bindings()) {
    INFO(b.key);
    const SDL_Keycode code =
        shapevm::harness::sdl_library().SDL_GetKeyFromName(std::string(b.key).c_str());
    CHECK(code != SDLK_UNKNOWN);
    // The name SDL reports for that key finds the same binding (what the front end looks up).
    const KeyBinding* found = binding_for_key(shapevm::harness::sdl_library().SDL_GetKeyName(code));
    REQUIRE(found != nullptr);
    CHECK(found->action == b.action);
    CHECK(doc.find("`" + std::string(b.key) + "`") != std::string::npos);
  }
}

TEST_CASE("viewer sdl: window pixels map back to palette indices exactly") {
  const raster::Palette palette = raster::default_palette();
  std::vector<uint8_t> rgb;
  for (int i : {0, 31, 40, 255}) {
    rgb.push_back(palette.colors[i].r);
    rgb.push_back(palette.colors[i].g);
    rgb.push_back(palette.colors[i].b);
  }
  const raster::Framebuffer f = indexed_from_rgb(rgb, 2, 2, palette, "shot");
  CHECK(f.at(0, 0) == 0);
  CHECK(f.at(1, 0) == 31);
  CHECK(f.at(0, 1) == 40);
  CHECK(f.at(1, 1) == 255);
  rgb[0] = 1;  // (1, 0, 0) is no entry of the built-in palette
  CHECK_THROWS(indexed_from_rgb(rgb, 2, 2, palette, "shot"));
}

}  // namespace harness_viewer_sdl_events_tests
