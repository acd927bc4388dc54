// shapevm dap: a Debug Adapter Protocol server on stdio (harness/dap_server.h) for FA shapes.
// The launch request names the shape ("program") and its state ("args": the state options of
// every run command, e.g. ["--frame", "2", "--set", "_PLgearDown=1"]); docs/debugging.md.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "harness/dap_server.h"
#include "tools/command.h"
#include "tools/fa_debug_engine.h"
#include "tools/fa_shape_loader.h"
#include "tools/render_fa.h"

namespace shapevm::tools {

namespace {

std::unique_ptr<harness::DebugEngine> make_fa_engine(const nlohmann::json& launch) {
  FaDebugOptions options;
  if (!launch.contains("program") || !launch["program"].is_string())
    throw std::invalid_argument("launch needs \"program\": the .SH file or LIB:MEMBER");
  options.file = launch["program"].get<std::string>();
  options.palette = launch.value("palette", "");
  options.textures = launch.value("textures", "");
  std::tie(options.width, options.height) = parse_size(launch.value("size", "640x480"));
  // The state options, parsed exactly as the command line parses them.
  CLI::App parser{"launch arguments"};
  add_run_options(&parser, options.run);
  add_objend_option(&parser, options.walk);
  std::vector<std::string> args = launch.value("args", std::vector<std::string>{});
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector last-first
  try {
    parser.parse(args);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(fmt::format("launch \"args\": {}", e.what()));
  }
  return std::make_unique<FaDebugEngine>(std::move(options));
}

}  // namespace

void register_dap_command(CLI::App& app, CommandContext& ctx) {
  CLI::App* cmd = app.add_subcommand(
      "dap",
      "Serve the Debug Adapter Protocol on stdin/stdout so an editor can debug FA shapes: launch\n"
      "with {\"program\": FILE, \"args\": [state options]}; breakpoints on lines of the listing,\n"
      "stepping forwards and backwards, stack, scopes, disassembly (docs/debugging.md).\n"
      "Exit 2 if the stream was malformed.");
  cmd->callback([&ctx] {
    std::ios::sync_with_stdio(false);
    harness::DapServer server(make_fa_engine, std::cin, std::cout);
    try {
      server.serve();
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "shapevm dap: {}\n", e.what());
      ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
