#include "harness/debug_repl.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/input_error.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

struct CommandHelp {
  const char* names;  // the command and its aliases
  const char* usage;
  const char* text;
};

// The command table `help` prints; dispatch() below accepts exactly these names.
const CommandHelp kCommands[] = {
    {"run, restart, r", "run", "Go back to the start of the run (breakpoints stay)."},
    {"step, s", "step [N]", "Execute N bytecode instructions (default 1); x86 blocks run whole."},
    {"stepi, si", "stepi [N]",
     "Execute N pause points: inside an x86 block, one x86 instruction each."},
    {"next, n", "next [N]", "Like step, but a call (Unmask, selector, ...) runs to its return."},
    {"finish, fin", "finish", "Run until the current fragment returns to its caller."},
    {"continue, c", "continue", "Run to the next breakpoint, watchpoint or the end."},
    {"x86 finish", "x86 finish", "Run until the current x86 block re-enters the bytecode."},
    {"back, reverse-step, rs", "back [N]", "Go back N bytecode instructions (exact)."},
    {"reverse-next, rn", "reverse-next", "Go back one instruction, over calls."},
    {"reverse-stepi, rsi", "reverse-stepi [N]", "Go back N pause points."},
    {"reverse-continue, rc", "reverse-continue",
     "Go back to the latest earlier breakpoint or watchpoint stop (or the start)."},
    {"reverse-finish", "reverse-finish", "Go back to the call that entered this fragment."},
    {"goto", "goto TICK", "Go to pause point TICK of the run."},
    {"break, b", "break LOCATION [if NAME OP VALUE]",
     "LOCATION: OFFSET (0x42 or *0x42), MNEMONIC (Face), op OPCODE, face N (after the face "
     "with draw-order number N), x86 (entering an x86 block), diagnostic [warning|error]."},
    {"watch", "watch NAME|pool[N]",
     "Stop after an instruction changes a value (a register, global or a pool slot)."},
    {"condition", "condition ID [NAME OP VALUE]", "Set or clear a breakpoint's condition."},
    {"delete, d", "delete [ID...]", "Delete breakpoints/watchpoints (all without IDs)."},
    {"disable, enable", "disable ID / enable ID", "Switch a breakpoint or watchpoint off/on."},
    {"info", "info breakpoints|registers|globals|x86|state|frame",
     "Show breakpoints, registers, globals, the x86 state, the run state or the location."},
    {"backtrace, bt, where", "backtrace", "The call stack: fragments and their entry offsets."},
    {"registers, regs", "regs", "Registers (and x86 registers inside a block)."},
    {"globals", "globals", "Engine globals and inputs."},
    {"pool", "pool [N|N-M]", "Written vertex pool slots: source and transformed."},
    {"print, p", "print NAME", "One value: a register, global, pool[N].x|y|z|vx|vy|vz, eax, ..."},
    {"list, l", "list [OFFSET]", "The listing around the current (or given) offset."},
    {"png", "png [-f] FILE", "Write the frame drawn so far (painter's order) as a PNG."},
    {"set", "set NAME=VALUE", "Change a global or input and restart (breakpoints stay)."},
    {"help, h", "help [COMMAND]", "This text."},
    {"quit, q", "quit", "End the session."},
};

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

uint32_t offset_arg(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t[0] == '*') t.erase(0, 1);
  auto v = parse_integer(t);
  if (!v || *v < 0 || *v > UINT32_MAX)
    throw std::invalid_argument(fmt::format("\"{}\" is not an offset", text));
  return static_cast<uint32_t>(*v);
}

}  // namespace

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
  if (c == "x86") {
    auto [sub, rest] = split_word(args);
    if (sub == "finish") return report(d_.native_finish());
    if (sub == "step" || sub == "si") return report(d_.stepi(count_arg(rest)));
    if (sub.empty() || sub == "info") return print_native();
    throw std::invalid_argument("x86 takes finish, step [N] or nothing");
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
    if (sub == "x86") return print_native();
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
  if (c == "pool") return print_pool(args);
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
  throw std::invalid_argument(fmt::format("unknown command \"{}\" (try help)", c));
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
  } else if (kind == "x86") {
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
    out_ << fmt::format("=> x86 0x{:08x}", s.native->address);
    if (s.native->offset) out_ << fmt::format(" (CODE 0x{:04x})", *s.native->offset);
    out_ << fmt::format(": {}  [in the x86 block of 0x{:04x}, tick {}]\n", s.native->text, s.offset,
                        s.tick);
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
  if (!topic.empty()) {
    for (const auto& c : kCommands) {
      std::istringstream names(c.names);
      std::string name;
      while (std::getline(names, name, ',')) {
        if (trim(name) == topic) {
          out_ << fmt::format("{}\n  {}\n", c.usage, c.text);
          return;
        }
      }
    }
    throw std::invalid_argument(fmt::format("no command \"{}\"", topic));
  }
  out_ << "Commands (a position is a pause point: before a bytecode instruction, before an x86\n"
          "instruction inside a block, or the end; every move re-runs the program, so going\n"
          "back is exact):\n";
  for (const auto& c : kCommands) out_ << fmt::format("  {:<36} {}\n", c.usage, c.text);
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
  for (const auto& g : d_.current().globals)
    out_ << fmt::format("{:<20} {}\n", g.name, value_text(g));
}

void DebugRepl::print_native() {
  const Snapshot& s = d_.current();
  if (!s.native) throw DebugError("not inside an x86 block");
  out_ << fmt::format("x86 0x{:08x}: {}\n", s.native->address, s.native->text);
  for (const auto& r : s.native->registers)
    out_ << fmt::format("{:<4} 0x{:08x} {}\n", r.name, static_cast<uint32_t>(r.value), r.value);
}

void DebugRepl::print_pool(const std::string& args) {
  uint32_t lo = 0, hi = UINT32_MAX;
  if (!args.empty()) {
    const auto dash = args.find('-', 1);
    auto a = parse_integer(args.substr(0, dash));
    auto b = dash == std::string::npos ? a : parse_integer(args.substr(dash + 1));
    if (!a || !b || *a < 0 || *b < *a) throw std::invalid_argument("pool [N|N-M]");
    lo = static_cast<uint32_t>(*a);
    hi = static_cast<uint32_t>(*b);
  }
  size_t shown = 0;
  for (const auto& e : d_.current().pool) {
    if (e.index < lo || e.index > hi) continue;
    out_ << fmt::format("[{:>4}] source ({:>6}, {:>6}, {:>6})  view ({:>9}, {:>9}, {:>9})\n",
                        e.index, e.source[0], e.source[1], e.source[2], e.transformed[0],
                        e.transformed[1], e.transformed[2]);
    ++shown;
  }
  if (shown == 0) out_ << "no written pool slots in that range\n";
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
