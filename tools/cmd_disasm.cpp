// shapevm disasm FILE: a program's listing in the engine's assembler text (FA: offsets, raw bytes,
// mnemonics, operands, labels, handler names, x86 via Capstone; it assembles back to the same
// file), or JSON.
#include <fmt/format.h>

#include <cstdio>

#include "core/file_io.h"
#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tools/command.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_disasm_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputOptions input;
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
  add_input_options(cmd, opts->input,
                    "The program: a file or CONTAINER:MEMBER (FA_2.LIB:A10.SH, 3DOBJS.BIN:#17)");
  cmd->add_flag("--json", opts->json, "Print the listing as JSON");
  cmd->add_option("-o,--output", opts->output, "Write the listing to this file instead of stdout");
  cmd->add_flag("--force", opts->force, "Overwrite the output file if it exists");
  add_objend_option(cmd, opts->state.objend,
                    "FA: how PtrToObjEnd's operand is read (absolute or relative)");
  cmd->callback([opts, &ctx] {
    OpenOptions open;
    open.state = state_request(opts->state, 640, 480);
    auto program = open_program(opts->input.file, open, opts->input.engine);
    validate_state(*program, open.state);
    const std::string text =
        opts->json ? dump_json(program->listing_json(), 1) + "\n" : program->listing_text();
    if (opts->output.empty()) {
      fmt::print("{}", text);
    } else {
      write_text_atomic(opts->output, text, opts->force ? Overwrite::kAllow : Overwrite::kRefuse);
    }
    for (const auto& error : program->static_errors()) {
      std::fflush(stdout);
      fmt::print(stderr, "shapevm: error: {}\n", error);
      ctx.exit_code = kExitBadInput;
    }
  });
}

}  // namespace shapevm::tools
