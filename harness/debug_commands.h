// The debugger's commands: one table gives each command its names (gdb's, with their usual
// short forms), its arguments, its help line, whether an empty line repeats it, and what it
// does. `help` prints the table, so it lists every command the dispatcher accepts. Engine
// neutral: a command per memory view the engine declares, named after it, and the native
// commands under the architecture's name (and the word `native`).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/debugger.h"

namespace shapevm::harness {

// What follows a command's name: gdb's `/FORMAT` (`x/4i`, `print/x`) and the rest of the line.
struct CommandArgs {
  std::string format;  // without the slash; "" when none was given
  std::string text;
};

struct DebugCommand {
  std::vector<std::string> names;  // the name, then its aliases
  std::string args;                // the arguments' syntax ("[N]", "LOCATION [if COND]")
  std::string help;
  bool repeats = false;       // an empty line at an interactive prompt runs it again
  bool takes_format = false;  // accepts /FORMAT after its name
  std::function<void(const CommandArgs&)> run;
};

class DebugCommands {
 public:
  DebugCommands(Debugger& debugger, std::ostream& out);

  // Runs one command line (not quit: the session handles that). Throws DebugError,
  // std::invalid_argument or InputError with the message to show.
  void run(const std::string& line);
  // Whether an empty line after `line` runs it again (moves and views do; setting breakpoints,
  // restarting, changing the state or writing files do not).
  bool repeats(const std::string& line);
  static bool is_quit(const std::string& word) {
    return word == "quit" || word == "q" || word == "exit";
  }
  // After a move: the engine's messages, a line per breakpoint or watchpoint that holds, the
  // location and the displays.
  void report(const MoveResult& r);

 private:
  const std::vector<DebugCommand>& table();
  std::vector<DebugCommand> make_table();
  const DebugCommand* find(const std::string& word);

  void native(const std::string& args);
  void info(const std::string& args);
  void add_break(const std::string& args, bool temporary);
  void watch(const std::string& args);
  void condition(const std::string& args);
  void remove(const std::string& args);
  void enable(const std::string& args, bool on);
  struct Display {
    int id = 0;
    std::string expression;
    bool hex = false;
  };
  void display(const CommandArgs& a);
  void undisplay(const std::string& args);
  void show_display(const Display& d);
  void show_displays();
  void info_display();
  void print(const CommandArgs& a);
  void examine(const CommandArgs& a);
  void disassemble(const std::string& args);
  void list(const std::string& args);
  void memory(const MemoryViewInfo& view, const std::string& args);
  void write_png(const std::string& args);
  void help(const std::string& topic);

  Debugger& d_;
  std::ostream& out_;
  std::vector<DebugCommand> table_;  // made on first use: it needs the engine's vocabulary
  std::vector<Display> displays_;
  int next_display_ = 1;
};

}  // namespace shapevm::harness
