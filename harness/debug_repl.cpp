#include "harness/debug_repl.h"

#include <fmt/format.h>

#include "core/input_error.h"
#include "harness/command_words.h"

namespace shapevm::harness {

namespace {
constexpr std::string_view kPrompt = "(shapevm) ";
}  // namespace

DebugRepl::DebugRepl(Debugger& debugger, std::ostream& out)
    : d_(debugger), out_(out), commands_(debugger, out) {}

void DebugRepl::start() {
  out_ << fmt::format("shapevm debug: {} ({}); state {}\n", d_.engine().source(),
                      d_.engine().engine(), d_.engine().describe_state());
  out_ << "Type \"help\" for the commands.\n";
  commands_.report(d_.restart());
}

void DebugRepl::run(std::istream& in, bool interactive) {
  StreamLineReader reader(in, out_, interactive);
  run(reader);
}

void DebugRepl::run(LineReader& in, SigintFlag* sigint) {
  const bool interactive = in.interactive();
  std::string last;  // the command an empty line repeats ("" for none)
  while (true) {
    if (sigint) sigint->clear();
    out_ << std::flush;
    const ReadLine r = in.read(kPrompt);
    if (r.kind == ReadLine::Kind::kEnd) {
      if (interactive) out_ << "\n";  // the shell's prompt starts on a line of its own
      break;
    }
    if (r.kind == ReadLine::Kind::kInterrupted) {
      out_ << "\n";  // Ctrl-C at the prompt drops the typed line, as in gdb
      continue;
    }
    std::string t = trim(r.text);
    if (t.empty() && interactive) t = last;
    if (t.empty() || t[0] == '#') continue;
    if (!interactive) out_ << kPrompt << t << "\n";
    if (sigint) sigint->clear();
    if (!execute(t)) break;
    last = repeats_ ? t : "";
  }
  out_ << std::flush;
}

bool DebugRepl::execute(const std::string& line) {
  const std::string t = trim(line);
  if (t.empty()) return true;
  if (DebugCommands::is_quit(split_word(t).first)) return false;
  repeats_ = false;
  try {
    repeats_ = commands_.repeats(t);
    commands_.run(t);
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

}  // namespace shapevm::harness
