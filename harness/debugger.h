// The debugger core, engine neutral (DESIGN.md: harness/). A position in a run is a "tick": the
// number of pause points (debug_engine.h) before it. Execution is deterministic, so every move —
// forwards or backwards — runs the program again from the start and stops at the wanted tick or
// at the first tick a goal accepts. Reverse execution is therefore exact by construction: the
// state at tick T is the same whichever way the debugger got there.
#pragma once

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
  std::string describe() const;
};

// Stops after an instruction changed a value (a name, or `VIEW[N]` for every column of a row of a
// memory view the engine declares).
struct Watchpoint {
  int id = 0;
  std::string expression;
  std::vector<std::string> names;
  bool enabled = true;
};

// A message an engine emitted between the start and the end of a move.
struct DebugMessage {
  uint64_t tick = 0;
  uint32_t offset = 0;
  DiagnosticLevel level = DiagnosticLevel::kWarning;
  std::string text;
};

struct MoveResult {
  std::string reason;  // why it stopped: "step", "breakpoint 1 (0x0042)", "end of run", ...
  std::vector<DebugMessage> messages;
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
  MoveResult finish();               // to the instruction after the current fragment returns
  MoveResult native_finish();        // out of the current native block (DebugError without one)
  MoveResult cont();                 // to a breakpoint, a watchpoint or the end
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
  std::optional<std::string> check_stops(const PausePoint& p, uint64_t tick, const Execution& ex,
                                         std::vector<std::optional<int64_t>>& watch_values);
  void require_running() const;

  DebugEngine& engine_;
  std::optional<DebugVocabulary> vocabulary_;
  Snapshot current_;
  std::vector<HistoryEntry> history_;  // ticks 0..current of the current run
  std::vector<Breakpoint> breakpoints_;
  std::vector<Watchpoint> watchpoints_;
  int next_id_ = 1;
  uint64_t runs_ = 0;
};

// "42", "-7", "0x2a": nullopt unless the whole text is one integer.
std::optional<int64_t> parse_integer(std::string_view text);

// The error for native-code commands on an engine that declares none.
inline constexpr const char* kNoNativeCode = "this engine has no native code";

// A value shown in a snapshot, by the names PausePoint::read takes.
std::optional<int64_t> snapshot_value(const Snapshot& s, std::string_view name);

}  // namespace shapevm::harness
