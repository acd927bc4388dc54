// The debugger's command line: gdb-like command names over the debugger core (debugger.h), one
// command per line, from a terminal or a script (`shapevm debug --batch FILE`). Engine neutral:
// the commands for memory and native code are the ones the engine declares (DebugVocabulary) — a
// command per memory view, named after it, and the native commands under the architecture's name.
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "harness/debugger.h"

namespace shapevm::harness {

// One row of a memory view as text: its layout's groups ("source (1, 2, 3)  view (4, 5, 6)";
// `aligned` pads each number to its group's width and puts two spaces between groups), then
// COLUMN=VALUE for any column no group covers.
std::string memory_row_text(const MemoryViewInfo& view, const MemoryRow& row, bool aligned);

class DebugRepl {
 public:
  DebugRepl(Debugger& debugger, std::ostream& out);

  // Starts the session: runs to the first instruction and shows where it stopped.
  void start();
  // Executes one command line. Returns false after `quit`. A failing command prints
  // "error: ..." and counts in errors(); the session goes on.
  bool execute(const std::string& line);
  // Reads commands until `quit` or the end of input. Interactive: a prompt before each command;
  // otherwise each command is echoed after the prompt so a transcript reads like a session.
  void run(std::istream& in, bool interactive);
  int errors() const { return errors_; }

 private:
  void dispatch(const std::string& command, const std::string& args);
  void report(const MoveResult& r);
  void print_location();
  void print_help(const std::string& topic);
  void print_backtrace();
  void print_registers();
  void print_globals();
  void print_memory(const MemoryViewInfo& view, const std::string& args);
  void print_list(const std::string& args);
  void print_breakpoints();
  void print_native();
  void add_break(const std::string& args);
  void write_png(const std::string& args);
  uint64_t count_arg(const std::string& args);
  int id_arg(const std::string& args);

  Debugger& d_;
  std::ostream& out_;
  int errors_ = 0;
};

}  // namespace shapevm::harness
