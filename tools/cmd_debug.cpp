// shapevm debug FILE [state]: the debugger's command line (harness/debug_repl.h) on a program of
// any engine.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "core/input_error.h"
#include "harness/debug_repl.h"
#include "harness/edit_line_reader.h"
#include "harness/program_debug_engine.h"
#include "tools/command.h"
#include "tools/standard_streams.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_debug_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputOptions input;
    FrameOptions frame;
    std::string batch;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "debug",
      "Step through a program of any engine: breakpoints (offset, mnemonic, face, native code\n"
      "entry, diagnostic, conditional), watchpoints, step/next/finish/continue and exact reverse\n"
      "stepping, native (x86) single-stepping, call stack, the engine's memory, listing and the\n"
      "partial frame as PNG. gdb-like commands (type help). Commands come from --batch FILE,\n"
      "from stdin when it is not a terminal, or interactively (line editing and history, Enter\n"
      "repeats, Ctrl-C stops a move). Exit 2 if a command of a script (--batch or a pipe) failed.");
  add_input_options(cmd, o->input, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("--batch", o->batch, "Read the commands from this file");
  add_frame_options(cmd, o->frame, false);
  add_state_options(cmd, o->state);
  cmd->callback([o, &ctx] {
    use_standard_streams();
    auto [width, height] = parse_size(o->frame.size);
    OpenedProgram p = open_for_run(o->input, o->frame, o->state, width, height);
    harness::ProgramDebugEngine engine(std::move(p.program), std::move(p.state));
    harness::Debugger debugger(engine);
    harness::DebugRepl repl(debugger, std::cout);
    if (!o->batch.empty()) {
      std::ifstream in(o->batch);
      if (!in) throw InputError(o->batch, "cannot read the command file");
      repl.start();
      repl.run(in, false);
    } else if (isatty(STDIN_FILENO) == 0) {
      repl.start();
      repl.run(std::cin, false);  // a pipe: a script, as --batch
    } else {
      // A person at a terminal: Ctrl-C stops the running move instead of the session, and a
      // command that failed (and said so) does not make the session fail.
      harness::SigintFlag sigint;
      debugger.set_interrupt_flag(sigint.flag());
      repl.start();
      std::unique_ptr<harness::LineReader> reader;
      try {
        reader = std::make_unique<harness::EditLineReader>("shapevm", stdin, stdout, stderr,
                                                           sigint.flag());
      } catch (const std::runtime_error& e) {
        std::cerr << "note: no line editing (" << e.what() << ")\n";
        reader = std::make_unique<harness::StreamLineReader>(std::cin, std::cout, true);
      }
      repl.run(*reader, &sigint);
      debugger.set_interrupt_flag(nullptr);
      return;
    }
    if (repl.errors() > 0) ctx.exit_code = kExitBadInput;
  });
}

}  // namespace shapevm::tools
