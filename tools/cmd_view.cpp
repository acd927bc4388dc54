// shapevm view FILE [state]: the live viewer (docs/viewer.md). A window shows the shape as the
// engine draws it with the frame counter running; keys and mouse turn every state knob.
// --headless renders N consecutive engine frames to PNG instead, without any window system.
#include <fmt/format.h>

#include "harness/viewer_headless.h"
#include "harness/viewer_sdl.h"
#include "harness/viewer_session.h"
#include "interp/common/input_error.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"
#include "tools/fa_textures.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"
#include "tools/viewer_fa.h"

namespace shapevm::tools {

void register_view_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string file;
    std::string output = ".";
    std::string size = "320x240";
    int scale = 2;
    double fps = 0;
    std::string palette;
    std::string textures;
    int background = 0;
    bool headless = false;
    uint32_t frames = 1;
    bool paused = false;
    bool force = false;
    std::string screenshot;
    RunOptions run;
    fa::WalkOptions walk;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "view",
      "Open a window showing an FA shape as the engine draws it, scaled up without filtering, "
      "with the\n"
      "frame counter running at the engine's rate. Keys and mouse orbit and zoom the camera, "
      "step frames,\n"
      "force LOD, toggle detail/destroyed/effects and cycle articulation inputs; P writes the "
      "frame as PNG,\n"
      "T its trace (docs/viewer.md lists every key). --headless --frames N -o DIR writes N "
      "consecutive\n"
      "engine frames as PNG without opening a window. Exit 2 if a run stopped on an error.");
  cmd->add_option("file", o->file, "The .SH file, or LIB:MEMBER")->required();
  cmd->add_option("-o,--output", o->output,
                  "Directory for --headless frames and for the PNG/trace keys")
      ->capture_default_str();
  cmd->add_option("--size", o->size, "Frame WIDTHxHEIGHT (the engine's resolution)")
      ->capture_default_str();
  cmd->add_option("--scale", o->scale, "Window pixels per frame pixel (nearest neighbour)")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  cmd->add_option("--fps", o->fps,
                  "Frame counter increments per second (default: the engine's assumed rate, "
                  "docs/viewer.md)")
      ->check(CLI::Range(0.1, 1000.0));
  cmd->add_option("--palette", o->palette,
                  "FA PALETTE.PAL (file or LIB:MEMBER); default: built-in palette");
  cmd->add_option("--textures", o->textures, "Directory or .LIB holding the PIC textures");
  cmd->add_option("--background", o->background, "Palette index the frame is cleared to")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  cmd->add_flag("--headless", o->headless, "No window: write --frames frames to -o DIR");
  cmd->add_option("--frames", o->frames, "Headless: how many consecutive engine frames")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  cmd->add_flag("--paused", o->paused, "Open with the frame counter stopped");
  cmd->add_flag("--force", o->force,
                "Overwrite existing frame files (--headless) or the --screenshot file");
  cmd->add_option("--screenshot", o->screenshot,
                  "Window: save the window's pixels as PNG after the first frame, then quit");
  add_run_options(cmd, o->run);
  add_objend_option(cmd, o->walk);
  cmd->callback([o, &ctx] {
    auto [width, height] = parse_size(o->size);
    fa::Shape shape = load_fa_shape(o->file);
    std::optional<FaTextures> textures;
    if (!o->textures.empty()) textures.emplace(o->textures);
    FaViewerEngine engine(std::move(shape), o->run, o->walk, load_fa_palette(o->palette),
                          std::move(textures), o->fps);
    harness::ViewerSession session(engine, width, height, static_cast<uint8_t>(o->background));
    session.set_paused(o->paused);
    if (o->headless) {
      if (!o->screenshot.empty())
        throw InputError("--screenshot", "needs a window (not with --headless)");
      const harness::HeadlessReport report =
          harness::render_headless(session, o->frames, o->output, o->force);
      const auto& first = report.frames.front();
      const auto& last = report.frames.back();
      fmt::print("{} frames (counter {}..{}) written to {}: {:.1f} frames/s\n",
                 report.frames.size(), first.counter, last.counter, o->output,
                 report.seconds > 0 ? report.frames.size() / report.seconds : 0.0);
      for (const auto& f : report.frames)
        if (!f.stats.clean)
          fmt::print(stderr, "shapevm: error: {}: frame {}: the run stopped: {}\n",
                     engine.capabilities().source, f.counter, f.stats.reason);
      if (!report.all_clean) ctx.exit_code = 2;
      return;
    }
    harness::SdlViewerOptions window;
    window.scale = o->scale;
    window.output_dir = o->output;
    if (!o->screenshot.empty()) {
      if (!o->force && std::filesystem::exists(o->screenshot))
        throw InputError(o->screenshot, "already exists (not overwritten; pass --force)");
      window.screenshot = o->screenshot;
    }
    harness::run_sdl_viewer(session, window);
    if (!session.stats().clean) ctx.exit_code = 2;
  });
}

}  // namespace shapevm::tools
