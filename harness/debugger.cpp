#include "harness/debugger.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "interp/common/state.h"

namespace shapevm::harness {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string show(std::optional<int64_t> v) {
  return v ? fmt::format("{}", *v) : std::string("<none>");
}

std::string joined(const std::vector<StopHit>& hits) {
  std::string out;
  for (const auto& h : hits) out += (out.empty() ? "" : "; ") + h.text;
  return out;
}

}  // namespace

std::optional<int64_t> parse_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || end != text.data() + text.size() || v > uint64_t{INT64_MAX})
    return std::nullopt;
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

bool Condition::holds(std::optional<int64_t> actual) const {
  if (!actual) return false;
  const int64_t a = *actual;
  if (op == "==") return a == value;
  if (op == "!=") return a != value;
  if (op == "<") return a < value;
  if (op == "<=") return a <= value;
  if (op == ">") return a > value;
  if (op == ">=") return a >= value;
  return false;
}

std::string Condition::text() const {
  return fmt::format("{} {} {}", name, op, value);
}

namespace {

// The character classes of a lookup name (is_lookup_name). Hand-written rather than std::regex:
// the patterns are this small, and GCC 12 reports a -Wmaybe-uninitialized false positive inside
// <regex> in the sanitizer build, which -Werror turns into a failed build.
bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '$';
}
bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '[' ||
         c == ']' || c == '+';
}
bool is_blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool is_lookup_name(std::string_view text) {
  return !text.empty() && is_name_start(text.front()) &&
         std::all_of(text.begin() + 1, text.end(), is_name_char);
}

std::optional<ViewRow> split_view_row(std::string_view text) {
  const size_t open = text.find('[');
  if (open == std::string_view::npos || !text.ends_with(']')) return std::nullopt;
  const std::string_view view = text.substr(0, open);
  const std::string_view digits = text.substr(open + 1, text.size() - open - 2);
  const auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  if (!is_lookup_name(view) || view.find_first_of("[]+") != std::string_view::npos ||
      digits.empty() || !std::all_of(digits.begin(), digits.end(), is_digit))
    return std::nullopt;
  return ViewRow{view, digits};
}

Condition parse_condition(std::string_view text) {
  const auto malformed = [&] {
    return std::invalid_argument(fmt::format(
        "condition \"{}\": expected NAME OP INTEGER with OP one of == != < <= > >=", text));
  };
  // NAME, then OP, then one word: the name's characters include none of the operators'.
  std::string_view rest = trim_blanks(text);
  size_t name_end = 0;
  while (name_end < rest.size() && is_name_char(rest[name_end])) ++name_end;
  const std::string_view name = rest.substr(0, name_end);
  if (!is_lookup_name(name)) throw malformed();
  rest = trim_blanks(rest.substr(name_end));
  std::string_view op;
  for (const std::string_view candidate : {"==", "!=", "<=", ">=", "<", ">"}) {
    if (rest.starts_with(candidate)) {
      op = candidate;
      break;
    }
  }
  if (op.empty()) throw malformed();
  const std::string_view word = trim_blanks(rest.substr(op.size()));
  if (word.empty() || std::any_of(word.begin(), word.end(), is_blank)) throw malformed();
  const auto value = parse_integer(word);
  if (!value)
    throw std::invalid_argument(
        fmt::format("condition \"{}\": \"{}\" is not an integer", text, word));
  return Condition{std::string(name), std::string(op), *value};
}

std::string Breakpoint::describe() const {
  std::string what;
  switch (kind) {
    case BreakKind::kOffset:
      what = fmt::format("at 0x{:04x}", number);
      break;
    case BreakKind::kMnemonic:
      what = fmt::format("on {}", mnemonic);
      break;
    case BreakKind::kOpcode:
      what = fmt::format("on opcode 0x{:02X}", number);
      break;
    case BreakKind::kFace:
      what = fmt::format("after face #{}", number);
      break;
    case BreakKind::kNativeEntry:
      what = "on entering " + (native.empty() ? std::string("native code") : native);
      break;
    case BreakKind::kDiagnostic:
      what = level == DiagnosticLevel::kError ? "on an error" : "on a diagnostic";
      break;
  }
  if (condition) what += " if " + condition->text();
  return what;
}

std::optional<int64_t> snapshot_value(const Snapshot& s, std::string_view name) {
  // A value by name or, when `name` is an address (0x515EEE), by the address the engine gave it.
  const auto address = parse_address_name(name);
  auto find = [&](const std::vector<DebugValue>& values) -> std::optional<int64_t> {
    for (const auto& v : values)
      if (address ? v.address == address : v.name == name) return v.value;
    return std::nullopt;
  };
  if (auto v = find(s.registers)) return v;
  if (auto v = find(s.globals)) return v;
  if (s.native)
    if (auto v = find(s.native->registers)) return v;
  if (name == "offset") return s.offset;
  if (name == "depth") return s.depth;
  if (name == "faces") return static_cast<int64_t>(s.faces);
  if (name == "steps") return static_cast<int64_t>(s.steps);
  return memory_value(s.memory, name);
}

DebugVocabulary DebugEngine::vocabulary() {
  // Runs to the first pause point (every run has one: the end, at least) and asks it.
  struct First : PauseHandler {
    std::optional<DebugVocabulary> vocabulary;
    bool pause(const PausePoint& p) override {
      if (!vocabulary) vocabulary = p.vocabulary();
      return true;
    }
  } first;
  EventSink none;
  run(none, first);
  if (!first.vocabulary)
    throw DebugError("the engine's run ended without reporting its end to the debugger");
  return std::move(*first.vocabulary);
}

// One run of the program: counts pause points, remembers the history, collects the events
// between pauses for event breakpoints, and stops where the goal or a stop condition says.
class Debugger::Execution : public PauseHandler, public EventSink {
 public:
  Execution(Debugger& d, uint64_t from, const Goal& goal, bool breakpoints, EventSink* extra)
      : d_(d), from_(from), goal_(goal), breakpoints_(breakpoints), extra_(extra) {}

  // Reverse-continue: stops before `until` are recorded instead of taken.
  void record_stops_until(uint64_t until) { record_until_ = until; }

  bool wants_ops() const override { return false; }  // pause points carry the instruction
  bool wants_control() const override { return extra_ && extra_->wants_control(); }
  void on_branch(const BranchEvent& e) override {
    if (!done_ && extra_) extra_->on_branch(e);
  }
  void on_call(const CallEvent& e) override {
    if (!done_ && extra_) extra_->on_call(e);
  }
  void on_return(const ReturnEvent& e) override {
    if (!done_ && extra_) extra_->on_return(e);
  }
  void on_vertices(const VerticesEvent& e) override {
    if (!done_ && extra_) extra_->on_vertices(e);
  }
  void on_face(const FaceEvent& e) override {
    if (done_) return;
    faces_.push_back(e.sequence);
    if (extra_) extra_->on_face(e);
  }
  void on_diagnostic(const DiagnosticEvent& e) override {
    if (done_) return;
    diagnostics_.push_back(e.level);
    if (tick_ > from_) messages_.push_back({tick_, e.offset, e.level, e.message});
    if (extra_) extra_->on_diagnostic(e);
  }
  void on_native(const NativeEvent& e) override {
    if (done_) return;
    if (e.enter) native_entry_ = true;
    if (extra_) extra_->on_native(e);
  }

  bool pause(const PausePoint& p) override {
    if (done_) return true;
    const uint64_t tick = tick_++;
    history_.push_back({p.native(), p.ended(), p.depth()});
    std::optional<std::string> reason;
    if (tick >= from_ && breakpoints_) {
      auto hits = d_.check_stops(p, *this, watch_values_);
      if (!hits.empty() && tick > from_) {
        if (tick < record_until_) {
          last_recorded_ = {tick, std::move(hits)};
        } else {
          reason = joined(hits);
          hits_ = std::move(hits);
        }
      }
    }
    if (!reason) reason = goal_(p, tick);
    // Ctrl-C: only once the replay up to the move's start is done, so a move never lands earlier
    // than where it began.
    if (!reason && tick >= from_ && d_.interrupted()) reason = kInterruptedReason;
    if (!reason && p.ended()) reason = "end of run";  // also for a goto beyond the end
    faces_.clear();
    diagnostics_.clear();
    native_entry_ = false;
    if (!reason) return false;
    snapshot_ = p.capture();
    snapshot_.tick = tick;
    reason_ = *reason;
    done_ = true;
    return true;
  }

  bool done() const { return done_; }
  const std::vector<uint32_t>& faces() const { return faces_; }
  const std::vector<DiagnosticLevel>& diagnostics() const { return diagnostics_; }
  bool native_entry() const { return native_entry_; }

  Debugger& d_;
  uint64_t from_;
  const Goal& goal_;
  bool breakpoints_;
  EventSink* extra_;
  uint64_t record_until_ = 0;
  std::optional<std::pair<uint64_t, std::vector<StopHit>>> last_recorded_;
  uint64_t tick_ = 0;
  bool done_ = false;
  std::vector<uint32_t> faces_;
  std::vector<DiagnosticLevel> diagnostics_;
  bool native_entry_ = false;
  std::vector<std::optional<int64_t>> watch_values_;
  std::vector<HistoryEntry> history_;
  std::vector<DebugMessage> messages_;
  Snapshot snapshot_;
  std::string reason_;
  std::vector<StopHit> hits_;
};

Debugger::Debugger(DebugEngine& engine) : engine_(engine) {}

const DebugVocabulary& Debugger::vocabulary() {
  if (!vocabulary_) vocabulary_ = engine_.vocabulary();
  return *vocabulary_;
}

std::vector<StopHit> Debugger::check_stops(const PausePoint& p, const Execution& ex,
                                           std::vector<std::optional<int64_t>>& watch) {
  std::vector<StopHit> hits;
  for (const auto& b : breakpoints_) {
    if (!b.enabled) continue;
    bool hit = false;
    const bool bytecode = !p.native() && !p.ended();
    switch (b.kind) {
      case BreakKind::kOffset:
        hit = (bytecode && p.offset() == b.number) ||
              (p.native() && p.native_offset() == std::optional<uint32_t>(b.number));
        break;
      case BreakKind::kMnemonic:
        hit = bytecode && iequals(p.mnemonic(), b.mnemonic);
        break;
      case BreakKind::kOpcode:
        hit = bytecode && p.opcode() == b.number;
        break;
      case BreakKind::kFace:
        hit = std::find(ex.faces().begin(), ex.faces().end(), b.number) != ex.faces().end();
        break;
      case BreakKind::kNativeEntry:
        hit = ex.native_entry();
        break;
      case BreakKind::kDiagnostic:
        hit = std::any_of(ex.diagnostics().begin(), ex.diagnostics().end(),
                          [&](DiagnosticLevel l) { return l >= b.level; });
        break;
    }
    if (hit && b.condition) hit = b.condition->holds(p.read(b.condition->name));
    if (hit)
      hits.push_back({b.id, fmt::format("{}breakpoint {} ({})", b.temporary ? "temporary " : "",
                                        b.id, b.describe())});
  }
  // Watchpoints: compare every watched value with the previous pause's (the first pause of the
  // move only sets the baseline). Every value is updated, also when a breakpoint holds here.
  size_t k = 0;
  const bool first = watch.empty();
  for (const auto& w : watchpoints_) {
    bool reported = false;
    for (const auto& name : w.names) {
      const auto value = p.read(name);
      if (first) {
        watch.push_back(value);
      } else {
        if (w.enabled && !reported && value != watch[k]) {
          hits.push_back({w.id, fmt::format("watchpoint {}: {} {} -> {}", w.id, name,
                                            show(watch[k]), show(value))});
          reported = true;
        }
        watch[k] = value;
      }
      ++k;
    }
  }
  return hits;
}

void Debugger::record_hits(const std::vector<StopHit>& hits) {
  for (const auto& h : hits) {
    for (auto& b : breakpoints_)
      if (b.id == h.id) ++b.hits;
    for (auto& w : watchpoints_)
      if (w.id == h.id) ++w.hits;
    std::erase_if(breakpoints_, [&](const Breakpoint& b) { return b.id == h.id && b.temporary; });
  }
}

MoveResult Debugger::stop_at(uint64_t tick, std::vector<StopHit> hits) {
  MoveResult r = goto_tick(tick);
  r.reason = joined(hits);
  record_hits(hits);
  r.hits = std::move(hits);
  return r;
}

MoveResult Debugger::move(uint64_t from_tick, const Goal& goal, bool breakpoints,
                          EventSink* extra) {
  Execution ex(*this, from_tick, goal, breakpoints, extra);
  ++runs_;
  engine_.run(ex, ex);
  if (!ex.done())
    throw DebugError("the engine's run ended without reporting its end to the debugger");
  current_ = std::move(ex.snapshot_);
  history_ = std::move(ex.history_);
  record_hits(ex.hits_);
  return {ex.reason_, std::move(ex.messages_), std::move(ex.hits_)};
}

void Debugger::require_running() const {
  if (current_.ended)
    throw DebugError("the run has ended (use back, reverse-continue or run to restart)");
}

MoveResult Debugger::goto_tick(uint64_t target) {
  return move(
      target,
      [target](const PausePoint&, uint64_t tick) -> std::optional<std::string> {
        if (tick == target) return std::string("tick");
        return std::nullopt;
      },
      false);
}

MoveResult Debugger::restart() {
  MoveResult r = goto_tick(0);
  r.reason = "start of run";
  return r;
}

MoveResult Debugger::step(uint64_t n) {
  require_running();
  const uint64_t from = current_.tick;
  uint64_t count = 0;
  return move(
      from,
      [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
        if (tick > from && !p.native() && ++count == n) return std::string("step");
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::stepi(uint64_t n) {
  require_running();
  const uint64_t from = current_.tick;
  return move(
      from,
      [&](const PausePoint&, uint64_t tick) -> std::optional<std::string> {
        if (tick == from + n) return std::string("stepi");
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::next(uint64_t n) {
  MoveResult r;
  for (uint64_t i = 0; i < n; ++i) {
    require_running();
    const uint64_t from = current_.tick;
    const uint32_t depth = current_.depth;
    r = move(
        from,
        [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
          if (tick > from && !p.native() && p.depth() <= depth) return std::string("next");
          return std::nullopt;
        },
        true);
    if (r.reason != "next") break;
  }
  return r;
}

MoveResult Debugger::nexti(uint64_t n) {
  require_running();
  const uint64_t from = current_.tick;
  const uint32_t depth = current_.depth;
  uint64_t count = 0;
  return move(
      from,
      [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
        if (tick > from && p.depth() <= depth && ++count == n) return std::string("nexti");
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::until(std::optional<uint32_t> offset) {
  require_running();
  const uint64_t from = current_.tick;
  const uint32_t depth = current_.depth;
  const uint32_t here = current_.offset;  // inside native code: its block's bytecode offset
  return move(
      from,
      [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
        if (tick <= from || p.native() || p.ended() || p.depth() > depth) return std::nullopt;
        if (p.depth() < depth) return std::string("until: the fragment returned");
        if (offset ? p.offset() == *offset : p.offset() > here) return std::string("until");
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::finish() {
  require_running();
  if (current_.depth == 0)
    throw DebugError("finish: the outermost fragment has no caller to return to");
  const uint64_t from = current_.tick;
  const uint32_t depth = current_.depth;
  const uint32_t entry = current_.frames.empty() ? 0 : current_.frames.back().entry;
  return move(
      from,
      [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
        if (tick > from && !p.native() && p.depth() < depth)
          return fmt::format("finish: returned from the fragment at 0x{:04x}", entry);
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::native_finish() {
  require_running();
  const std::string native = vocabulary().native;
  if (native.empty()) throw DebugError(kNoNativeCode);
  if (!current_.native)
    throw DebugError(fmt::format("{0} finish: not inside an {0} block", native));
  const uint64_t from = current_.tick;
  const std::string reason = fmt::format("{} finish: back in the bytecode", native);
  return move(
      from,
      [&](const PausePoint& p, uint64_t tick) -> std::optional<std::string> {
        if (tick > from && !p.native()) return reason;
        return std::nullopt;
      },
      true);
}

MoveResult Debugger::cont() {
  require_running();
  return move(
      current_.tick, [](const PausePoint&, uint64_t) { return std::optional<std::string>(); },
      true);
}

MoveResult Debugger::back(uint64_t n) {
  uint64_t tick = current_.tick;
  uint64_t count = 0;
  while (tick > 0 && count < n) {
    --tick;
    if (!history_[tick].native) ++count;
  }
  MoveResult r = goto_tick(tick);
  r.reason = count < n ? "start of run (no earlier instruction)" : "back";
  return r;
}

MoveResult Debugger::reverse_next() {
  for (uint64_t t = current_.tick; t-- > 0;) {
    if (!history_[t].native && history_[t].depth <= current_.depth) {
      MoveResult r = goto_tick(t);
      r.reason = "reverse-next";
      return r;
    }
  }
  MoveResult r = goto_tick(0);
  r.reason = "start of run (no earlier instruction)";
  return r;
}

MoveResult Debugger::reverse_stepi(uint64_t n) {
  const uint64_t tick = current_.tick > n ? current_.tick - n : 0;
  MoveResult r = goto_tick(tick);
  r.reason = current_.tick == 0 && n > 0 ? "start of run" : "reverse-stepi";
  return r;
}

MoveResult Debugger::reverse_finish() {
  if (current_.depth == 0)
    throw DebugError("reverse-finish: the outermost fragment was not called");
  for (uint64_t t = current_.tick; t-- > 0;) {
    if (!history_[t].native && history_[t].depth < current_.depth) {
      MoveResult r = goto_tick(t);
      r.reason = "reverse-finish: at the call";
      return r;
    }
  }
  throw DebugError("reverse-finish: no call found in the history");
}

MoveResult Debugger::reverse_continue() {
  const uint64_t until = current_.tick;
  Goal scan = [until](const PausePoint&, uint64_t tick) -> std::optional<std::string> {
    if (tick >= until) return std::string("scanned");
    return std::nullopt;
  };
  Execution ex(*this, 0, scan, true, nullptr);
  ex.record_stops_until(until);
  ++runs_;
  engine_.run(ex, ex);
  if (interrupted()) {  // Ctrl-C during the scan: stay where it began
    MoveResult r = goto_tick(until);
    r.reason = kInterruptedReason;
    return r;
  }
  if (!ex.last_recorded_) {
    MoveResult r = goto_tick(0);
    r.reason = "start of run (no earlier breakpoint or watchpoint stop)";
    return r;
  }
  auto [tick, hits] = std::move(*ex.last_recorded_);
  return stop_at(tick, std::move(hits));
}

MoveResult Debugger::set(const std::string& assignment) {
  engine_.set(assignment);
  return restart();
}

int Debugger::add_breakpoint(Breakpoint b) {
  if (b.kind == BreakKind::kNativeEntry) {
    if (vocabulary().native.empty()) throw DebugError(kNoNativeCode);
    if (b.native.empty()) b.native = vocabulary().native;
  }
  b.id = next_id_++;
  breakpoints_.push_back(std::move(b));
  return breakpoints_.back().id;
}

int Debugger::add_watchpoint(const std::string& expression) {
  const auto& views = vocabulary().memory;
  Watchpoint w;
  w.expression = expression;
  const std::optional<ViewRow> row = split_view_row(expression);
  if (row) {
    const auto view = std::find_if(views.begin(), views.end(),
                                   [&](const MemoryViewInfo& v) { return v.name == row->view; });
    if (view == views.end()) {
      std::string names;
      for (const auto& v : views) names += (names.empty() ? "" : ", ") + v.name;
      throw std::invalid_argument(
          fmt::format("watch \"{}\": this engine has no memory view \"{}\" ({})", expression,
                      row->view, names.empty() ? "it has none" : "its views: " + names));
    }
    for (const auto& c : view->columns)
      w.names.push_back(fmt::format("{}[{}].{}", view->name, row->digits, c));
  } else if (is_lookup_name(expression)) {
    w.names.push_back(expression);
  } else {
    throw std::invalid_argument(fmt::format("watch \"{}\": expected a name or {}[N]", expression,
                                            views.empty() ? "VIEW" : views.front().name));
  }
  w.id = next_id_++;
  watchpoints_.push_back(std::move(w));
  return watchpoints_.back().id;
}

bool Debugger::remove(int id) {
  const auto nb = breakpoints_.size(), nw = watchpoints_.size();
  std::erase_if(breakpoints_, [id](const Breakpoint& b) { return b.id == id; });
  std::erase_if(watchpoints_, [id](const Watchpoint& w) { return w.id == id; });
  return nb != breakpoints_.size() || nw != watchpoints_.size();
}

bool Debugger::enable(int id, bool on) {
  for (auto& b : breakpoints_)
    if (b.id == id) return b.enabled = on, true;
  for (auto& w : watchpoints_)
    if (w.id == id) return w.enabled = on, true;
  return false;
}

bool Debugger::set_condition(int id, std::optional<Condition> c) {
  for (auto& b : breakpoints_)
    if (b.id == id) return b.condition = std::move(c), true;
  return false;
}

raster::Framebuffer Debugger::partial_frame(std::optional<uint8_t> background) {
  const auto [width, height] = engine_.frame_size();
  raster::Framebuffer frame(width, height, background.value_or(engine_.background()));
  FrameRenderer renderer(frame, engine_.frame_settings(), engine_.textures());
  const uint64_t target = current_.tick;
  move(
      target,
      [target](const PausePoint&, uint64_t tick) -> std::optional<std::string> {
        if (tick == target) return std::string("tick");
        return std::nullopt;
      },
      false, &renderer);
  return frame;
}

}  // namespace shapevm::harness
