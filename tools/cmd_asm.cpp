// shapevm asm IN -o OUT: an engine's assembler text (recognised by its content) written as the
// engine's files (FA: a .SH; Apache: 3DOBJS.BIN with OBJTEXT.BIN and 3DPAL.RGB beside it).
#include <fmt/format.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/common/registry.h"
#include "tools/command.h"

namespace shapevm::tools {

void register_asm_command(CLI::App& app, CommandContext&) {
  struct Options {
    std::string input;
    std::string output;
    std::string engine;
    bool force = false;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "asm",
      "Assemble an engine's text (the language `shapevm disasm` prints; the engine is recognised\n"
      "by the text's content). FA (docs/fa-asm.md): a Phar Lap PE .SH with CODE, .idata, .reloc\n"
      "and trampolines laid out as the shipped shapes have them. Apache: 3DOBJS.BIN, with\n"
      "OBJTEXT.BIN and 3DPAL.RGB written beside it.");
  cmd->add_option("input", opts->input, "The assembler text")->required();
  cmd->add_option("-o,--output", opts->output, "The file to write (others go beside it)")
      ->required();
  cmd->add_option("--engine", opts->engine, "Force the engine (default: recognised by content)");
  cmd->add_flag("--force", opts->force, "Overwrite the output files if they exist");
  cmd->callback([opts] {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(opts->output, ec) && fs::exists(opts->input, ec) &&
        fs::equivalent(opts->input, opts->output, ec)) {
      throw InputError(opts->output, "the output would overwrite the input");
    }
    const auto bytes = read_file(opts->input);
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const Engine& engine = engine_for_text(text, opts->input, opts->engine);
    const std::vector<OutputFile> files =
        engine.assemble(text, opts->input, fs::path(opts->output).filename().string());
    // The first file is the one -o names; the rest go beside it. Refuse before writing any.
    std::vector<fs::path> paths;
    for (size_t i = 0; i < files.size(); ++i)
      paths.push_back(i == 0 ? fs::path(opts->output)
                             : fs::path(opts->output).parent_path() / files[i].name);
    if (!opts->force) {
      for (const auto& p : paths)
        if (fs::exists(p, ec))
          throw InputError(p.string(), "already exists (pass --force to replace it)");
    }
    const Overwrite overwrite = opts->force ? Overwrite::kAllow : Overwrite::kRefuse;
    for (size_t i = 0; i < files.size(); ++i)
      write_file_atomic(paths[i], files[i].bytes, overwrite);
  });
}

}  // namespace shapevm::tools
