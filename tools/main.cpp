// shapevm: re-runs the shape programs of 1990s 3D engines. This file wires the subcommands
// together and owns the exit-code contract: 0 success, 1 differences found, 2 bad input/usage.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "interp/common/input_error.h"
#include "tools/command.h"

int main(int argc, char** argv) {
  using namespace shapevm::tools;
  CLI::App app{
      "shapevm: run, trace, debug and compare the shape programs of Fighters Anthology, Apache,\n"
      "Starlancer and Battle Isle 2 the way the original engines did.\n"
      "Exit codes: 0 success, 1 a comparison found differences, 2 bad input or usage."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "shapevm 0.1.0");
  CommandContext ctx;
  register_lib_command(app, ctx);
  register_disasm_command(app, ctx);
  register_info_command(app, ctx);
  register_asm_command(app, ctx);
  register_gen_command(app, ctx);
  register_examples_command(app, ctx);
  register_trace_command(app, ctx);
  register_render_command(app, ctx);
  register_export_command(app, ctx);
  register_variants_command(app, ctx);
  register_view_command(app, ctx);
  register_compare_command(app, ctx);
  register_regress_command(app, ctx);
  register_trace_diff_command(app, ctx);
  register_debug_command(app, ctx);
  register_dap_command(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const shapevm::InputError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "shapevm: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "shapevm: error: {}\n", e.what());
    return 2;
  }
  return ctx.exit_code;
}
