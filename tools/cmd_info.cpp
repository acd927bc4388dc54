// shapevm info FILE...: what a program is (header, counts, branches, inputs), in the engine's own
// terms; text or JSON.
#include <fmt/format.h>

#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_info_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
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
      "program is malformed (with several, the others are still described).");
  add_inputs_options(
      cmd, opts->inputs,
      "Files, or CONTAINER:MEMBER (FA_2.LIB:A10.SH, 3DOBJS.BIN:#17, 3DOBJS.BIN:NAME)");
  cmd->add_flag("--json", opts->json, "Print JSON");
  add_objend_option(cmd, opts->state.objend,
                    "FA: how PtrToObjEnd's operand is read (absolute or relative)");
  cmd->callback([opts, &ctx] {
    const bool several = is_batch(opts->inputs.files);
    run_each_input(opts->inputs.files, opts->inputs.engine, {}, false, opts->inputs.jobs, ctx,
                   [&](const std::string& spec, const std::string&, CommandContext& status) {
                     OpenOptions open;
                     open.state = state_request(opts->state, 640, 480);
                     auto program = open_program(spec, open, opts->inputs.engine);
                     validate_state(*program, open.state);
                     if (opts->json) {
                       console_out("{}\n", dump_json(program->info_json(), several ? -1 : 1));
                     } else {
                       console_out("{}{}", program->info_text(), several ? "\n" : "");
                     }
                     if (!program->static_errors().empty()) status.exit_code = kExitBadInput;
                   });
  });
}

}  // namespace shapevm::tools
