// shapevm disasm FILE: a program's listing in the engine's assembler text (FA: offsets, raw bytes,
// mnemonics, operands, labels, handler names, x86 via Capstone; it assembles back to the same
// file), or JSON.
#include <fmt/format.h>

#include <cstdio>

#include "core/file_io.h"
#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_disasm_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
    bool json = false;
    std::string output;
    bool force = false;
    StateOptions state;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "disasm",
      "Disassemble a program of any engine (file or CONTAINER:MEMBER). FA: offsets\n"
      "(CODE-relative, header at 0), raw bytes, mnemonics, decoded operands, labels for every\n"
      "target, handler names and x86 regions disassembled inline; the listing re-assembles with\n"
      "`shapevm asm` to the identical file. Apache: a record's drawing program.\n"
      "Exit 2 if the file is malformed (the listing is still printed, with the errors).");
  add_inputs_options(cmd, opts->inputs,
                     "The program: a file or CONTAINER:MEMBER (FA_2.LIB:A10.SH, 3DOBJS.BIN:#17)");
  cmd->add_flag("--json", opts->json, "Print the listing as JSON");
  cmd->add_option("-o,--output", opts->output,
                  batch_output_help("Write the listing to this file instead of stdout (.txt, or "
                                    ".json with --json, in a folder)"));
  cmd->add_flag("--force", opts->force, "Overwrite the output file if it exists");
  add_objend_option(cmd, opts->state.objend,
                    "FA: how PtrToObjEnd's operand is read (absolute or relative)");
  cmd->callback([opts, &ctx] {
    run_each_input(
        opts->inputs.files, opts->inputs.engine,
        {opts->output, opts->json ? ".json" : ".txt", opts->force}, false, opts->inputs.jobs, ctx,
        [&](const std::string& spec, const std::string& output, CommandContext& status) {
          OpenOptions open;
          open.state = state_request(opts->state, 640, 480);
          auto program = open_program(spec, open, opts->inputs.engine);
          validate_state(*program, open.state);
          const std::string text =
              opts->json ? dump_json(program->listing_json(), 1) + "\n" : program->listing_text();
          if (output.empty()) {
            console_out("{}", text);
          } else {
            write_text_atomic(output, text, opts->force ? Overwrite::kAllow : Overwrite::kRefuse);
          }
          for (const auto& error : program->static_errors()) {
            console_err("shapevm: error: {}\n", error);
            status.exit_code = kExitBadInput;
          }
        });
  });
}

}  // namespace shapevm::tools
