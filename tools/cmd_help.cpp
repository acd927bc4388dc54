// shapevm help [COMMAND]: the list of commands, or one command's options (the same text as
// `shapevm COMMAND --help`), for users who type the command name first.
#include <fmt/format.h>

#include "core/input_error.h"
#include "interp/common/state.h"
#include "tools/command.h"

namespace shapevm::tools {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string unknown_command_message(const CLI::App& app, const std::string& given) {
  const auto near = closest_names(given, command_names(app), 1);
  return fmt::format("unknown command \"{}\"{}; \"shapevm help\" lists the commands", given,
                     near.empty() ? std::string() : fmt::format(" (did you mean {}?)", near[0]));
}

void register_help_command(CLI::App& app, CommandContext&) {
  auto command = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "help", "Print the list of commands, or with COMMAND that command's options");
  cmd->add_option("command", *command, "The command to describe");
  cmd->callback([command, &app] {
    if (command->empty()) {
      // app.help() would describe the command being run (this one): format the program's own.
      fmt::print("{}", app.get_formatter()->make_help(&app, "shapevm", CLI::AppFormatMode::Normal));
      return;
    }
    const CLI::App& all = app;
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : all.get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == *command) sub = s;
    if (sub == nullptr) throw InputError("help", unknown_command_message(app, *command));
    fmt::print("{}", sub->help("shapevm"));
  });
}

}  // namespace shapevm::tools
