// shapevm asm IN -o OUT.SH: the FA assembler (docs/fa-asm.md).
#include <fmt/format.h>

#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "tools/apache_commands.h"
#include "tools/asm/fa_assembler.h"
#include "tools/command.h"

namespace shapevm::tools {

void register_asm_command(CLI::App& app, CommandContext&) {
  struct Options {
    std::string input;
    std::string output;
    bool force = false;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "asm",
      "Assemble FA shape text (the language `shapevm disasm` prints; docs/fa-asm.md) into a Phar "
      "Lap\n"
      "PE .SH with CODE, .idata, .reloc and trampolines laid out as the shipped shapes have them.");
  cmd->add_option("input", opts->input,
                  "The assembler text: .fas (FA) or .apa (Apache: writes 3DOBJS.BIN, OBJTEXT.BIN, "
                  "3DPAL.RGB)")
      ->required();
  cmd->add_option("-o,--output", opts->output, "The .SH file to write")->required();
  cmd->add_flag("--force", opts->force, "Overwrite the output file if it exists");
  cmd->callback([opts] {
    if (std::filesystem::exists(opts->output) && std::filesystem::exists(opts->input) &&
        std::filesystem::equivalent(opts->input, opts->output)) {
      throw InputError(opts->output, "the output would overwrite the input");
    }
    if (std::filesystem::path(opts->input).extension() == ".apa")
      return apache_asm(opts->input, opts->output, opts->force);
    auto bytes = read_file(opts->input);
    std::string text(bytes.begin(), bytes.end());
    AssembledShape shape = assemble_fa(text, opts->input);
    write_file_atomic(opts->output, shape.file,
                      opts->force ? Overwrite::kAllow : Overwrite::kRefuse);
  });
}

}  // namespace shapevm::tools
