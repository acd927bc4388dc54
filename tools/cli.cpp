// The shapevm program: wires the subcommands together and owns the exit-code contract: 0 success,
// 1 differences found, 2 bad input or usage, 3 an internal error (a bug in shapevm, never a
// malformed file).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <ios>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include "core/input_error.h"
#include "interp/common/budget_option.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/standard_streams.h"

namespace shapevm::tools {

void report_outcome(const std::string& source, const RunOutcome& outcome, CommandContext& ctx) {
  if (outcome.clean) return;
  const std::string_view option = budget_option(outcome.reason);
  console_err("shapevm: error: {}: the run stopped at offset 0x{:x}: {}{}{}{}\n", source,
              outcome.end_offset, outcome.reason, option.empty() ? "" : " (", option,
              option.empty() ? "" : " raises it)");
  ctx.exit_code = kExitBadInput;
}

namespace {

// CLI11's parse errors in the program's own voice: "shapevm: error: ...", then where the options
// are described (the command that was being parsed, if any).
std::string failure_message(const CLI::App* app, const CLI::Error& e) {
  std::string command = "shapevm";
  for (const CLI::App* sub : app->get_subcommands()) command += " " + sub->get_name();
  return fmt::format("shapevm: error: {}\nRun \"{} --help\" for the options.\n", e.what(), command);
}

// The first word that is not an option, when it names no command: CLI11 would call it an
// unexpected argument; the user mistyped a command.
std::optional<std::string> unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    const auto names = command_names(app);
    if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
    return word;
  }
  return std::nullopt;
}

struct CommandEntry {
  std::string_view name;
  void (*add)(CLI::App&, CommandContext&);
};

// Every command, in the order `--help` lists them.
constexpr CommandEntry kCommands[] = {
    {"lib", register_lib_command},
    {"disasm", register_disasm_command},
    {"info", register_info_command},
    {"asm", register_asm_command},
    {"gen", register_gen_command},
    {"examples", register_examples_command},
    {"trace", register_trace_command},
    {"render", register_render_command},
    {"export", register_export_command},
    {"variants", register_variants_command},
    {"view", register_view_command},
    {"check", register_check_command},
    {"compare", register_compare_command},
    {"regress", register_regress_command},
    {"trace-diff", register_trace_diff_command},
    {"debug", register_debug_command},
    {"dap", register_dap_command},
    {"help", register_help_command},
};

// The commands this invocation needs set up. Building every command's options and help is a
// good part of a start-up (shell loops over a corpus pay it once per file), and only one command
// runs: the one the first word names. Everything is set up when something may list the commands:
// `--help`, `help`, or a first word that names no command (answered with the closest names).
// Without any word (`--version`, or nothing: "a command is required"), none is needed.
std::span<const CommandEntry> commands_to_register(int argc, const char* const* argv) {
  const std::span<const CommandEntry> all(kCommands);
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--help" || word == "-h") return all;
    if (word.empty() || word[0] == '-') continue;
    for (size_t c = 0; c < all.size(); ++c)
      if (all[c].name == word && word != "help") return all.subspan(c, 1);
    return all;
  }
  return {};
}

}  // namespace

int report_current_exception() {
  try {
    throw;
  } catch (const InputError& e) {
    console_err("shapevm: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    // The file system refused (permissions, a full disk): the user's environment, not a bug.
    console_err("shapevm: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::system_error& e) {
    // fmt::print could not write to stdout (a full disk, a closed pipe): the same. Printed to
    // the process's stderr without flushing stdout again (console_err would).
    const std::string message = fmt::format("shapevm: error: stdout: {}\n", e.what());
    if (current_transcript() != nullptr)
      console_write(ConsoleStream::kErr, message);
    else
      std::fputs(message.c_str(), stderr);
    return kExitBadInput;
  } catch (const std::exception& e) {
    console_err("shapevm: internal error (a bug in shapevm, please report it): {}\n", e.what());
    return kExitInternalError;
  }
}

int run_shapevm(int argc, const char* const* argv) {
  constexpr std::string_view kVersion = "shapevm 0.1.0";
  // `--version` alone is answered before a parser is built: CLI11 answers it by throwing, and a
  // process's first exception reads the program's unwind tables, about 0.2 ms of a 3 ms start.
  // With anything beside it, CLI11 answers (or refuses) as for any other flag.
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    console_out("{}\n", kVersion);
    return 0;
  }
  CLI::App app{
      "shapevm: run, trace, debug and compare the shape programs of Fighters Anthology, Apache,\n"
      "Starlancer and Battle Isle 2 the way the original engines did.\n"
      "Exit codes: 0 success, 1 a comparison found differences, 2 bad input or usage,\n"
      "3 an internal error (a bug in shapevm: please report it)."};
  app.name("shapevm");  // not argv[0]'s path: usage lines and messages say "shapevm"
  app.require_subcommand(1);
  app.failure_message(failure_message);
  app.set_version_flag("--version", std::string(kVersion));
  CommandContext ctx;
  for (const CommandEntry& command : commands_to_register(argc, argv)) command.add(app, ctx);
  if (const auto word = unknown_command(app, argc, argv)) {
    fmt::print(stderr, "shapevm: error: {}\n", unknown_command_message(app, *word));
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    use_standard_streams();  // CLI11 writes help and version text to std::cout
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    use_standard_streams();  // and what it refused, with the usage, to std::cerr
    app.exit(e);
    return kExitBadInput;
  } catch (...) {
    return report_current_exception();
  }
  // What went to stdout must have arrived: a write that failed (a full disk) is an error, not a
  // success with the output cut short.
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    const int error = errno;
    fmt::print(stderr, "shapevm: error: stdout: write failed{}{}\n", error != 0 ? ": " : "",
               error != 0 ? std::strerror(error) : "");
    return kExitBadInput;
  }
  return ctx.exit_code;
}

}  // namespace shapevm::tools
