// shapevm examples [DIR] [-o OUT]: the main job on the bundled examples. Every file in DIR that an
// engine recognises by its content is opened, each program in it run in its default state and
// rendered to OUT/NAME.png, with a one-line summary each.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/program_frame.h"
#include "interp/common/registry.h"
#include "raster/png_io.h"
#include "tools/command.h"

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
      "Run the main job on the bundled examples (built from examples/ at build time): every\n"
      "program of every engine is loaded, run in its default state, rendered to OUT/NAME.png\n"
      "(640x480, the engine's default palette) and summarised in one line. Exit 2 if any example\n"
      "is malformed or stops on an error.");
  cmd->add_option("dir", o->dir, "Directory of built examples")->capture_default_str();
  cmd->add_option("-o,--output", o->out, "Directory for the PNG frames (created; files replaced)")
      ->capture_default_str();
  cmd->callback([o, &ctx] {
    namespace fs = std::filesystem;
    // Files by engine (in registration order), then by path.
    std::vector<std::vector<fs::path>> by_engine(engines().size());
    std::error_code ec;
    for (const auto& entry : fs::recursive_directory_iterator(o->dir, ec)) {
      if (!entry.is_regular_file()) continue;
      const auto bytes = read_file(entry.path());
      for (size_t i = 0; i < engines().size(); ++i)
        if (engines()[i]->recognises(bytes)) by_engine[i].push_back(entry.path());
    }
    if (ec) throw InputError(o->dir, "cannot list the examples directory: " + ec.message());
    if (std::all_of(by_engine.begin(), by_engine.end(), [](const auto& v) { return v.empty(); }))
      throw InputError(o->dir, "no examples found (build the project first)");
    fs::create_directories(o->out, ec);
    if (ec) throw InputError(o->out, "cannot create the output directory: " + ec.message());
    for (size_t i = 0; i < by_engine.size(); ++i) {
      std::sort(by_engine[i].begin(), by_engine[i].end());
      const Engine& engine = *engines()[i];
      for (const auto& file : by_engine[i]) {
        const EngineInput whole = read_input(file.string());
        for (const ExampleEntry& example : engine.examples(whole)) {
          auto program = open_program(example.spec, {}, engine.name());
          StateRequest state;  // the default state, 640x480
          harness::ProgramFrame frame =
              harness::render_program(*program, state, program->example_background());
          const auto png = fs::path(o->out) / (example.stem + ".png");
          raster::write_indexed_png(png, frame.frame, frame.palette);
          std::string counts;
          for (const auto& [what, n] : frame.outcome.counts)
            counts += fmt::format("{} {}, ", n, what);
          fmt::print("{} -> {} ({} faces drawn, {}{} ops, {})\n", program->summary(), png.string(),
                     frame.faces_filled, counts, frame.outcome.ops, frame.outcome.reason);
          if (!program->static_errors().empty() || !frame.outcome.clean)
            ctx.exit_code = kExitBadInput;
        }
      }
    }
  });
}

}  // namespace shapevm::tools
