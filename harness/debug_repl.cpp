#include "harness/debug_repl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/input_error.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

struct HelpEntry {
  std::string names;  // the command and its aliases
  std::string usage;
  std::string text;
};

// The commands `help` lists for an engine's vocabulary; dispatch() below accepts exactly these
// names. `native` is the native architecture's name, "" without native code.
std::vector<HelpEntry> help_entries(const DebugVocabulary& v) {
  const std::string& n = v.native;
  const bool native = !n.empty();
  std::vector<HelpEntry> out = {
      {"run, restart, r", "run", "Go back to the start of the run (breakpoints stay)."},
      {"step, s", "step [N]",
       native ? fmt::format("Execute N bytecode instructions (default 1); {} blocks run whole.", n)
              : "Execute N bytecode instructions (default 1)."},
      {"stepi, si", "stepi [N]",
       native ? fmt::format(
                    "Execute N pause points: inside an {0} block, one {0} instruction each.", n)
              : "Execute N pause points (the same as step: this engine has no native code)."},
      {"next, n", "next [N]", "Like step, but a call runs to its return."},
      {"finish, fin", "finish", "Run until the current fragment returns to its caller."},
      {"continue, c", "continue", "Run to the next breakpoint, watchpoint or the end."},
  };
  if (native)
    out.push_back({fmt::format("{0} finish, native finish", n), fmt::format("{} finish", n),
                   fmt::format("Run until the current {} block re-enters the bytecode.", n)});
  std::string rows = "NAME";
  for (const auto& m : v.memory) rows += fmt::format("|{}[N]", m.name);
  std::string values = "One value: a register, global";
  for (const auto& m : v.memory) {
    std::string columns;
    for (const auto& c : m.columns) columns += (columns.empty() ? "" : "|") + c;
    values += fmt::format(", {}[N].{}", m.name, columns);
  }
  if (!v.native_register_names.empty())
    values += fmt::format(", {} (inside {} code)", v.native_register_names.front(), n);
  values += ", ...";
  const std::vector<HelpEntry> rest = {
      {"back, reverse-step, rs", "back [N]", "Go back N bytecode instructions (exact)."},
      {"reverse-next, rn", "reverse-next", "Go back one instruction, over calls."},
      {"reverse-stepi, rsi", "reverse-stepi [N]", "Go back N pause points."},
      {"reverse-continue, rc", "reverse-continue",
       "Go back to the latest earlier breakpoint or watchpoint stop (or the start)."},
      {"reverse-finish", "reverse-finish", "Go back to the call that entered this fragment."},
      {"goto", "goto TICK", "Go to pause point TICK of the run."},
      {"break, b", "break LOCATION [if NAME OP VALUE]",
       fmt::format("LOCATION: OFFSET (0x42 or *0x42), MNEMONIC, op OPCODE, face N (after the face "
                   "with draw-order number N), {}diagnostic [warning|error].",
                   native ? fmt::format("{0} (entering an {0} block), ", n) : "")},
      {"watch", fmt::format("watch {}", rows),
       v.memory.empty() ? "Stop after an instruction changes a value (a register or global)."
                        : "Stop after an instruction changes a value (a register, global or a "
                          "row of a memory view: all its columns)."},
      {"condition", "condition ID [NAME OP VALUE]", "Set or clear a breakpoint's condition."},
      {"delete, d", "delete [ID...]", "Delete breakpoints/watchpoints (all without IDs)."},
      {"disable, enable", "disable ID / enable ID", "Switch a breakpoint or watchpoint off/on."},
      {"info",
       fmt::format("info breakpoints|registers|globals|{}state|frame", native ? n + "|" : ""),
       fmt::format("Show breakpoints, registers, globals, {}the run state or the location.",
                   native ? fmt::format("the {} state, ", n) : "")},
      {"backtrace, bt, where", "backtrace", "The call stack: fragments and their entry offsets."},
      {"registers, regs", "regs",
       native ? fmt::format("Registers (and {} registers inside a block).", n) : "Registers."},
      {"globals", "globals", "Engine globals and inputs."},
  };
  out.insert(out.end(), rest.begin(), rest.end());
  for (const auto& m : v.memory) out.push_back({m.name, m.name + " [N|N-M]", m.help});
  const std::vector<HelpEntry> last = {
      {"print, p", "print NAME", values},
      {"list, l", "list [OFFSET]", "The listing around the current (or given) offset."},
      {"png", "png [-f] FILE", "Write the frame drawn so far (painter's order) as a PNG."},
      {"set", "set NAME=VALUE", "Change a global or input and restart (breakpoints stay)."},
      {"help, h", "help [COMMAND]", "This text."},
      {"quit, q", "quit", "End the session."},
  };
  out.insert(out.end(), last.begin(), last.end());
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::pair<std::string, std::string> split_word(const std::string& s) {
  const std::string t = trim(s);
  const auto sp = t.find_first_of(" \t");
  if (sp == std::string::npos) return {t, ""};
  return {t.substr(0, sp), trim(t.substr(sp + 1))};
}

std::string value_text(const DebugValue& v) {
  return v.text.empty() ? fmt::format("{}", v.value) : v.text;
}

// Whether an instruction line of the listing starts with `mnemonic` (any case).
bool listed_mnemonic(const std::vector<ListingLine>& lines, const std::string& mnemonic) {
  for (const auto& line : lines) {
    if (!line.offset || line.native) continue;
    const auto start = line.text.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    const auto end = line.text.find_first_of(" \t", start);
    const std::string_view word =
        std::string_view(line.text).substr(start, end == std::string::npos ? end : end - start);
    if (word.size() == mnemonic.size() &&
        std::equal(word.begin(), word.end(), mnemonic.begin(), [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) ==
                 std::tolower(static_cast<unsigned char>(y));
        }))
      return true;
  }
  return false;
}

bool is_native_word(const DebugVocabulary& v, const std::string& word) {
  return word == "native" || (!v.native.empty() && word == v.native);
}

const MemoryViewInfo* find_view(const DebugVocabulary& v, const std::string& name) {
  for (const auto& m : v.memory)
    if (m.name == name) return &m;
  return nullptr;
}

uint32_t offset_arg(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t[0] == '*') t.erase(0, 1);
  auto v = parse_integer(t);
  if (!v || *v < 0 || *v > UINT32_MAX)
    throw std::invalid_argument(fmt::format("\"{}\" is not an offset", text));
  return static_cast<uint32_t>(*v);
}

}  // namespace

std::string memory_row_text(const MemoryViewInfo& view, const MemoryRow& row, bool aligned) {
  std::string out;
  size_t column = 0;
  auto value = [&](size_t c) { return c < row.values.size() ? row.values[c] : 0; };
  for (const auto& group : view.layout) {
    std::string numbers;
    for (size_t k = 0; k < group.count && column < view.columns.size(); ++k, ++column)
      numbers +=
          fmt::format("{}{:>{}}", k == 0 ? "" : ", ", value(column), aligned ? group.width : 0);
    out += fmt::format("{}{} ({})", out.empty() ? "" : aligned ? "  " : " ", group.label, numbers);
  }
  for (; column < view.columns.size(); ++column)
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", view.columns[column], value(column));
  return out;
}

DebugRepl::DebugRepl(Debugger& debugger, std::ostream& out) : d_(debugger), out_(out) {}

void DebugRepl::start() {
  out_ << fmt::format("shapevm debug: {} ({}); state {}\n", d_.engine().source(),
                      d_.engine().engine(), d_.engine().describe_state());
  out_ << "Type \"help\" for the commands.\n";
  report(d_.restart());
}

void DebugRepl::run(std::istream& in, bool interactive) {
  std::string line;
  while (true) {
    if (interactive) out_ << "(shapevm) " << std::flush;
    if (!std::getline(in, line)) break;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (!interactive) out_ << "(shapevm) " << t << "\n";
    if (!execute(t)) break;
    out_ << std::flush;
  }
  out_ << std::flush;
}

bool DebugRepl::execute(const std::string& line) {
  auto [command, args] = split_word(line);
  if (command.empty()) return true;
  if (command == "quit" || command == "q" || command == "exit") return false;
  try {
    dispatch(command, args);
  } catch (const DebugError& e) {
    ++errors_;
    out_ << "error: " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    ++errors_;
    out_ << "error: " << e.what() << "\n";
  } catch (const InputError& e) {
    ++errors_;
    out_ << "error: " << e.what() << "\n";
  }
  return true;
}

uint64_t DebugRepl::count_arg(const std::string& args) {
  if (args.empty()) return 1;
  auto v = parse_integer(args);
  if (!v || *v < 0) throw std::invalid_argument(fmt::format("\"{}\" is not a count", args));
  return static_cast<uint64_t>(*v);
}

int DebugRepl::id_arg(const std::string& args) {
  auto v = parse_integer(args);
  if (!v || *v <= 0 || *v > INT32_MAX)
    throw std::invalid_argument(fmt::format("\"{}\" is not a breakpoint number", args));
  return static_cast<int>(*v);
}

void DebugRepl::dispatch(const std::string& c, const std::string& args) {
  const DebugVocabulary& vocabulary = d_.vocabulary();
  if (c == "run" || c == "restart" || c == "r") return report(d_.restart());
  if (c == "step" || c == "s") return report(d_.step(count_arg(args)));
  if (c == "stepi" || c == "si") return report(d_.stepi(count_arg(args)));
  if (c == "next" || c == "n") return report(d_.next(count_arg(args)));
  if (c == "finish" || c == "fin") return report(d_.finish());
  if (c == "continue" || c == "c") return report(d_.cont());
  if (c == "back" || c == "reverse-step" || c == "rs") return report(d_.back(count_arg(args)));
  if (c == "reverse-next" || c == "rn") return report(d_.reverse_next());
  if (c == "reverse-stepi" || c == "rsi") return report(d_.reverse_stepi(count_arg(args)));
  if (c == "reverse-continue" || c == "rc") return report(d_.reverse_continue());
  if (c == "reverse-finish") return report(d_.reverse_finish());
  if (c == "goto") {
    auto v = parse_integer(args);
    if (!v || *v < 0) throw std::invalid_argument("goto needs a tick number");
    return report(d_.goto_tick(static_cast<uint64_t>(*v)));
  }
  if (is_native_word(vocabulary, c)) {
    if (vocabulary.native.empty()) throw DebugError(kNoNativeCode);
    auto [sub, rest] = split_word(args);
    if (sub == "finish") return report(d_.native_finish());
    if (sub == "step" || sub == "si") return report(d_.stepi(count_arg(rest)));
    if (sub.empty() || sub == "info") return print_native();
    throw std::invalid_argument(fmt::format("{} takes finish, step [N] or nothing", c));
  }
  if (c == "break" || c == "b") return add_break(args);
  if (c == "watch") {
    const int id = d_.add_watchpoint(args);
    out_ << fmt::format("Watchpoint {}: {}\n", id, args);
    return;
  }
  if (c == "condition") {
    auto [id, cond] = split_word(args);
    std::optional<Condition> parsed;
    if (!cond.empty()) parsed = parse_condition(cond);
    if (!d_.set_condition(id_arg(id), parsed))
      throw std::invalid_argument(fmt::format("no breakpoint {}", id));
    return;
  }
  if (c == "delete" || c == "d") {
    if (args.empty()) {
      std::vector<int> ids;
      for (const auto& b : d_.breakpoints()) ids.push_back(b.id);
      for (const auto& w : d_.watchpoints()) ids.push_back(w.id);
      for (int id : ids) d_.remove(id);
      return;
    }
    std::istringstream words(args);
    std::string w;
    while (words >> w)
      if (!d_.remove(id_arg(w))) throw std::invalid_argument(fmt::format("no breakpoint {}", w));
    return;
  }
  if (c == "disable" || c == "enable") {
    if (!d_.enable(id_arg(args), c == "enable"))
      throw std::invalid_argument(fmt::format("no breakpoint {}", args));
    return;
  }
  if (c == "info" || c == "i") {
    auto [sub, rest] = split_word(args);
    if (sub == "breakpoints" || sub == "break" || sub == "b" || sub == "watchpoints")
      return print_breakpoints();
    if (sub == "registers" || sub == "reg" || sub == "r") return print_registers();
    if (sub == "globals") return print_globals();
    if (is_native_word(vocabulary, sub)) return print_native();
    if (sub == "state") {
      out_ << d_.engine().describe_state() << "\n";
      return;
    }
    if (sub == "frame" || sub == "line" || sub == "program") return print_location();
    if (sub == "stack") return print_backtrace();
    throw std::invalid_argument(fmt::format("info {}: unknown (see help info)", sub));
  }
  if (c == "backtrace" || c == "bt" || c == "where") return print_backtrace();
  if (c == "registers" || c == "regs") return print_registers();
  if (c == "globals") return print_globals();
  if (const MemoryViewInfo* view = find_view(vocabulary, c)) return print_memory(*view, args);
  if (c == "print" || c == "p") {
    if (args.empty()) throw std::invalid_argument("print needs a name");
    auto v = snapshot_value(d_.current(), args);
    if (!v) {
      for (const auto& r : d_.current().registers)
        if (r.name == args && !r.text.empty()) {
          out_ << args << " = " << r.text << "\n";
          return;
        }
      throw std::invalid_argument(fmt::format("\"{}\" has no value here", args));
    }
    out_ << fmt::format("{} = {} (0x{:x})\n", args, *v, static_cast<uint64_t>(*v));
    return;
  }
  if (c == "list" || c == "l") return print_list(args);
  if (c == "png") return write_png(args);
  if (c == "set") {
    if (args.find('=') == std::string::npos) throw std::invalid_argument("set NAME=VALUE");
    std::string a = args;
    std::erase(a, ' ');
    return report(d_.set(a));
  }
  if (c == "help" || c == "h") return print_help(args);
  std::string views;
  for (const auto& m : vocabulary.memory) views += (views.empty() ? "" : ", ") + m.name;
  if (views.empty())
    throw std::invalid_argument(fmt::format("unknown command \"{}\" (try help)", c));
  throw std::invalid_argument(
      fmt::format("unknown command \"{}\" (this engine's memory views: {}; try help)", c, views));
}

void DebugRepl::add_break(const std::string& args) {
  std::string location = args;
  std::optional<Condition> condition;
  if (const auto at = args.find(" if "); at != std::string::npos) {
    location = trim(args.substr(0, at));
    condition = parse_condition(args.substr(at + 4));
  }
  auto [kind, rest] = split_word(location);
  if (kind.empty()) throw std::invalid_argument("break needs a location (see help break)");
  Breakpoint b;
  if (kind == "face") {
    auto n = parse_integer(rest);
    if (!n || *n < 0) throw std::invalid_argument("break face N: N is a draw-order number");
    b.kind = BreakKind::kFace;
    b.number = static_cast<uint32_t>(*n);
  } else if (is_native_word(d_.vocabulary(), kind)) {
    b.kind = BreakKind::kNativeEntry;
  } else if (kind == "diagnostic") {
    b.kind = BreakKind::kDiagnostic;
    if (rest == "error") {
      b.level = DiagnosticLevel::kError;
    } else if (rest.empty() || rest == "warning") {
      b.level = DiagnosticLevel::kWarning;
    } else {
      throw std::invalid_argument("break diagnostic [warning|error]");
    }
  } else if (kind == "op") {
    auto n = parse_integer(rest);
    if (!n || *n < 0 || *n > 0xFFFF) throw std::invalid_argument("break op OPCODE");
    b.kind = BreakKind::kOpcode;
    b.number = static_cast<uint32_t>(*n);
  } else if (kind[0] == '*' || std::isdigit(static_cast<unsigned char>(kind[0]))) {
    b.kind = BreakKind::kOffset;
    b.number = offset_arg(kind);
  } else {
    b.kind = BreakKind::kMnemonic;
    b.mnemonic = kind;
  }
  b.condition = condition;
  const int id = d_.add_breakpoint(b);
  out_ << fmt::format("Breakpoint {} {}\n", id, d_.breakpoints().back().describe());
  if (b.kind == BreakKind::kMnemonic && !listed_mnemonic(d_.engine().listing(), b.mnemonic))
    out_ << fmt::format(
        "note: no instruction in the listing is {}; the breakpoint may never stop\n", b.mnemonic);
}

void DebugRepl::report(const MoveResult& r) {
  for (const auto& m : r.messages)
    out_ << fmt::format("{} at 0x{:04x}: {}\n",
                        m.level == DiagnosticLevel::kError     ? "error"
                        : m.level == DiagnosticLevel::kWarning ? "warning"
                                                               : "info",
                        m.offset, m.text);
  static const char* const kPlain[] = {"step",          "stepi",        "next", "back",
                                       "reverse-stepi", "reverse-next", "tick"};
  if (std::find(std::begin(kPlain), std::end(kPlain), r.reason) == std::end(kPlain))
    out_ << "Stopped: " << r.reason << "\n";
  print_location();
}

void DebugRepl::print_location() {
  const Snapshot& s = d_.current();
  const std::string where =
      fmt::format("[tick {}, step {}, depth {}, faces {}]", s.tick, s.steps, s.depth, s.faces);
  if (s.ended) {
    out_ << fmt::format("=> end of run at 0x{:04x}: {} ({}) {}\n", s.offset, s.end_reason,
                        s.end_clean ? "clean" : "stopped by an error", where);
    return;
  }
  if (s.native) {
    const std::string& space = d_.vocabulary().native_space;
    out_ << fmt::format("=> {} 0x{:08x}", s.native->arch, s.native->address);
    if (s.native->offset)
      out_ << fmt::format(" ({}0x{:04x})", space.empty() ? "" : space + " ", *s.native->offset);
    out_ << fmt::format(": {}  [in the {} block of 0x{:04x}, tick {}]\n", s.native->text,
                        s.native->arch, s.offset, s.tick);
    std::string regs;
    for (const auto& r : s.native->registers)
      regs += fmt::format("{}{}=0x{:08x}", regs.empty() ? "   " : " ", r.name,
                          static_cast<uint32_t>(r.value));
    out_ << regs << "\n";
    return;
  }
  std::string text = s.mnemonic;
  for (const auto& line : d_.engine().listing())
    if (line.offset == s.offset && !line.native) {
      text = trim(line.text.substr(0, line.text.find(" ; ")));  // without the listing's comment
      break;
    }
  out_ << fmt::format("=> 0x{:04x}: {}  {}\n", s.offset, text, where);
}

void DebugRepl::print_help(const std::string& topic) {
  const DebugVocabulary& v = d_.vocabulary();
  const std::vector<HelpEntry> entries = help_entries(v);
  if (!topic.empty()) {
    for (const auto& c : entries) {
      std::istringstream names(c.names);
      std::string name;
      while (std::getline(names, name, ',')) {
        if (trim(name) == topic) {
          out_ << fmt::format("{}\n  {}\n", c.usage, c.text);
          return;
        }
      }
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
  for (const auto& c : entries) out_ << fmt::format("  {:<36} {}\n", c.usage, c.text);
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

void DebugRepl::print_backtrace() {
  const Snapshot& s = d_.current();
  const size_t depth = s.frames.size();
  uint32_t pc = s.offset;
  for (size_t k = 0; k <= depth; ++k) {
    // Frame k (0 innermost) runs in the fragment entered by frames[depth-1-k].
    if (k < depth) {
      const DebugFrame& f = s.frames[depth - 1 - k];
      out_ << fmt::format(
          "#{:<2} 0x{:04x} in fragment 0x{:04x} (called from 0x{:04x}, returns "
          "to 0x{:04x})\n",
          k, pc, f.entry, f.call, f.resume);
      pc = f.call;
    } else {
      out_ << fmt::format("#{:<2} 0x{:04x} in the top level\n", k, pc);
    }
  }
}

void DebugRepl::print_registers() {
  const Snapshot& s = d_.current();
  for (const auto& r : s.registers) out_ << fmt::format("{:<14} {}\n", r.name, value_text(r));
  out_ << fmt::format("{:<14} {}\n{:<14} {}\n{:<14} {}\n", "depth", s.depth, "steps", s.steps,
                      "faces", s.faces);
  if (s.native) print_native();
}

void DebugRepl::print_globals() {
  // Each global with its address in the original program, when the engine knows it.
  for (const auto& g : d_.current().globals)
    out_ << fmt::format("{:<20} {:<10} {}\n", g.name,
                        g.address ? fmt::format("0x{:X}", *g.address) : "", value_text(g));
}

void DebugRepl::print_native() {
  const Snapshot& s = d_.current();
  const std::string& native = d_.vocabulary().native;
  if (native.empty()) throw DebugError(kNoNativeCode);
  if (!s.native) throw DebugError(fmt::format("not inside an {} block", native));
  out_ << fmt::format("{} 0x{:08x}: {}\n", s.native->arch, s.native->address, s.native->text);
  for (const auto& r : s.native->registers)
    out_ << fmt::format("{:<4} 0x{:08x} {}\n", r.name, static_cast<uint32_t>(r.value), r.value);
}

void DebugRepl::print_memory(const MemoryViewInfo& view, const std::string& args) {
  uint32_t lo = 0, hi = UINT32_MAX;
  if (!args.empty()) {
    const auto dash = args.find('-', 1);
    auto a = parse_integer(args.substr(0, dash));
    auto b = dash == std::string::npos ? a : parse_integer(args.substr(dash + 1));
    if (!a || !b || *a < 0 || *b < *a || *b > UINT32_MAX)
      throw std::invalid_argument(fmt::format("{} [N|N-M]", view.name));
    lo = static_cast<uint32_t>(*a);
    hi = static_cast<uint32_t>(*b);
  }
  size_t shown = 0;
  for (const auto& m : d_.current().memory) {
    if (m.name != view.name) continue;
    for (const auto& row : m.rows) {
      if (row.index < lo || row.index > hi) continue;
      out_ << fmt::format("[{:>4}] {}\n", row.index, memory_row_text(m, row, true));
      ++shown;
    }
  }
  if (shown == 0)
    out_ << fmt::format("no {} in that range\n",
                        view.noun.empty() ? view.name + " rows" : view.noun);
}

void DebugRepl::print_list(const std::string& args) {
  const Snapshot& s = d_.current();
  const auto& lines = d_.engine().listing();
  uint32_t target = s.offset;
  bool native = s.native && s.native->offset;
  if (native) target = *s.native->offset;
  if (!args.empty()) {
    target = offset_arg(args);
    native = false;
  }
  size_t at = lines.size();
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].offset == target && (!native || lines[i].native)) {
      at = i;
      break;
    }
  if (at == lines.size())
    throw DebugError(fmt::format("no listing line at offset 0x{:04x}", target));
  const size_t first = at > 5 ? at - 5 : 0;
  const size_t last = std::min(lines.size(), at + 6);
  for (size_t i = first; i < last; ++i)
    out_ << fmt::format("{} {:>5}  {}\n", i == at ? "=>" : "  ", i + 1, lines[i].text);
}

void DebugRepl::print_breakpoints() {
  if (d_.breakpoints().empty() && d_.watchpoints().empty()) {
    out_ << "No breakpoints or watchpoints.\n";
    return;
  }
  for (const auto& b : d_.breakpoints())
    out_ << fmt::format("{:<3} breakpoint {} {}\n", b.id, b.enabled ? "on " : "off", b.describe());
  for (const auto& w : d_.watchpoints())
    out_ << fmt::format("{:<3} watchpoint {} {}\n", w.id, w.enabled ? "on " : "off", w.expression);
}

void DebugRepl::write_png(const std::string& args) {
  auto [first, rest] = split_word(args);
  bool force = false;
  std::string path = args;
  if (first == "-f") {
    force = true;
    path = rest;
  }
  if (path.empty()) throw std::invalid_argument("png [-f] FILE");
  if (!force && std::filesystem::exists(path))
    throw InputError(path, "already exists (not overwritten; use png -f FILE)");
  const raster::Framebuffer frame = d_.partial_frame();
  raster::write_indexed_png(path, frame, d_.engine().palette());
  out_ << fmt::format("Wrote the frame after {} faces to {}\n", d_.current().faces, path);
}

}  // namespace shapevm::harness
