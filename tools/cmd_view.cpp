// shapevm view FILE [state]: the live viewer (docs/viewer.md). A window shows the program as the
// engine draws it with the frame counter running; keys and mouse turn every state knob.
// --headless renders N consecutive engine frames to PNG instead, without any window system.
#include <fmt/format.h>

#include <filesystem>

#include "core/input_error.h"
#include "harness/viewer_headless.h"
#include "harness/viewer_sdl.h"
#include "harness/viewer_session.h"
#include "tools/command.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_view_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputOptions input;
    FrameOptions frame;
    std::string output = ".";
    int scale = 1;  // the default frame is already window-sized
    double fps = 0;
    bool headless = false;
    uint32_t frames = 1;
    bool paused = false;
    bool force = false;
    std::string screenshot;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "view",
      "Open a window showing a program of any engine as the engine draws it, scaled up without\n"
      "filtering, with the frame counter running at the engine's rate. Keys and mouse orbit and\n"
      "zoom the camera, step frames, force LOD, toggle detail/destroyed/effects and cycle the\n"
      "inputs the program reads; P writes the frame as PNG, T its trace (docs/viewer.md lists\n"
      "every key). --headless --frames N -o DIR writes N consecutive engine frames as PNG\n"
      "without opening a window. Exit 2 if a run stopped on an error.");
  add_input_options(cmd, o->input, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output,
                  "Directory for frames and traces (P, T, --headless); created if missing")
      ->capture_default_str();
  add_frame_options(cmd, o->frame);
  cmd->add_option("--scale", o->scale, "Window pixels per frame pixel (nearest neighbour)")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  cmd->add_option("--fps", o->fps,
                  "Frame counter increments per second (default: the engine's assumed rate)")
      ->check(CLI::Range(0.1, 1000.0));
  cmd->add_flag("--headless", o->headless, "No window: write --frames frames to -o DIR");
  cmd->add_option("--frames", o->frames, "Headless: how many consecutive engine frames")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  cmd->add_flag("--paused", o->paused, "Open with the frame counter stopped");
  cmd->add_flag("--force", o->force,
                "Overwrite existing frame files (--headless) or the --screenshot file");
  cmd->add_option("--screenshot", o->screenshot,
                  "Window: save the window's pixels as PNG after the first frame, then quit");
  add_state_options(cmd, o->state);
  cmd->callback([o, cmd, &ctx] {
    if (!o->headless && cmd->count("--frames") != 0)
      throw InputError("--frames", "only with --headless (the window runs until closed)");
    auto [width, height] = parse_size(o->frame.size);
    OpenedProgram p = open_for_run(o->input, o->frame, o->state, width, height);
    std::unique_ptr<ViewerModel> model = p.program->viewer(p.state, o->fps);
    harness::ViewerSession session(
        *model, width, height,
        static_cast<uint8_t>(o->frame.background.value_or(p.program->example_background())));
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
                     model->capabilities().source, f.counter, f.stats.reason);
      if (!report.all_clean) ctx.exit_code = kExitBadInput;
      return;
    }
    harness::SdlViewerOptions window;
    window.scale = o->scale;
    window.output_dir = o->output;
    if (!o->screenshot.empty()) {
      check_output_option(o->screenshot, o->force, {".png"}, "PNG");
      window.screenshot = o->screenshot;
    }
    harness::run_sdl_viewer(session, window);
    if (!session.stats().clean) ctx.exit_code = kExitBadInput;
  });
}

}  // namespace shapevm::tools
