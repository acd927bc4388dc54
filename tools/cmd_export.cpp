// shapevm export FILE -o out.obj [state]: the faces one run drew, as Wavefront OBJ.
#include <fmt/format.h>

#include <array>
#include <map>

#include "core/file_io.h"
#include "harness/mesh_collector.h"
#include "tools/command.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_export_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputOptions input;
    FrameOptions frame;
    std::string output;
    bool force = false;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Run a program of any engine for one state and write the faces it drew as Wavefront OBJ\n"
      "(FA in feet; `usemtl` per texture or palette colour; texture coordinates normalised when\n"
      "the textures give their sizes).");
  add_input_options(cmd, o->input, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output, "The .obj to write")->required();
  cmd->add_option("--textures", o->frame.textures,
                  "Where the textures are (for their sizes; FA: a directory or .LIB)");
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  add_state_options(cmd, o->state);
  cmd->callback([o, &ctx] {
    OpenedProgram p = open_for_run(o->input, o->frame, o->state, 640, 480);
    harness::MeshCollector mesh;
    const RunOutcome r = p.program->run(p.state, mesh);
    std::map<std::string, std::array<int, 2>> sizes;
    // The engine's textures (given, or where it looks by default) give their sizes.
    if (const TextureLookup textures = p.program->render_setup(640, 480).textures) {
      for (const auto& f : mesh.faces()) {
        if (f.texture.empty() || sizes.count(f.texture)) continue;
        if (const auto* t = textures(f.texture)) sizes[f.texture] = {t->width, t->height};
      }
    }
    write_text_atomic(o->output, mesh.to_obj(p.program->export_scale(), sizes),
                      o->force ? Overwrite::kAllow : Overwrite::kRefuse);
    report_outcome(p.program->source(), r, ctx);
  });
}

}  // namespace shapevm::tools
