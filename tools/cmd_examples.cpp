// shapevm examples [DIR] [-o OUT]: the main job on the bundled examples — every built example
// shape is rendered in its default state to OUT/NAME.png, with a one-line summary per shape.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "interp/common/input_error.h"
#include "interp/fa/shape_info.h"
#include "raster/png_io.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"
#include "tools/render_fa.h"
#include "tools/run_options.h"

#ifndef SHAPEVM_DEFAULT_EXAMPLES_DIR
#define SHAPEVM_DEFAULT_EXAMPLES_DIR "examples"
#endif

namespace shapevm::tools {

void register_examples_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string dir = SHAPEVM_DEFAULT_EXAMPLES_DIR;
    std::string out = SHAPEVM_DEFAULT_EXAMPLES_DIR "/png";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "examples",
      "Run the main job on the bundled examples (built from examples/ at build time): every shape "
      "is\n"
      "loaded, run in its default state, rendered to OUT/NAME.png (640x480, built-in palette) and\n"
      "summarised in one line. Exit 2 if any example is malformed or stops on an error.");
  cmd->add_option("dir", o->dir, "Directory of built examples")->capture_default_str();
  cmd->add_option("-o,--output", o->out, "Directory for the PNG frames (created; files replaced)")
      ->capture_default_str();
  cmd->callback([o, &ctx] {
    std::vector<std::filesystem::path> files;
    std::vector<std::filesystem::path> archives;  // Apache 3DOBJS.BIN
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(o->dir, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".SH")
        files.push_back(entry.path());
      if (entry.is_regular_file() && entry.path().filename() == "3DOBJS.BIN")
        archives.push_back(entry.path());
    }
    if (ec) throw InputError(o->dir, "cannot list the examples directory: " + ec.message());
    if (files.empty() && archives.empty())
      throw InputError(o->dir, "no .SH examples found (build the project first)");
    std::sort(files.begin(), files.end());
    std::filesystem::create_directories(o->out, ec);
    if (ec) throw InputError(o->out, "cannot create the output directory: " + ec.message());
    const raster::Palette palette = raster::default_palette();
    for (const auto& file : files) {
      fa::Shape shape = load_fa_shape(file.string());
      fa::WalkResult walk = fa::walk_shape(shape);
      fa::ShapeInfo info = fa::analyze_shape(shape, walk);
      FaFrame frame = render_fa_frame(shape, fa_run_state(RunOptions{}, 480), 640, 480, 0, nullptr);
      const auto png = std::filesystem::path(o->out) / (file.stem().string() + ".png");
      raster::write_indexed_png(png, frame.frame, palette);
      fmt::print("{} -> {} ({} faces drawn, {} ops, {})\n", fa::shape_summary_line(shape, info),
                 png.string(), frame.faces_filled, frame.result.ops, frame.result.reason);
      if (walk.has_errors() || !frame.result.clean) ctx.exit_code = 2;
    }
    std::sort(archives.begin(), archives.end());
    apache_examples(archives, o->out, ctx);
  });
}

}  // namespace shapevm::tools
