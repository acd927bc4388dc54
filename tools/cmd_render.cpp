// shapevm render FILE -o out.png [state]: one frame, filled in program order, as an indexed PNG.
#include <fmt/format.h>

#include "harness/frame_renderer.h"
#include "interp/apache/archive_input.h"
#include "interp/common/input_error.h"
#include "interp/fa/interpreter.h"
#include "raster/png_io.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"
#include "tools/fa_textures.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"

namespace shapevm::tools {

void register_render_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string file;
    std::string output;
    std::string size = "640x480";
    std::string palette;
    std::string textures;
    int background = 0;
    bool force = false;
    RunOptions run;
    fa::WalkOptions walk;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("render",
                                     "Run an FA shape for one state and draw it into an 8-bit "
                                     "indexed frame (painter's algorithm in\n"
                                     "program order, fixed-point fills), written as an indexed "
                                     "PNG. Exit 2 if the run stopped on an\n"
                                     "error.");
  cmd->add_option("file", o->file,
                  "The .SH file or LIB:MEMBER (FA), or 3DOBJS.BIN:#N / 3DOBJS.BIN:NAME (Apache)")
      ->required();
  cmd->add_option("-o,--output", o->output, "The PNG to write")->required();
  cmd->add_option("--size", o->size, "WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--palette", o->palette,
                  "FA PALETTE.PAL (file or LIB:MEMBER); default: built-in palette");
  cmd->add_option("--textures", o->textures, "Directory or .LIB holding the PIC textures");
  cmd->add_option("--background", o->background, "Palette index the frame is cleared to")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  add_run_options(cmd, o->run);
  add_objend_option(cmd, o->walk);
  cmd->callback([o, &ctx] {
    if (apache::is_apache_spec(o->file)) {
      return apache_render(o->file, o->output, o->size, o->palette, o->textures, o->background,
                           o->force, o->run, ctx);
    }
    auto [width, height] = parse_size(o->size);
    fa::Shape shape = load_fa_shape(o->file);
    raster::Palette palette = load_fa_palette(o->palette);
    std::optional<FaTextures> textures;
    if (!o->textures.empty()) textures.emplace(o->textures);
    FaFrame frame = render_fa_frame(shape, fa_run_state(o->run, height), width, height,
                                    static_cast<uint8_t>(o->background),
                                    textures ? &*textures : nullptr, o->walk);
    if (!o->force && std::filesystem::exists(o->output))
      throw InputError(o->output, "already exists (not overwritten; pass --force to replace it)");
    raster::write_indexed_png(o->output, frame.frame, palette);
    for (const auto& name : frame.missing_textures)
      fmt::print(stderr, "shapevm: warning: texture {} not found; its faces are drawn flat\n",
                 name);
    if (!frame.result.clean) {
      fmt::print(stderr, "shapevm: error: {}: the run stopped at CODE offset 0x{:x}: {}\n",
                 shape.source(), frame.result.end_offset, frame.result.reason);
      ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
