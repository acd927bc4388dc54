// shapevm info FILE: header, counts and structure of an FA shape.
#include <fmt/format.h>

#include "interp/apache/archive_input.h"
#include "interp/fa/shape_info.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"

namespace shapevm::tools {

void register_info_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::vector<std::string> files;
    bool json = false;
    fa::WalkOptions walk;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Describe FA .SH shapes (files or LIB:MEMBER): header fields, instruction counts by opcode,\n"
      "vertex buffers, faces, textures, frame tables, LOD/detail sites, damage branches, x86 "
      "blocks,\n"
      "imports and trampolines, and which PtrToObjEnd reading lands on an EndObject.\n"
      "With several files and --json, prints one JSON object per line.");
  cmd->add_option("files", opts->files,
                  "The .SH files or LIB:MEMBER (FA), or 3DOBJS.BIN[:#N or :NAME] (Apache)")
      ->required();
  cmd->add_flag("--json", opts->json, "Print JSON");
  add_objend_option(cmd, opts->walk);
  cmd->callback([opts, &ctx] {
    for (const auto& file : opts->files) {
      if (apache::is_apache_spec(file)) {
        apache_info(file, opts->json, opts->files.size() > 1, ctx);
        continue;
      }
      fa::Shape shape = load_fa_shape(file);
      fa::WalkResult walk = fa::walk_shape(shape, opts->walk);
      fa::ShapeInfo info = fa::analyze_shape(shape, walk);
      if (opts->json) {
        fmt::print("{}\n",
                   fa::shape_info_json(shape, walk, info).dump(opts->files.size() > 1 ? -1 : 1));
      } else {
        fmt::print("{}{}", fa::shape_info_text(shape, walk, info),
                   opts->files.size() > 1 ? "\n" : "");
      }
      if (walk.has_errors()) ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
