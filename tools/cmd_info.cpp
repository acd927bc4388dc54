// shapevm info FILE...: what a program is (header, counts, branches, inputs), in the engine's own
// terms; text or JSON.
#include <fmt/format.h>

#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tools/command.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_info_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::vector<std::string> files;
    std::string engine;
    bool json = false;
    StateOptions state;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Describe programs of any engine (files or CONTAINER:MEMBER), recognised by content: FA\n"
      "shapes (header, instruction counts by opcode, vertex buffers, faces, textures, frame\n"
      "tables, LOD/detail sites, damage branches, x86 blocks, imports), Apache archives and\n"
      "records. With several files and --json, prints one JSON object per line. Exit 2 if a\n"
      "program is malformed.");
  cmd->add_option("files", opts->files,
                  "Files, or CONTAINER:MEMBER (FA_2.LIB:A10.SH, "
                  "3DOBJS.BIN:#17, 3DOBJS.BIN:NAME)")
      ->required();
  cmd->add_option("--engine", opts->engine, "Force the engine (default: recognised by content)");
  cmd->add_flag("--json", opts->json, "Print JSON");
  add_objend_option(cmd, opts->state.objend,
                    "FA: how PtrToObjEnd's operand is read (absolute or relative)");
  cmd->callback([opts, &ctx] {
    const bool several = opts->files.size() > 1;
    for (const auto& file : opts->files) {
      OpenOptions open;
      open.state = state_request(opts->state, 640, 480);
      auto program = open_program(file, open, opts->engine);
      validate_state(*program, open.state);
      if (opts->json) {
        fmt::print("{}\n", dump_json(program->info_json(), several ? -1 : 1));
      } else {
        fmt::print("{}{}", program->info_text(), several ? "\n" : "");
      }
      if (!program->static_errors().empty()) ctx.exit_code = kExitBadInput;
    }
  });
}

}  // namespace shapevm::tools
