// The command table, the dispatcher and help. The commands that inspect or manage breakpoints
// are in debug_command_handlers.cpp.
#include "harness/debug_commands.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/command_words.h"
#include "harness/debug_views.h"

namespace shapevm::harness {

namespace {

bool is_native_word(const DebugVocabulary& v, const std::string& word) {
  return word == "native" || (!v.native.empty() && word == v.native);
}

// The reasons a move gives when it did what it was asked: no "Stopped:" line for them.
bool plain_reason(const std::string& reason) {
  static const char* const kPlain[] = {"step",  "stepi", "next",          "nexti",       "back",
                                       "until", "tick",  "reverse-stepi", "reverse-next"};
  return std::find(std::begin(kPlain), std::end(kPlain), reason) != std::end(kPlain);
}

// "x/N[x|d|i] ...", "step, s [N]": the names, then the arguments (a /FORMAT right after them).
std::string synopsis(const DebugCommand& c, bool all_names) {
  std::string out;
  for (const auto& n : c.names) {
    out += (out.empty() ? "" : ", ") + n;
    if (!all_names) break;
  }
  if (c.args.empty()) return out;
  return out + (c.args[0] == '/' ? "" : " ") + c.args;
}

}  // namespace

DebugCommands::DebugCommands(Debugger& debugger, std::ostream& out) : d_(debugger), out_(out) {}

const std::vector<DebugCommand>& DebugCommands::table() {
  if (table_.empty()) table_ = make_table();
  return table_;
}

std::vector<DebugCommand> DebugCommands::make_table() {
  const DebugVocabulary& v = d_.vocabulary();
  const std::string& n = v.native;
  const bool has_native = !n.empty();
  auto moving = [this](auto f) { return [this, f](const CommandArgs& a) { report(f(a.text)); }; };
  std::vector<DebugCommand> t = {
      {{"run", "restart", "r"},
       "",
       "Go back to the start of the run (breakpoints stay).",
       false,
       false,
       moving([this](const std::string&) { return d_.restart(); })},
      {{"step", "s"},
       "[N]",
       has_native
           ? fmt::format("Execute N bytecode instructions (default 1); {} blocks run whole.", n)
           : "Execute N bytecode instructions (default 1).",
       true,
       false,
       moving([this](const std::string& a) { return d_.step(count_arg(a)); })},
      {{"stepi", "si"},
       "[N]",
       has_native ? fmt::format(
                        "Execute N pause points: inside an {0} block, one {0} instruction each.", n)
                  : "Execute N pause points (the same as step: this engine has no native code).",
       true,
       false,
       moving([this](const std::string& a) { return d_.stepi(count_arg(a)); })},
      {{"next", "n"},
       "[N]",
       "Like step, but a call runs to its return.",
       true,
       false,
       moving([this](const std::string& a) { return d_.next(count_arg(a)); })},
      {{"nexti", "ni"},
       "[N]",
       "Like stepi, but a call runs to its return.",
       true,
       false,
       moving([this](const std::string& a) { return d_.nexti(count_arg(a)); })},
      {{"until", "u"},
       "[OFFSET]",
       "Run to an instruction past this one at this depth (a loop runs out), or to OFFSET; "
       "stops too when the fragment returns.",
       true,
       false,
       moving([this](const std::string& a) {
         return d_.until(a.empty() ? std::nullopt : std::optional<uint32_t>(offset_arg(a)));
       })},
      {{"finish", "fin"},
       "",
       "Run until the current fragment returns to its caller.",
       true,
       false,
       moving([this](const std::string&) { return d_.finish(); })},
      {{"continue", "c"},
       "",
       "Run to the next breakpoint, watchpoint or the end (Ctrl-C stops).",
       true,
       false,
       moving([this](const std::string&) { return d_.cont(); })},
  };
  if (has_native) {
    t.push_back({{n + " finish", "native finish"},
                 "",
                 fmt::format("Run until the current {} block re-enters the bytecode.", n),
                 true,
                 false,
                 {}});
    t.push_back({{n + " step", "native step"}, "[N]", "The same as stepi.", true, false, {}});
  }
  std::string watchable = "NAME";
  for (const auto& m : v.memory) watchable += fmt::format("|{}[N]", m.name);
  std::string values = "One value: a register, global";
  for (const auto& m : v.memory) {
    std::string columns;
    for (const auto& c : m.columns) columns += (columns.empty() ? "" : "|") + c;
    values += fmt::format(", {}[N].{}", m.name, columns);
  }
  if (!v.native_register_names.empty())
    values += fmt::format(", {} (inside {} code)", v.native_register_names.front(), n);
  values += ", ...; /x: in hexadecimal.";
  const std::string location = fmt::format(
      "LOCATION: OFFSET (0x42 or *0x42), MNEMONIC, op OPCODE, face N (after the face with "
      "draw-order number N), {}diagnostic [warning|error].",
      has_native ? fmt::format("{0} (entering an {0} block), ", n) : "");
  const std::vector<DebugCommand> rest = {
      {{"back", "reverse-step", "rs"},
       "[N]",
       "Go back N bytecode instructions (exact).",
       true,
       false,
       moving([this](const std::string& a) { return d_.back(count_arg(a)); })},
      {{"reverse-next", "rn"},
       "",
       "Go back one instruction, over calls.",
       true,
       false,
       moving([this](const std::string&) { return d_.reverse_next(); })},
      {{"reverse-stepi", "rsi"},
       "[N]",
       "Go back N pause points.",
       true,
       false,
       moving([this](const std::string& a) { return d_.reverse_stepi(count_arg(a)); })},
      {{"reverse-continue", "rc"},
       "",
       "Go back to the latest earlier breakpoint or watchpoint stop (or the start).",
       true,
       false,
       moving([this](const std::string&) { return d_.reverse_continue(); })},
      {{"reverse-finish"},
       "",
       "Go back to the call that entered this fragment.",
       true,
       false,
       moving([this](const std::string&) { return d_.reverse_finish(); })},
      {{"goto"},
       "TICK",
       "Go to pause point TICK of the run.",
       false,
       false,
       moving([this](const std::string& a) {
         auto tick = parse_integer(a);
         if (!tick || *tick < 0) throw std::invalid_argument("goto needs a tick number");
         return d_.goto_tick(static_cast<uint64_t>(*tick));
       })},
      {{"break", "b"},
       "LOCATION [if NAME OP VALUE]",
       location,
       false,
       false,
       [this](const CommandArgs& a) { add_break(a.text, false); }},
      {{"tbreak"},
       "LOCATION [if NAME OP VALUE]",
       "Like break, but deleted once it has stopped the debugger.",
       false,
       false,
       [this](const CommandArgs& a) { add_break(a.text, true); }},
      {{"watch"},
       watchable,
       v.memory.empty() ? "Stop after an instruction changes a value (a register or global)."
                        : "Stop after an instruction changes a value (a register, global or a "
                          "row of a memory view: all its columns).",
       false,
       false,
       [this](const CommandArgs& a) { watch(a.text); }},
      {{"condition"},
       "ID [NAME OP VALUE]",
       "Set or clear a breakpoint's condition.",
       false,
       false,
       [this](const CommandArgs& a) { condition(a.text); }},
      {{"delete", "d"},
       "[ID...]",
       "Delete breakpoints/watchpoints (all without IDs).",
       false,
       false,
       [this](const CommandArgs& a) { remove(a.text); }},
      {{"disable"},
       "ID...",
       "Switch breakpoints or watchpoints off.",
       false,
       false,
       [this](const CommandArgs& a) { enable(a.text, false); }},
      {{"enable"},
       "ID...",
       "Switch breakpoints or watchpoints on.",
       false,
       false,
       [this](const CommandArgs& a) { enable(a.text, true); }},
      {{"display"},
       "[/x] [NAME]",
       "Show NAME after every stop (without NAME: show every display now).",
       false,
       true,
       [this](const CommandArgs& a) { display(a); }},
      {{"undisplay"},
       "[N...]",
       "Remove displays (all without numbers).",
       false,
       false,
       [this](const CommandArgs& a) { undisplay(a.text); }},
      {{"info", "i"},
       fmt::format("breakpoints|display|registers|globals|{}state|frame|stack",
                   has_native ? n + "|" : ""),
       fmt::format("Show breakpoints (with hit counts), displays, registers, globals, {}the run "
                   "state, the location or the call stack.",
                   has_native ? fmt::format("the {} state, ", n) : ""),
       true,
       false,
       [this](const CommandArgs& a) { info(a.text); }},
      {{"backtrace", "bt", "where"},
       "",
       "The call stack: fragments and their entry offsets.",
       true,
       false,
       [this](const CommandArgs&) { print_backtrace(out_, d_.current()); }},
      {{"registers", "regs"},
       "",
       has_native ? fmt::format("Registers (and {} registers inside a block).", n) : "Registers.",
       true,
       false,
       [this](const CommandArgs&) { print_registers(out_, d_); }},
      {{"globals"},
       "",
       "Engine globals and inputs.",
       true,
       false,
       [this](const CommandArgs&) { print_globals(out_, d_.current()); }},
  };
  t.insert(t.end(), rest.begin(), rest.end());
  for (const auto& m : v.memory)
    t.push_back({{m.name}, "[N|N-M]", m.help, true, false, [this, m](const CommandArgs& a) {
                   memory(m, a.text);
                 }});
  std::string rows = v.memory.empty() ? "" : v.memory.front().name + "[I]|";
  const std::vector<DebugCommand> last = {
      {{"print", "p"}, "[/x] NAME", values, true, true, [this](const CommandArgs& a) { print(a); }},
      {{"x"},
       fmt::format("/N[x|d|i] [{}OFFSET|$pc]", rows),
       v.memory.empty()
           ? "Examine N instructions of the listing from OFFSET (default: the current one)."
           : "Examine N rows of a memory view from row I (x: in hexadecimal), or N instructions "
             "of the listing from OFFSET (default: the current one).",
       true,
       true,
       [this](const CommandArgs& a) { examine(a); }},
      {{"list", "l"},
       "[OFFSET]",
       "The listing around the current (or given) offset.",
       true,
       false,
       [this](const CommandArgs& a) { list(a.text); }},
      {{"disassemble"},
       "[START[,END|,+LENGTH]]",
       "The listing from START up to END (or LENGTH bytes on); without arguments the labelled "
       "block around the current position. => marks the current line.",
       true,
       false,
       [this](const CommandArgs& a) { disassemble(a.text); }},
      {{"png"},
       "[-f] FILE",
       "Write the frame drawn so far (painter's order) as a PNG.",
       false,
       false,
       [this](const CommandArgs& a) { write_png(a.text); }},
      {{"set"},
       "NAME=VALUE",
       "Change a global or input and restart (breakpoints stay).",
       false,
       false,
       moving([this](const std::string& a) {
         if (a.find('=') == std::string::npos) throw std::invalid_argument("set NAME=VALUE");
         std::string assignment = a;
         std::erase(assignment, ' ');
         return d_.set(assignment);
       })},
      {{"help", "h"},
       "[COMMAND]",
       "This text, or one command's.",
       false,
       false,
       [this](const CommandArgs& a) { help(a.text); }},
      {{"quit", "q", "exit"}, "", "End the session (so does Ctrl-D).", false, false, {}},
  };
  t.insert(t.end(), last.begin(), last.end());
  return t;
}

const DebugCommand* DebugCommands::find(const std::string& word) {
  for (const auto& c : table())
    if (std::find(c.names.begin(), c.names.end(), word) != c.names.end()) return &c;
  return nullptr;
}

void DebugCommands::run(const std::string& line) {
  auto [word, rest] = split_word(line);
  if (word.empty()) return;
  CommandArgs args{"", rest};
  if (const auto slash = word.find('/'); slash != std::string::npos && slash > 0) {
    args.format = word.substr(slash + 1);
    word.resize(slash);
  }
  const DebugVocabulary& vocabulary = d_.vocabulary();
  if (is_native_word(vocabulary, word)) return native(rest);
  const DebugCommand* c = find(word);
  if (c == nullptr || !c->run) {
    std::string views;
    for (const auto& m : vocabulary.memory) views += (views.empty() ? "" : ", ") + m.name;
    if (views.empty())
      throw std::invalid_argument(fmt::format("unknown command \"{}\" (try help)", word));
    throw std::invalid_argument(fmt::format(
        "unknown command \"{}\" (this engine's memory views: {}; try help)", word, views));
  }
  if (!args.format.empty() && !c->takes_format)
    throw std::invalid_argument(fmt::format("{} takes no /FORMAT", word));
  c->run(args);
}

bool DebugCommands::repeats(const std::string& line) {
  std::string word = split_word(line).first;
  word = word.substr(0, word.find('/'));
  if (is_native_word(d_.vocabulary(), word)) return true;
  const DebugCommand* c = find(word);
  return c != nullptr && c->repeats;
}

void DebugCommands::native(const std::string& args) {
  const std::string& n = d_.vocabulary().native;
  if (n.empty()) throw DebugError(kNoNativeCode);
  auto [sub, rest] = split_word(args);
  if (sub == "finish") return report(d_.native_finish());
  if (sub == "step" || sub == "si") return report(d_.stepi(count_arg(rest)));
  if (sub.empty() || sub == "info") return print_native(out_, d_);
  throw std::invalid_argument(fmt::format("{} takes finish, step [N] or nothing", n));
}

void DebugCommands::info(const std::string& args) {
  auto [sub, rest] = split_word(args);
  if (sub == "breakpoints" || sub == "break" || sub == "b" || sub == "watchpoints")
    return print_breakpoints(out_, d_);
  if (sub == "display") return info_display();
  if (sub == "registers" || sub == "reg" || sub == "r") return print_registers(out_, d_);
  if (sub == "globals") return print_globals(out_, d_.current());
  if (is_native_word(d_.vocabulary(), sub)) return print_native(out_, d_);
  if (sub == "state") {
    out_ << d_.engine().describe_state() << "\n";
    return;
  }
  if (sub == "frame" || sub == "line" || sub == "program") return print_location(out_, d_);
  if (sub == "stack") return print_backtrace(out_, d_.current());
  throw std::invalid_argument(fmt::format("info {}: unknown (see help info)", sub));
}

void DebugCommands::report(const MoveResult& r) {
  for (const auto& m : r.messages)
    out_ << fmt::format("{} at 0x{:04x}: {}\n",
                        m.level == DiagnosticLevel::kError     ? "error"
                        : m.level == DiagnosticLevel::kWarning ? "warning"
                                                               : "info",
                        m.offset, m.text);
  if (!r.hits.empty()) {
    for (const auto& h : r.hits) out_ << "Stopped: " << h.text << "\n";
  } else if (r.reason == kInterruptedReason) {
    out_ << "\nStopped: interrupted (Ctrl-C)\n";  // after the terminal's ^C
  } else if (!plain_reason(r.reason)) {
    out_ << "Stopped: " << r.reason << "\n";
  }
  print_location(out_, d_);
  show_displays();
}

void DebugCommands::help(const std::string& topic) {
  const DebugVocabulary& v = d_.vocabulary();
  if (!topic.empty()) {
    const std::string name = topic.substr(0, topic.find('/', 1));  // help x/4i: help x
    for (const auto& c : table()) {
      if (std::find(c.names.begin(), c.names.end(), name) == c.names.end()) continue;
      out_ << fmt::format("{}\n  {}\n", synopsis(c, false), c.help);
      if (c.names.size() > 1) {
        std::string also;
        for (size_t i = 1; i < c.names.size(); ++i) also += (i > 1 ? ", " : "") + c.names[i];
        out_ << "  Also: " << also << "\n";
      }
      return;
    }
    if (is_native_word(v, topic) && v.native.empty()) throw DebugError(kNoNativeCode);
    throw std::invalid_argument(fmt::format("no command \"{}\"", topic));
  }
  if (v.native.empty()) {
    out_ << "Commands (a position is a pause point: before a bytecode instruction or the end;\n"
            "every move re-runs the program, so going back is exact):\n";
  } else {
    out_ << fmt::format(
        "Commands (a position is a pause point: before a bytecode instruction, before an {}\n"
        "instruction inside a block, or the end; every move re-runs the program, so going\n"
        "back is exact):\n",
        v.native);
  }
  for (const auto& c : table()) {
    out_ << fmt::format("  {:<36} {}\n", synopsis(c, true), c.help);
  }
  out_ << "An empty line repeats the last move or view at a terminal; Ctrl-C stops a move.\n";
  out_ << fmt::format("This engine ({}): ", d_.engine().engine());
  if (v.memory.empty()) {
    out_ << "no memory views";
  } else {
    out_ << "memory views";
    for (size_t i = 0; i < v.memory.size(); ++i) {
      std::string columns;
      for (const auto& c : v.memory[i].columns) columns += (columns.empty() ? "" : ", ") + c;
      out_ << fmt::format("{} {} ({})", i == 0 ? "" : ",", v.memory[i].name, columns);
    }
  }
  out_ << "; "
       << (v.native.empty() ? std::string("no native code")
                            : fmt::format("native code: {}", v.native))
       << ".\n";
}

}  // namespace shapevm::harness
