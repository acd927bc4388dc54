// The debugger's command line: gdb-like commands (debug_commands.h) over the debugger core
// (debugger.h), one command per line, from a terminal (with line editing: edit_line_reader.h) or
// from a script (`shapevm debug --batch FILE`, or a pipe).
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "harness/debug_commands.h"
#include "harness/debug_views.h"
#include "harness/debugger.h"
#include "harness/line_reader.h"
#include "harness/sigint_flag.h"

namespace shapevm::harness {

class DebugRepl {
 public:
  DebugRepl(Debugger& debugger, std::ostream& out);

  // Starts the session: runs to the first instruction and shows where it stopped.
  void start();
  // Executes one command line. Returns false after `quit`. A failing command prints
  // "error: ..." and counts in errors(); the session goes on.
  bool execute(const std::string& line);
  // Reads commands until `quit` or the end of input. From an interactive reader (a terminal) an
  // empty line repeats the last command that repeats (moves and views, as in gdb); from a script
  // each command is echoed after the prompt so a transcript reads like a session. `sigint`, when
  // given, is cleared before each command: Ctrl-C stops only the command running when it came
  // (the debugger must watch the same flag: Debugger::set_interrupt_flag).
  void run(LineReader& in, SigintFlag* sigint = nullptr);
  void run(std::istream& in, bool interactive);
  int errors() const { return errors_; }

 private:
  Debugger& d_;
  std::ostream& out_;
  DebugCommands commands_;
  int errors_ = 0;
  bool repeats_ = false;  // whether an empty line repeats the last command executed
};

}  // namespace shapevm::harness
