// shapevm dap: a Debug Adapter Protocol server on stdio (harness/dap_server.h) for programs of
// any engine. The launch request names the program ("program", a file or CONTAINER:MEMBER; an
// optional "engine") and its state ("args": the state options of every run command, e.g.
// ["--frame", "2", "--set", "_PLgearDown=1"]); docs/debugging.md.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "harness/dap_server.h"
#include "harness/program_debug_engine.h"
#include "tools/command.h"
#include "tools/standard_streams.h"
#include "tools/state_options.h"

namespace shapevm::tools {

namespace {

std::unique_ptr<harness::DebugEngine> make_engine(const nlohmann::json& launch) {
  if (!launch.contains("program") || !launch["program"].is_string())
    throw std::invalid_argument("launch needs \"program\": a file or CONTAINER:MEMBER");
  InputOptions input;
  input.file = launch["program"].get<std::string>();
  input.engine = launch.value("engine", "");
  FrameOptions frame;
  frame.palette = launch.value("palette", "");
  frame.textures = launch.value("textures", "");
  auto [width, height] = parse_size(launch.value("size", default_frame_size()));
  // The state options, parsed exactly as the command line parses them.
  StateOptions state;
  CLI::App parser{"launch arguments"};
  add_state_options(&parser, state);
  std::vector<std::string> args = launch.value("args", std::vector<std::string>{});
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector last-first
  try {
    parser.parse(args);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(fmt::format("launch \"args\": {}", e.what()));
  }
  OpenedProgram p = open_for_run(input, frame, state, width, height);
  return std::make_unique<harness::ProgramDebugEngine>(std::move(p.program), std::move(p.state));
}

}  // namespace

void register_dap_command(CLI::App& app, CommandContext& ctx) {
  CLI::App* cmd = app.add_subcommand(
      "dap",
      "Serve the Debug Adapter Protocol on stdin/stdout so an editor can debug programs of any\n"
      "engine: launch with {\"program\": FILE, \"args\": [state options]}; breakpoints on lines\n"
      "of the listing, stepping forwards and backwards, stack, scopes, disassembly\n"
      "(docs/debugging.md). Exit 2 if the stream was malformed.");
  cmd->callback([&ctx] {
    use_standard_streams();
    std::ios::sync_with_stdio(false);
    harness::DapServer server(make_engine, std::cin, std::cout);
    try {
      server.serve();
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "shapevm dap: {}\n", e.what());
      ctx.exit_code = kExitBadInput;
    }
  });
}

}  // namespace shapevm::tools
