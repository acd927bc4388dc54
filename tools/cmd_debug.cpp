// shapevm debug FILE [state]: the debugger's command line (harness/debug_repl.h) on an FA shape.
#include <unistd.h>

#include <fstream>
#include <iostream>

#include "harness/debug_repl.h"
#include "interp/common/input_error.h"
#include "tools/command.h"
#include "tools/fa_debug_engine.h"
#include "tools/fa_shape_loader.h"
#include "tools/render_fa.h"

namespace shapevm::tools {

void register_debug_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    FaDebugOptions engine;
    std::string batch;
    std::string size = "640x480";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "debug",
      "Step through an FA shape: breakpoints (offset, mnemonic, face, x86 entry, diagnostic,\n"
      "conditional), watchpoints, step/next/finish/continue and exact reverse stepping, x86\n"
      "single-stepping, call stack, pool, listing and the partial frame as PNG. gdb-like\n"
      "commands (type help). Commands come from --batch FILE, from stdin when it is not a\n"
      "terminal, or interactively. Exit 2 if a batch command failed.");
  cmd->add_option("file", o->engine.file, "The .SH file, or LIB:MEMBER")->required();
  cmd->add_option("--batch", o->batch, "Read the commands from this file");
  cmd->add_option("--palette", o->engine.palette,
                  "FA PALETTE.PAL for png (file or LIB:MEMBER); default: built-in palette");
  cmd->add_option("--textures", o->engine.textures, "Directory or .LIB holding the PIC textures");
  cmd->add_option("--size", o->size, "WIDTHxHEIGHT of png frames")->capture_default_str();
  add_run_options(cmd, o->engine.run);
  add_objend_option(cmd, o->engine.walk);
  cmd->callback([o, &ctx] {
    std::tie(o->engine.width, o->engine.height) = parse_size(o->size);
    FaDebugEngine engine(o->engine);
    harness::Debugger debugger(engine);
    harness::DebugRepl repl(debugger, std::cout);
    repl.start();
    if (!o->batch.empty()) {
      std::ifstream in(o->batch);
      if (!in) throw InputError(o->batch, "cannot read the command file");
      repl.run(in, false);
    } else {
      repl.run(std::cin, isatty(STDIN_FILENO) != 0);
    }
    if (repl.errors() > 0) ctx.exit_code = 2;
  });
}

}  // namespace shapevm::tools
