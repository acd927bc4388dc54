#include "harness/viewer_sdl.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

#include "core/input_error.h"
#include "harness/sdl_library.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

// Every SDL call goes through the table loaded when the viewer first needs SDL (sdl_library.h).
const SdlLibrary& sdl() {
  return sdl_library();
}

// Keys that may auto-repeat while held; toggles, saves and quit act once per press.
bool repeats(ViewerAction a) {
  using A = ViewerAction;
  switch (a) {
    case A::kOrbitLeft:
    case A::kOrbitRight:
    case A::kPitchUp:
    case A::kPitchDown:
    case A::kZoomIn:
    case A::kZoomOut:
    case A::kFrameNext:
    case A::kFramePrev:
      return true;
    default:
      return false;
  }
}

[[noreturn]] void sdl_failure(const char* what) {
  // The window system refused (no display, no driver): the environment, not a bug (exit 2).
  throw InputError("view", fmt::format("SDL: {}: {}", what, sdl().SDL_GetError()));
}

struct SdlDeleter {
  void operator()(SDL_Window* w) const { sdl().SDL_DestroyWindow(w); }
  void operator()(SDL_Renderer* r) const { sdl().SDL_DestroyRenderer(r); }
  void operator()(SDL_Texture* t) const { sdl().SDL_DestroyTexture(t); }
};

void write_sdl_log(void*, int, SDL_LogPriority priority, const char* message) {
  const std::string line = sdl_log_line(priority, message);
  if (line.empty()) return;
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
}

// SDL_Init/SDL_Quit for the lifetime of the window.
struct SdlVideo {
  SdlVideo() {
    install_sdl_log_output();
    if (sdl().SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) sdl_failure("cannot initialise video");
  }
  ~SdlVideo() { sdl().SDL_QuitSubSystem(SDL_INIT_VIDEO); }
  SdlVideo(const SdlVideo&) = delete;
  SdlVideo& operator=(const SdlVideo&) = delete;
};

void upload(SDL_Texture* texture, const raster::Framebuffer& frame,
            const raster::Palette& palette) {
  void* pixels = nullptr;
  int pitch = 0;
  if (sdl().SDL_LockTexture(texture, nullptr, &pixels, &pitch) != 0)
    sdl_failure("cannot lock texture");
  uint32_t argb[256];
  for (int i = 0; i < 256; ++i) {
    const auto& c = palette.colors[i];
    argb[i] = 0xFF000000u | (uint32_t{c.r} << 16) | (uint32_t{c.g} << 8) | c.b;
  }
  for (int y = 0; y < frame.height(); ++y) {
    auto* out = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(pixels) + y * pitch);
    const uint8_t* in = frame.row(y);
    for (int x = 0; x < frame.width(); ++x) out[x] = argb[in[x]];
  }
  sdl().SDL_UnlockTexture(texture);
}

void save_screenshot(SDL_Renderer* renderer, const raster::Palette& palette,
                     const std::filesystem::path& path) {
  int w = 0, h = 0;
  if (sdl().SDL_GetRendererOutputSize(renderer, &w, &h) != 0)
    sdl_failure("no renderer output size");
  std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3);
  if (sdl().SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGB24, rgb.data(), w * 3) != 0)
    sdl_failure("cannot read the window's pixels");
  raster::write_indexed_png(path, indexed_from_rgb(rgb, w, h, palette, path.string()), palette);
}

}  // namespace

raster::Framebuffer indexed_from_rgb(const std::vector<uint8_t>& rgb, int width, int height,
                                     const raster::Palette& palette, const std::string& source) {
  std::map<uint32_t, uint8_t> index_of;
  for (int i = 255; i >= 0; --i) {  // the lowest index wins for repeated colours
    const auto& c = palette.colors[i];
    index_of[(uint32_t{c.r} << 16) | (uint32_t{c.g} << 8) | c.b] = static_cast<uint8_t>(i);
  }
  raster::Framebuffer out(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const size_t at = (static_cast<size_t>(y) * width + x) * 3;
      const uint32_t key = (uint32_t{rgb[at]} << 16) | (uint32_t{rgb[at + 1]} << 8) | rgb[at + 2];
      const auto it = index_of.find(key);
      if (it == index_of.end())
        throw InputError(source,
                         fmt::format("window pixel ({}, {}) is not a palette colour", x, y));
      out.set(x, y, it->second);
    }
  }
  return out;
}

std::string sdl_log_line(SDL_LogPriority priority, const char* message) {
  const char* level = nullptr;
  switch (priority) {
    case SDL_LOG_PRIORITY_WARN:
      level = "warning";
      break;
    case SDL_LOG_PRIORITY_ERROR:
    case SDL_LOG_PRIORITY_CRITICAL:
      level = "error";
      break;
    default:
      return {};  // verbose, debug and info: SDL's chatter, not the user's business
  }
  std::string text = message != nullptr ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return fmt::format("shapevm: SDL {}: {}\n", level, text);
}

void install_sdl_log_output() {
  sdl().SDL_LogSetOutputFunction(write_sdl_log, nullptr);
}

ViewerOutcome handle_sdl_event(ViewerSession& session, SdlInputState& input,
                               const SDL_Event& event) {
  switch (event.type) {
    case SDL_QUIT:
      return ViewerOutcome::kQuit;
    case SDL_KEYDOWN: {
      const KeyBinding* b = binding_for_key(sdl().SDL_GetKeyName(event.key.keysym.sym));
      if (!b || (event.key.repeat && !repeats(b->action))) return ViewerOutcome::kNone;
      return session.apply(b->action);
    }
    case SDL_MOUSEBUTTONDOWN:
      if (event.button.button == SDL_BUTTON_LEFT) input.dragging = true;
      return ViewerOutcome::kNone;
    case SDL_MOUSEBUTTONUP:
      if (event.button.button == SDL_BUTTON_LEFT) input.dragging = false;
      return ViewerOutcome::kNone;
    case SDL_MOUSEMOTION:
      if (!input.dragging) return ViewerOutcome::kNone;
      session.drag(event.motion.xrel, event.motion.yrel);
      return ViewerOutcome::kChanged;
    case SDL_MOUSEWHEEL: {
      const int notches =
          event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -event.wheel.y : event.wheel.y;
      if (notches == 0) return ViewerOutcome::kNone;
      session.zoom(notches);
      return ViewerOutcome::kChanged;
    }
    default:
      return ViewerOutcome::kNone;
  }
}

void run_sdl_viewer(ViewerSession& session, const SdlViewerOptions& options) {
  SdlVideo video;
  // Without a display SDL falls back to a driver that draws nowhere; an interactive viewer there
  // would run invisibly forever, so only a screenshot may use it.
  const std::string driver =
      sdl().SDL_GetCurrentVideoDriver() ? sdl().SDL_GetCurrentVideoDriver() : "";
  if ((driver == "offscreen" || driver == "dummy") && !options.screenshot)
    throw InputError("view", fmt::format("no display to open a window on (SDL video driver '{}'); "
                                         "use --headless or --screenshot",
                                         driver));
  const raster::Framebuffer& first = session.frame();
  const int width = first.width();
  const int height = first.height();
  const int scale = std::max(1, options.scale);
  // Nearest neighbour: the frame's pixels stay sharp squares.
  sdl().SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
  std::unique_ptr<SDL_Window, SdlDeleter> window(sdl().SDL_CreateWindow(
      session.title().c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width * scale,
      height * scale, SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE));
  if (!window) sdl_failure("cannot open a window");
  std::unique_ptr<SDL_Renderer, SdlDeleter> renderer(
      sdl().SDL_CreateRenderer(window.get(), -1, SDL_RENDERER_PRESENTVSYNC));
  if (!renderer) renderer.reset(sdl().SDL_CreateRenderer(window.get(), -1, SDL_RENDERER_SOFTWARE));
  if (!renderer) sdl_failure("cannot create a renderer");
  if (sdl().SDL_RenderSetLogicalSize(renderer.get(), width, height) != 0 ||
      sdl().SDL_RenderSetIntegerScale(renderer.get(), SDL_TRUE) != 0)
    sdl_failure("cannot set an integer scale");
  std::unique_ptr<SDL_Texture, SdlDeleter> texture(sdl().SDL_CreateTexture(
      renderer.get(), SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, width, height));
  if (!texture) sdl_failure("cannot create the frame texture");

  SdlInputState input;
  bool redraw = true;
  ViewerState shown;
  bool shown_paused = false;
  uint64_t last_ticks = sdl().SDL_GetTicks64();
  const double rate = session.capabilities().frame_rate;
  const uint32_t wait_ms = rate > 0 ? static_cast<uint32_t>(std::max(1.0, 1000.0 / rate / 2)) : 50;
  for (;;) {
    SDL_Event event;
    while (sdl().SDL_PollEvent(&event)) {
      if (event.type == SDL_WINDOWEVENT) redraw = true;  // exposed, resized
      const ViewerOutcome out = handle_sdl_event(session, input, event);
      if (out == ViewerOutcome::kQuit) return;
      if (out == ViewerOutcome::kSavePng || out == ViewerOutcome::kSaveTrace) {
        const bool png = out == ViewerOutcome::kSavePng;
        const auto path = session.unused_path(options.output_dir, png ? "png" : "jsonl");
        try {
          png ? session.save_png(path) : session.save_trace(path);
          fmt::print("shapevm: wrote {}\n", path.string());
        } catch (const std::exception& e) {
          fmt::print(stderr, "shapevm: error: {}\n", e.what());
        }
        std::fflush(stdout);
      }
    }
    const uint64_t now = sdl().SDL_GetTicks64();
    session.advance_time((now - last_ticks) * 1000);
    last_ticks = now;
    if (redraw || !(shown == session.state()) || shown_paused != session.paused()) {
      upload(texture.get(), session.frame(), session.palette());
      sdl().SDL_SetWindowTitle(window.get(), session.title().c_str());
      sdl().SDL_SetRenderDrawColor(renderer.get(), 0, 0, 0, 255);
      sdl().SDL_RenderClear(renderer.get());
      sdl().SDL_RenderCopy(renderer.get(), texture.get(), nullptr, nullptr);
      if (options.screenshot) {
        // Read back before presenting: the back buffer holds exactly what is about to be shown.
        save_screenshot(renderer.get(), session.palette(), *options.screenshot);
        fmt::print("shapevm: wrote {}\n", options.screenshot->string());
        sdl().SDL_RenderPresent(renderer.get());
        return;
      }
      sdl().SDL_RenderPresent(renderer.get());
      shown = session.state();
      shown_paused = session.paused();
      redraw = false;
    }
    sdl().SDL_WaitEventTimeout(nullptr, static_cast<int>(wait_ms));
  }
}

}  // namespace shapevm::harness
