// shapevm examples [DIR]: the main job on the bundled examples — load every built example shape,
// walk it, and print a one-line summary per shape.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "interp/common/input_error.h"
#include "interp/fa/shape_info.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"

#ifndef SHAPEVM_DEFAULT_EXAMPLES_DIR
#define SHAPEVM_DEFAULT_EXAMPLES_DIR "examples"
#endif

namespace shapevm::tools {

void register_examples_command(CLI::App& app, CommandContext& ctx) {
  auto dir = std::make_shared<std::string>(SHAPEVM_DEFAULT_EXAMPLES_DIR);
  CLI::App* cmd = app.add_subcommand(
      "examples",
      "Run the main job on the bundled examples (built from examples/ at build time): every shape\n"
      "is loaded, walked and summarised in one line. Exit 2 if any example is malformed.");
  cmd->add_option("dir", *dir, "Directory of built examples (default: the build tree's)")->capture_default_str();
  cmd->callback([dir, &ctx] {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(*dir, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".SH") files.push_back(entry.path());
    }
    if (ec) throw InputError(*dir, "cannot list the examples directory: " + ec.message());
    if (files.empty()) throw InputError(*dir, "no .SH examples found (build the project first)");
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      fa::Shape shape = load_fa_shape(file.string());
      fa::WalkResult walk = fa::walk_shape(shape);
      fa::ShapeInfo info = fa::analyze_shape(shape, walk);
      fmt::print("{}\n", fa::shape_summary_line(shape, info));
      if (walk.has_errors()) ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
