// shapevm disasm FILE: the FA listing, which is also assembler input (docs/fa-asm.md).
#include <fmt/format.h>

#include "interp/apache/archive_input.h"
#include "interp/common/file_io.h"
#include "interp/fa/listing.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"

namespace shapevm::tools {

void register_disasm_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string file;
    std::string output;
    bool json = false;
    bool force = false;
    fa::WalkOptions walk;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "disasm",
      "Disassemble an FA .SH shape (file or LIB:MEMBER): offsets (CODE-relative, header at 0), "
      "raw\n"
      "bytes, mnemonics, decoded operands, labels for every target, handler names, and x86 "
      "regions\n"
      "disassembled inline. The listing re-assembles with `shapevm asm` to the identical file.\n"
      "Exit 2 if the file is malformed (the listing is still printed, with the errors).");
  cmd->add_option("file", opts->file,
                  "The .SH file or LIB:MEMBER (FA), or 3DOBJS.BIN:#N / 3DOBJS.BIN:NAME (Apache)")
      ->required();
  cmd->add_flag("--json", opts->json, "Print the listing as JSON");
  cmd->add_option("-o,--output", opts->output, "Write the listing to this file instead of stdout");
  cmd->add_flag("--force", opts->force, "Overwrite the output file if it exists");
  add_objend_option(cmd, opts->walk);
  cmd->callback([opts, &ctx] {
    if (apache::is_apache_spec(opts->file))
      return apache_disasm(opts->file, opts->output, opts->force);
    fa::Shape shape = load_fa_shape(opts->file);
    fa::WalkResult walk = fa::walk_shape(shape, opts->walk);
    fa::Listing listing = fa::make_listing(shape, walk, opts->json);
    std::string text = opts->json ? fa::render_listing_json(shape, listing).dump(1) + "\n"
                                  : fa::render_listing_text(shape, listing);
    if (opts->output.empty()) {
      fmt::print("{}", text);
    } else {
      write_text_atomic(opts->output, text, opts->force ? Overwrite::kAllow : Overwrite::kRefuse);
    }
    for (const auto& d : walk.diagnostics) {
      if (d.level != fa::WalkDiagnostic::Level::kError) continue;
      std::fflush(stdout);
      fmt::print(stderr, "shapevm: error: {}: offset 0x{:x} (CODE offset 0x{:x}): {}\n",
                 shape.source(), shape.file_offset(d.offset), d.offset, d.message);
      ctx.exit_code = 2;
    }
  });
}

}  // namespace shapevm::tools
