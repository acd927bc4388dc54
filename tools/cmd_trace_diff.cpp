// shapevm trace-diff OURS THEIRS: the first place two execution traces part, with context.
#include <fmt/format.h>

#include "harness/trace_diff.h"
#include "tools/command.h"

namespace shapevm::tools {

void register_trace_diff_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string ours, theirs;
    size_t context = 3;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "trace-diff",
      "Compare our execution trace (JSON Lines from `shapevm trace`) with a reference trace: our "
      "JSON\n"
      "Lines, or plain `offset handler` lines (offset hex 0x1A2/1A2h or decimal; handler an "
      "address or a\n"
      "name) as a trace of the original engine gives, after GLOBAL=VALUE lines for the start "
      "state.\n"
      "A global may be named by its name or its address in the original (0x515EEE = _detail).\n"
      "Against a plain trace only opcodes are compared. Reports differing start globals and the "
      "first\n"
      "divergent event, naming the field that differs, with context. Exit 0 same, 1 diverged, 2 "
      "bad input.");
  cmd->add_option("ours", o->ours, "Our trace")->required();
  cmd->add_option("theirs", o->theirs, "The reference trace")->required();
  cmd->add_option("--context", o->context, "Events shown before and after the divergence")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->callback([o, &ctx] {
    const harness::Trace ours = harness::read_trace(o->ours);
    const harness::Trace theirs = harness::read_trace(o->theirs);
    const harness::TraceDivergence d = harness::diff_traces(ours, theirs, o->context);
    fmt::print("{}", d.report);
    if (d.diverged) ctx.exit_code = 1;
  });
}

}  // namespace shapevm::tools
