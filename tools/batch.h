// Commands run over many inputs in one process (info, disasm, trace, render, export, check):
// several arguments, and CONTAINER:PATTERN for the members of a container whose names match a
// shell pattern (`FA_2.LIB:*.SH`, `resource.hog:*`). Starting a process costs more than most
// single runs, so whole corpora go through one. Each input is run on its own: one that fails is
// reported and the others are still done, and the exit code is the worst of theirs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/shared_bytes.h"
#include "tools/command.h"

namespace shapevm::tools {

// One input of a batch: the argument its run is given, and the name its output file takes.
struct BatchInput {
  std::string spec;  // FILE or CONTAINER:MEMBER (CONTAINER:#N when the name would be ambiguous)
  std::string name;  // the file's or member's name made safe as a file name, unique in the batch
  // A pattern's container as read to list its members (empty for a plain argument), held while
  // the batch runs: each member's run then gets these bytes from read_file_shared() (a 58 MB
  // Starlancer resource.hog was read again for each of its 441 members, 100 s in all).
  SharedBytes container;
};

// True when the arguments make a batch: more than one, or a member pattern.
bool is_batch(const std::vector<std::string>& args);

// The inputs the arguments name, in order: a plain FILE or CONTAINER:MEMBER as given; a
// CONTAINER:PATTERN (a member part containing '*' or '?', matched without regard to case, as the
// engines' containers name members) as each matching member in container order. InputError when
// a pattern's file is no container or the pattern matches no member.
std::vector<BatchInput> expand_inputs(const std::vector<std::string>& args,
                                      const std::string& forced_engine);

// What a batch writes: one file per input in `dir` (created if missing), named NAME + extension.
struct BatchOutput {
  std::string dir;        // "" = the command writes to stdout (info, disasm and trace without -o)
  std::string extension;  // ".png", ".jsonl", ... ("" keeps the input's own name: check's rewrite)
  bool force = false;     // overwrite existing files (else an existing file fails its input)
};

// One input's run: `spec` and the file to write (`output_path`, "" for stdout). It prints through
// tools/console.h and sets `status.exit_code` when the input does not succeed.
using RunOne = std::function<void(const std::string& spec, const std::string& output_path,
                                  CommandContext& status)>;

// Runs `one` for every input (output_path "" when `output.dir` is empty). An input whose run
// throws is reported on stderr ("shapevm: error: ...") and fails with the exit code the exception
// means; the next input still runs. With an output directory, prints a line per input on stdout
// ("SPEC -> PATH", or "SPEC: failed (exit N)"). Ends with a totals line on stderr and leaves the
// worst exit code in `ctx`.
// `jobs` > 1 runs that many inputs at a time, each on its own thread. What each input prints is
// held until every input before it has printed, so stdout, stderr and the exit code are those of
// a run one input at a time; at most a few inputs per job run ahead of the oldest unprinted one.
void run_batch(const std::vector<BatchInput>& inputs, const BatchOutput& output, unsigned jobs,
               CommandContext& ctx, const RunOne& one);

// How a command that takes many inputs runs them: one input named exactly runs as it always did,
// its output `output` as given (and its errors ending the command); otherwise as a batch into
// the folder `output`, one file per input named NAME + `extension`, `jobs` at a time (0: one per
// core). `needs_output`: the command cannot write to stdout (render, export), so a batch without
// -o is an error.
void run_each_input(const std::vector<std::string>& args, const std::string& forced_engine,
                    const BatchOutput& output, bool needs_output, unsigned jobs,
                    CommandContext& ctx, const RunOne& one);

}  // namespace shapevm::tools
