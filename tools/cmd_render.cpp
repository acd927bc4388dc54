// shapevm render FILE... -o out.png [state]: one frame, filled in program order, as an indexed PNG
// (several inputs: one PNG each in the folder -o names).
#include <fmt/format.h>

#include <filesystem>

#include "core/input_error.h"
#include "harness/program_frame.h"
#include "raster/png_io.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_render_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
    FrameOptions frame;
    std::string output;
    bool force = false;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "render",
      "Run a program of any engine for one state and draw it into an 8-bit indexed frame\n"
      "(painter's algorithm in program order, fixed-point fills), written as an indexed PNG.\n"
      "Exit 2 if the run stopped on an error.");
  add_inputs_options(cmd, o->inputs,
                     "The program: a file or CONTAINER:MEMBER (FA_2.LIB:A10.SH, 3DOBJS.BIN:NAME)");
  cmd->add_option("-o,--output", o->output, batch_output_help("The PNG to write"))->required();
  add_frame_options(cmd, o->frame);
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  add_state_options(cmd, o->state);
  cmd->callback([o, &ctx] {
    auto [width, height] = parse_size(o->frame.size);
    run_each_input(
        o->inputs.files, o->inputs.engine, {o->output, ".png", o->force}, true, o->inputs.jobs, ctx,
        [&](const std::string& spec, const std::string& output, CommandContext& status) {
          OpenedProgram p = open_for_run(o->inputs.one(spec), o->frame, o->state, width, height);
          // After the state is validated (its errors come first), before the program runs.
          check_output_option(output, o->force, {".png"}, "an indexed PNG");
          harness::ProgramFrame frame = harness::render_program(
              *p.program, p.state,
              static_cast<uint8_t>(o->frame.background.value_or(p.program->example_background())));
          raster::write_indexed_png(output, frame.frame, frame.palette);
          for (const auto& name : frame.missing_textures)
            console_err("shapevm: warning: texture {} not found; its faces are drawn without it\n",
                        name);
          report_outcome(p.program->source(), frame.outcome, status);
        });
  });
}

}  // namespace shapevm::tools
