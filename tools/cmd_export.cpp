// shapevm export FILE -o out.obj [state]: the geometry of exactly the state that ran.
#include <fmt/format.h>

#include "harness/mesh_collector.h"
#include "interp/apache/archive_input.h"
#include "interp/common/file_io.h"
#include "interp/fa/interpreter.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"
#include "tools/fa_textures.h"
#include "tools/run_options.h"

namespace shapevm::tools {

void register_export_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string file;
    std::string output;
    std::string textures;
    bool force = false;
    RunOptions run;
    fa::WalkOptions walk;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("export",
                                     "Run an FA shape for one state and write the faces it drew as "
                                     "Wavefront OBJ (feet; `usemtl` per\n"
                                     "texture or palette colour; texture coordinates normalised "
                                     "when --textures gives the sizes).");
  cmd->add_option("file", o->file,
                  "The .SH file or LIB:MEMBER (FA), or 3DOBJS.BIN:#N / 3DOBJS.BIN:NAME (Apache)")
      ->required();
  cmd->add_option("-o,--output", o->output, "The .obj to write")->required();
  cmd->add_option("--textures", o->textures,
                  "Directory or .LIB holding the PIC textures (for their sizes)");
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  add_run_options(cmd, o->run);
  add_objend_option(cmd, o->walk);
  cmd->callback([o, &ctx] {
    if (apache::is_apache_spec(o->file))
      return apache_export(o->file, o->output, o->textures, o->force, o->run, ctx);
    fa::Shape shape = load_fa_shape(o->file);
    fa::Interpreter interp(shape, o->walk);
    harness::MeshCollector mesh;
    fa::RunResult r = interp.run(fa_run_state(o->run, 480), mesh);
    std::map<std::string, std::array<int, 2>> sizes;
    if (!o->textures.empty()) {
      FaTextures textures(o->textures);
      for (const auto& f : mesh.faces()) {
        if (f.texture.empty() || sizes.count(f.texture)) continue;
        if (const auto* t = textures.find(f.texture)) sizes[f.texture] = {t->width, t->height};
      }
    }
    write_text_atomic(o->output, mesh.to_obj(shape.header.scale_factor(), sizes),
                      o->force ? Overwrite::kAllow : Overwrite::kRefuse);
    if (!r.clean) {
      fmt::print(stderr, "shapevm: error: {}: the run stopped at CODE offset 0x{:x}: {}\n",
                 shape.source(), r.end_offset, r.reason);
      ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
