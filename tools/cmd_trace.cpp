// shapevm trace FILE [state]: JSON Lines of every event of one run (docs/trace.md).
#include <fmt/format.h>

#include <cstdio>

#include "harness/trace_writer.h"
#include "interp/apache/archive_input.h"
#include "interp/common/input_error.h"
#include "interp/fa/interpreter.h"
#include "tools/apache_commands.h"
#include "tools/command.h"
#include "tools/fa_shape_loader.h"
#include "tools/run_options.h"

namespace shapevm::tools {

void register_trace_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string file;
    std::string output;
    bool no_ops = false;
    bool switch_dispatch = false;
    RunOptions run;
    fa::WalkOptions walk;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "trace",
      "Run an FA shape for one state and write every event as JSON Lines: executed opcodes "
      "(offset,\n"
      "opcode, mnemonic, handler address, call depth), branches (taken or not, where to), calls "
      "and\n"
      "returns, vertex buffers, drawn faces in draw order, diagnostics, and a final end line.\n"
      "Exit 2 if the run stopped on an error (bad opcode, budget).");
  cmd->add_option("file", o->file,
                  "The .SH file or LIB:MEMBER (FA), or 3DOBJS.BIN:#N / 3DOBJS.BIN:NAME (Apache)")
      ->required();
  cmd->add_option("-o,--output", o->output, "Write the trace to this file (default: stdout)");
  cmd->add_flag("--no-ops", o->no_ops, "Leave out the per-opcode lines");
  cmd->add_flag("--switch-dispatch", o->switch_dispatch,
                "Use the switch interpreter instead of threaded code");
  add_run_options(cmd, o->run);
  add_objend_option(cmd, o->walk);
  cmd->callback([o, &ctx] {
    if (apache::is_apache_spec(o->file))
      return apache_trace(o->file, o->output, o->no_ops, o->run, ctx);
    fa::Shape shape = load_fa_shape(o->file);
    fa::RunState state = fa_run_state(o->run, 480);
    fa::Interpreter interp(shape, o->walk);
    // With -o the trace goes to a temporary file renamed into place only when the run finished,
    // so a failed run never leaves a half-written trace under the requested name.
    std::FILE* out = stdout;
    std::string tmp;
    if (!o->output.empty()) {
      tmp = o->output + ".tmp";
      out = std::fopen(tmp.c_str(), "wb");
      if (!out) throw InputError(o->output, "cannot create the trace file");
    }
    fa::RunResult r;
    try {
      harness::TraceWriter writer(out, !o->no_ops);
      writer.start("fa", shape.source(), run_state_json(state).dump());
      r = interp.run(state, writer,
                     o->switch_dispatch ? fa::Dispatch::kSwitch : fa::Dispatch::kThreaded);
    } catch (...) {
      if (out != stdout) {
        std::fclose(out);
        std::filesystem::remove(tmp);
      }
      throw;
    }
    if (out != stdout) {
      std::fclose(out);
      std::filesystem::rename(tmp, o->output);
    }
    if (!r.clean) ctx.exit_code = 2;
  });
}

}  // namespace shapevm::tools
