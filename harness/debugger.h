// The debugger core, engine neutral (DESIGN.md: harness/). A position in a run is a "tick": the
// number of pause points (debug_engine.h) before it. Execution is deterministic, so every move —
// forwards or backwards — runs the program again from the start and stops at the wanted tick or
// at the first tick a goal accepts. Reverse execution is therefore exact by construction: the
// state at tick T is the same whichever way the debugger got there.
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/debug_engine.h"
#include "raster/framebuffer.h"

namespace shapevm::harness {

// `NAME OP INTEGER` with OP one of == != < <= > >=; NAME as PausePoint::read takes it.
struct Condition {
  std::string name;
  std::string op;
  int64_t value = 0;
  bool holds(std::optional<int64_t> actual) const;
  std::string text() const;
};
// Throws std::invalid_argument with a message on malformed text.
Condition parse_condition(std::string_view text);

// A name PausePoint::read may take (what `watch`, `display` and conditions accept): a letter, '_',
// '@' or '$', then letters, digits and _ @ $ . [ ] +.
bool is_lookup_name(std::string_view text);

// VIEW[N], a memory view's row: the view's name (a lookup name without brackets or '+') and the
// row's decimal digits; nullopt for any other text.
struct ViewRow {
  std::string_view view;
  std::string_view digits;
};
std::optional<ViewRow> split_view_row(std::string_view text);

enum class BreakKind : uint8_t {
  kOffset,       // before the instruction at an offset (bytecode or native)
  kMnemonic,     // before any instruction with this mnemonic
  kOpcode,       // before any instruction with this opcode number
  kFace,         // after the face with this draw-order sequence number was drawn
  kNativeEntry,  // on entering native code (before its first instruction)
  kDiagnostic,   // after a diagnostic of at least this level
};

struct Breakpoint {
  int id = 0;
  BreakKind kind = BreakKind::kOffset;
  uint32_t number = 0;  // offset, opcode or face sequence
  std::string mnemonic;
  std::string native;  // kNativeEntry: the architecture's name (add_breakpoint fills it in)
  DiagnosticLevel level = DiagnosticLevel::kWarning;
  std::optional<Condition> condition;
  bool enabled = true;
  bool temporary = false;  // tbreak: deleted once it has stopped the debugger
  uint64_t hits = 0;       // how often it stopped the debugger (forwards or backwards)
  std::string describe() const;
};

// Stops after an instruction changed a value (a name, or `VIEW[N]` for every column of a row of a
// memory view the engine declares).
struct Watchpoint {
  int id = 0;
  std::string expression;
  std::vector<std::string> names;
  bool enabled = true;
  uint64_t hits = 0;
};

// A message an engine emitted between the start and the end of a move.
struct DebugMessage {
  uint64_t tick = 0;
  uint32_t offset = 0;
  DiagnosticLevel level = DiagnosticLevel::kWarning;
  std::string text;
};

// One breakpoint or watchpoint that holds at the stop: its id and how it is reported.
struct StopHit {
  int id = 0;
  std::string text;  // "breakpoint 1 (at 0x0042)", "watchpoint 2: pool[3].x 0 -> 5"
};

struct MoveResult {
  // Why it stopped: "step", "end of run", "interrupted", or the hits joined by "; " (breakpoints
  // first, so a reason starting with "breakpoint N" names the first breakpoint hit).
  std::string reason;
  std::vector<DebugMessage> messages;
  // Every breakpoint and watchpoint that holds at the stop: one instruction can reach a
  // breakpoint's offset and change a watched value at once, and both are reported.
  std::vector<StopHit> hits = {};
};

// Thrown by moves that make no sense at the current position (finish at the outermost level, ...).
class DebugError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Debugger {
 public:
  explicit Debugger(DebugEngine& engine);

  DebugEngine& engine() { return engine_; }
  // The engine's vocabulary (memory views, native code), asked once.
  const DebugVocabulary& vocabulary();
  const Snapshot& current() const { return current_; }
  uint64_t runs() const { return runs_; }  // program runs so far (each move is one or two)

  // Forward.
  MoveResult restart();              // to tick 0, before the first instruction
  MoveResult step(uint64_t n = 1);   // n bytecode instructions (breakpoints interrupt)
  MoveResult stepi(uint64_t n = 1);  // n pause points: native instructions inside blocks
  MoveResult next(uint64_t n = 1);   // like step, but a call runs to its return
  MoveResult nexti(uint64_t n = 1);  // n pause points, a call running to its return (gdb's ni)
  // gdb's until: to the next bytecode instruction past the current offset at this depth or above
  // (so a backward jump closing a loop runs the loop out), or, with an offset, to that offset at
  // this depth or above; either way also stops when the current fragment returns.
  MoveResult until(std::optional<uint32_t> offset = std::nullopt);
  MoveResult finish();         // to the instruction after the current fragment returns
  MoveResult native_finish();  // out of the current native block (DebugError without one)
  MoveResult cont();           // to a breakpoint, a watchpoint or the end
  // Backward, exact.
  MoveResult back(uint64_t n = 1);  // n bytecode instructions back
  MoveResult reverse_next();  // back over calls: to the previous instruction at this depth or above
  MoveResult reverse_stepi(uint64_t n = 1);
  MoveResult reverse_finish();    // to the call that entered the current fragment
  MoveResult reverse_continue();  // to the latest earlier breakpoint/watchpoint stop
  MoveResult goto_tick(uint64_t tick);

  // A global or input for the next runs, then a restart (breakpoints stay).
  MoveResult set(const std::string& assignment);

  // DebugError for kNativeEntry when the engine has no native code.
  int add_breakpoint(Breakpoint b);
  // A name or VIEW[N]; std::invalid_argument when malformed or VIEW is no declared view.
  int add_watchpoint(const std::string& expression);
  bool remove(int id);
  bool enable(int id, bool on);
  bool set_condition(int id, std::optional<Condition> c);

  // A flag a signal handler sets (Ctrl-C): while it is non-zero every move stops at the next pause
  // point with the reason "interrupted". nullptr: moves are not interruptible.
  void set_interrupt_flag(const volatile std::sig_atomic_t* flag) { interrupt_ = flag; }
  bool interrupted() const { return interrupt_ && *interrupt_ != 0; }
  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
  const std::vector<Watchpoint>& watchpoints() const { return watchpoints_; }

  // The frame drawn up to the current position (painter's order: every face emitted so far), on
  // the engine's default background unless one is given.
  raster::Framebuffer partial_frame(std::optional<uint8_t> background = std::nullopt);

 private:
  struct HistoryEntry {
    bool native = false;
    bool ended = false;
    uint32_t depth = 0;
  };
  // Decides at each pause after the start whether to stop there; returns the reason, or nullopt.
  using Goal = std::function<std::optional<std::string>(const PausePoint&, uint64_t tick)>;
  class Execution;

  MoveResult move(uint64_t from_tick, const Goal& goal, bool breakpoints,
                  EventSink* extra = nullptr);
  std::vector<StopHit> check_stops(const PausePoint& p, const Execution& ex,
                                   std::vector<std::optional<int64_t>>& watch_values);
  // Counts the hits of a stop and deletes the temporary breakpoints among them.
  void record_hits(const std::vector<StopHit>& hits);
  MoveResult stop_at(uint64_t tick, std::vector<StopHit> hits);
  void require_running() const;

  DebugEngine& engine_;
  std::optional<DebugVocabulary> vocabulary_;
  Snapshot current_;
  std::vector<HistoryEntry> history_;  // ticks 0..current of the current run
  std::vector<Breakpoint> breakpoints_;
  std::vector<Watchpoint> watchpoints_;
  int next_id_ = 1;
  uint64_t runs_ = 0;
  const volatile std::sig_atomic_t* interrupt_ = nullptr;
};

// "42", "-7", "0x2a": nullopt unless the whole text is one integer.
std::optional<int64_t> parse_integer(std::string_view text);

// The reason of a move stopped by the interrupt flag (Ctrl-C).
inline constexpr const char* kInterruptedReason = "interrupted";

// The error for native-code commands on an engine that declares none.
inline constexpr const char* kNoNativeCode = "this engine has no native code";

// A value shown in a snapshot, by the names PausePoint::read takes.
std::optional<int64_t> snapshot_value(const Snapshot& s, std::string_view name);

}  // namespace shapevm::harness
