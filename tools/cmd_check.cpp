// shapevm check FILE... [-o OUT]: validate a file of any engine that has a writer, write it again
// with that writer and compare: exit 0 when the rewrite is byte-identical, 1 when it differs (the
// first differing offset and what differs), 2 on bad input.
#include <fmt/format.h>

#include <algorithm>

#include "core/file_io.h"
#include "interp/common/registry.h"
#include "tools/batch.h"
#include "tools/command.h"
#include "tools/console.h"
#include "tools/state_options.h"

namespace shapevm::tools {

void register_check_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    InputsOptions inputs;
    std::string output;
    bool force = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Validate a file (or CONTAINER:MEMBER) of any engine that has a writer, write it again\n"
      "and compare byte for byte (FA: the disassembly assembled by the PE writer). Exit 0 when\n"
      "the rewrite is identical, 1 when it differs (first differing offset printed), 2 on bad\n"
      "input.");
  add_inputs_options(cmd, o->inputs, "The file, or CONTAINER:MEMBER");
  cmd->add_option("-o,--output", o->output,
                  batch_output_help("Also write the rewritten file here"));
  cmd->add_flag("--force", o->force, "Overwrite the output file if it exists");
  cmd->callback([o, &ctx] {
    // A batch's rewrites keep their inputs' names (in the folder -o names).
    run_each_input(
        o->inputs.files, o->inputs.engine, {o->output, "", o->force}, false, o->inputs.jobs, ctx,
        [&](const std::string& spec, const std::string& output, CommandContext& status) {
          const EngineInput input = read_input(spec);
          const Engine& engine = engine_for(input, o->inputs.engine);
          const CheckResult r = engine.check(input);
          if (!output.empty())
            write_file_atomic(output, r.rewritten,
                              o->force ? Overwrite::kAllow : Overwrite::kRefuse);
          const auto& a = r.original;
          const auto& b = r.rewritten;
          const size_t common = std::min(a.size(), b.size());
          const size_t first = static_cast<size_t>(
              std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(common), b.begin())
                  .first -
              a.begin());
          if (first == common && a.size() == b.size()) {
            console_out("{}: identical when written again by {} ({} bytes)\n", spec, r.writer,
                        a.size());
            return;
          }
          if (first < common) {
            console_out(
                "{}: differs when written again by {}: first at offset 0x{:x}: 0x{:02x} in the "
                "file, 0x{:02x} rewritten ({} and {} bytes)\n",
                spec, r.writer, first, a[first], b[first], a.size(), b.size());
          } else {
            console_out(
                "{}: differs when written again by {}: the {} is shorter, {} bytes against {} "
                "(the rest is equal up to offset 0x{:x})\n",
                spec, r.writer, a.size() < b.size() ? "file" : "rewrite",
                std::min(a.size(), b.size()), std::max(a.size(), b.size()), common);
          }
          status.exit_code = kExitDifferences;
        });
  });
}

}  // namespace shapevm::tools
