// shapevm trace FILE... [state]: every event of one run as JSON Lines (docs/trace.md). A trace
// file is replaced when it exists, one input's or a batch's.
#include <fmt/format.h>

#include "harness/trace_writer.h"
#include "interp/common/json_text.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/state_options.h"
#include "tools/trace_output.h"

namespace shapevm::tools {

void register_trace_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
    FrameOptions frame;
    std::string output;
    bool no_ops = false;
    StateOptions state;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "trace",
      "Run a program of any engine for one state and write every event as JSON Lines: each\n"
      "opcode (offset, number, mnemonic, handler, call depth), branches, calls and returns,\n"
      "vertices, faces, x86 entry/exit, diagnostics and the end (docs/trace.md). Exit 2 if the\n"
      "run stopped on an error.");
  add_inputs_options(cmd, o->inputs, "The program: a file or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output,
                  batch_output_help("Write the trace to this file (default: stdout)"));
  cmd->add_flag("--no-ops", o->no_ops, "Leave out the per-opcode lines");
  add_frame_options(cmd, o->frame, false);
  add_state_options(cmd, o->state);
  cmd->callback([o, &ctx] {
    auto [width, height] = parse_size(o->frame.size);
    run_each_input(o->inputs.files, o->inputs.engine, {o->output, ".jsonl", /*force=*/true}, false,
                   o->inputs.jobs, ctx,
                   [&](const std::string& spec, const std::string& output, CommandContext& status) {
                     OpenedProgram p =
                         open_for_run(o->inputs.one(spec), o->frame, o->state, width, height);
                     const std::string state_json =
                         dump_json(p.program->state_json(p.state), -1, /*ascii=*/true);
                     RunOutcome r;
                     write_trace_output(output, [&](std::FILE* out) {
                       harness::TraceWriter writer(out, !o->no_ops, p.state.limits);
                       writer.start(p.program->engine(), p.program->source(), state_json);
                       r = p.program->run(p.state, writer);
                     });
                     // The trace's last line says why a run stopped; stderr says it too, where a
                     // person looks, whether the trace went to a file or to stdout (as render
                     // does).
                     report_outcome(p.program->source(), r, status);
                   });
  });
}

}  // namespace shapevm::tools
