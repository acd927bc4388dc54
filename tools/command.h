// Each subcommand lives in its own cmd_<name>.cpp and registers itself on the CLI11 app here.
// Callbacks signal bad input by throwing shapevm::InputError (exit code 2) and set `exit_code`
// for other outcomes (1 = differences found). No command names an engine: each reaches the
// engines through the registry (interp/common/registry.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "interp/common/engine.h"

namespace shapevm::tools {

// Exit codes (DESIGN.md, "Contracts"; docs/architecture.md).
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitDifferences = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternalError = 3;

struct CommandContext {
  int exit_code = kExitSuccess;
};

// The shapevm program: parses `argv`, runs the command, returns the exit code. main() is this;
// tests call it in-process too.
int run_shapevm(int argc, const char* const* argv);

// Inside a catch block: prints the error being handled as shapevm reports errors and returns the
// exit code it means: 2 for bad input and the environment (InputError, the file system, stdout),
// 3 for anything else (a bug in shapevm).
int report_current_exception();

// Prints "shapevm: error: SOURCE: the run stopped at offset 0x..: REASON" (naming the option that
// raises the budget when REASON is one) and sets exit code 2 when `outcome` is not clean.
void report_outcome(const std::string& source, const RunOutcome& outcome, CommandContext& ctx);

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
void register_check_command(CLI::App& app, CommandContext& ctx);     // cmd_check.cpp

// Regression runs (docs/regress.md).
void register_compare_command(CLI::App& app, CommandContext& ctx);     // cmd_compare.cpp
void register_regress_command(CLI::App& app, CommandContext& ctx);     // cmd_regress.cpp
void register_trace_diff_command(CLI::App& app, CommandContext& ctx);  // cmd_trace_diff.cpp
void register_debug_command(CLI::App& app, CommandContext& ctx);       // cmd_debug.cpp
void register_dap_command(CLI::App& app, CommandContext& ctx);         // cmd_dap.cpp

// Messages (cmd_help.cpp).
void register_help_command(CLI::App& app, CommandContext& ctx);
std::vector<std::string> command_names(const CLI::App& app);
// `unknown command "rendr" (did you mean render?); ...`
std::string unknown_command_message(const CLI::App& app, const std::string& given);

}  // namespace shapevm::tools
