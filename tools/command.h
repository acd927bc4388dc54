// Each subcommand lives in its own cmd_<name>.cpp and registers itself on the CLI11 app here.
// Callbacks signal bad input by throwing shapevm::InputError (main prints it, exit code 2) and
// set `exit_code` for other outcomes (1 = differences found).
#pragma once

#include <CLI/CLI.hpp>

namespace shapevm::tools {

struct CommandContext {
  int exit_code = 0;
};

void register_lib_command(CLI::App& app, CommandContext& ctx);       // cmd_lib.cpp
void register_disasm_command(CLI::App& app, CommandContext& ctx);    // cmd_disasm.cpp
void register_info_command(CLI::App& app, CommandContext& ctx);      // cmd_info.cpp
void register_asm_command(CLI::App& app, CommandContext& ctx);       // cmd_asm.cpp
void register_gen_command(CLI::App& app, CommandContext& ctx);       // cmd_gen.cpp
void register_examples_command(CLI::App& app, CommandContext& ctx);  // cmd_examples.cpp
void register_trace_command(CLI::App& app, CommandContext& ctx);     // cmd_trace.cpp
void register_render_command(CLI::App& app, CommandContext& ctx);    // cmd_render.cpp
void register_export_command(CLI::App& app, CommandContext& ctx);    // cmd_export.cpp
void register_variants_command(CLI::App& app, CommandContext& ctx);  // cmd_variants.cpp
void register_view_command(CLI::App& app, CommandContext& ctx);      // cmd_view.cpp

// Regression runs (docs/regress.md).
void register_compare_command(CLI::App& app, CommandContext& ctx);     // cmd_compare.cpp
void register_regress_command(CLI::App& app, CommandContext& ctx);     // cmd_regress.cpp
void register_trace_diff_command(CLI::App& app, CommandContext& ctx);  // cmd_trace_diff.cpp
void register_debug_command(CLI::App& app, CommandContext& ctx);     // cmd_debug.cpp
void register_dap_command(CLI::App& app, CommandContext& ctx);       // cmd_dap.cpp

}  // namespace shapevm::tools
