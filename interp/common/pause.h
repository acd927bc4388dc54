// What a debugger sees of an engine while a program runs (DESIGN.md: the run's optional pause
// handler). An engine offers a "pause point" before every bytecode instruction, before every
// native instruction when it has embedded native code, and once at the end. At a pause the
// handler may read values and take a snapshot; returning true ends the run. Engines implement
// PausePoint; the debugger (harness/) implements PauseHandler. What the debugger shows beyond
// registers and globals is what the engine declares in its DebugVocabulary: named memory views
// (tables read as NAME[N].COLUMN) and the architecture of its native code, if it has any.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm {

// One active call, innermost last in Snapshot::frames.
struct DebugFrame {
  uint32_t entry = 0;   // where the called fragment starts
  uint32_t call = 0;    // the calling instruction
  uint32_t resume = 0;  // where the caller continues
};

struct DebugValue {
  std::string name;
  int64_t value = 0;
  std::string text;  // shown instead of the number when set (a texture name, ...)
  // Where the original program keeps it (an engine global's address in the original executable),
  // when known: shown beside the name, and `print` takes it for the name.
  std::optional<uint32_t> address{};
  bool operator==(const DebugValue&) const = default;
};

// A row of a memory view: its index (a vertex pool slot, a vertex number) and one number per
// column of the view.
struct MemoryRow {
  uint32_t index = 0;
  std::vector<int64_t> values;
  bool operator==(const MemoryRow&) const = default;
};

// How a memory view's row is shown: `count` consecutive columns under one label ("source (x, y,
// z)"), each right-aligned in `width` characters on the debugger's command line.
struct ColumnGroup {
  std::string label;
  size_t count = 0;
  int width = 0;
  bool operator==(const ColumnGroup&) const = default;
};

// An engine's memory view as it declares it: its name is the debugger's command that lists it and
// the prefix of `NAME[N].COLUMN`, the names PausePoint::read takes for its numbers.
struct MemoryViewInfo {
  std::string name;                  // "pool"
  std::string help;                  // one line: what a row is
  std::string noun;                  // the rows, plural, in messages: "written pool slots"
  std::vector<std::string> columns;  // "x", "y", "z", "vx", "vy", "vz"
  std::vector<ColumnGroup> layout;   // empty: every column as COLUMN=VALUE
  bool operator==(const MemoryViewInfo&) const = default;
};

// A memory view's rows at one pause point.
struct MemoryView : MemoryViewInfo {
  std::vector<MemoryRow> rows;
  bool operator==(const MemoryView&) const = default;
};

// Inside an embedded native block: the instruction about to execute and the registers before it.
struct NativeState {
  std::string arch;  // the architecture, as DebugVocabulary::native names it ("x86")
  uint32_t address = 0;
  std::optional<uint32_t> offset;  // the same instruction in the program's address space
  std::string text;                // disassembly
  std::vector<DebugValue> registers;
  bool operator==(const NativeState&) const = default;
};

// Everything the debugger shows about one pause point; equal snapshots are equal states.
struct Snapshot {
  uint64_t tick = 0;   // pause points before this one in the run
  uint64_t steps = 0;  // bytecode instructions executed before this one
  uint32_t offset = 0;
  std::string mnemonic;
  uint32_t depth = 0;
  uint64_t faces = 0;
  std::vector<DebugFrame> frames;
  std::vector<DebugValue> registers;  // engine registers (object position, texture, ...)
  std::vector<DebugValue> globals;    // engine globals and inputs
  std::vector<MemoryView> memory;     // every view the engine declares, in its order
  std::optional<NativeState> native;
  bool ended = false;
  std::string end_reason;
  bool end_clean = true;
  bool operator==(const Snapshot&) const;
};

inline bool operator==(const DebugFrame& a, const DebugFrame& b) {
  return a.entry == b.entry && a.call == b.call && a.resume == b.resume;
}
inline bool Snapshot::operator==(const Snapshot& o) const {
  return tick == o.tick && steps == o.steps && offset == o.offset && mnemonic == o.mnemonic &&
         depth == o.depth && faces == o.faces && frames == o.frames && registers == o.registers &&
         globals == o.globals && memory == o.memory && native == o.native && ended == o.ended &&
         end_reason == o.end_reason && end_clean == o.end_clean;
}

// What an engine shows the debugger, declared once per program (PausePoint::vocabulary): its
// memory views, the name of its embedded native code's architecture, and its register names.
struct DebugVocabulary {
  std::string native;        // "x86"; "" when the engine has no native code
  std::string native_space;  // what NativeState::offset counts in ("CODE"); "" when none
  std::vector<MemoryViewInfo> memory;
  std::vector<std::string> register_names;         // Snapshot::registers
  std::vector<std::string> native_register_names;  // NativeState::registers
  bool operator==(const DebugVocabulary&) const = default;
};

// `NAME[N].COLUMN` taken apart, not yet checked against any declared view.
struct MemoryName {
  std::string_view view;
  uint32_t index = 0;
  std::string_view column;
};
inline std::optional<MemoryName> parse_memory_name(std::string_view name) {
  const size_t open = name.find('[');
  if (open == 0 || open == std::string_view::npos) return std::nullopt;
  size_t i = open + 1;
  uint64_t index = 0;
  const size_t digits = i;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && index <= 0xFFFFFFFF)
    index = index * 10 + static_cast<uint64_t>(name[i++] - '0');
  if (i == digits || index > 0xFFFFFFFF || name.substr(i, 2) != "].") return std::nullopt;
  const std::string_view column = name.substr(i + 2);
  if (column.empty()) return std::nullopt;
  return MemoryName{name.substr(0, open), static_cast<uint32_t>(index), column};
}

// Where `NAME[N].COLUMN` points among declared views (MemoryViewInfo or MemoryView): which view,
// which row index, which column.
struct MemoryRef {
  size_t view = 0;
  uint32_t index = 0;
  size_t column = 0;
};
template <class Views>
std::optional<MemoryRef> resolve_memory_name(std::string_view name, const Views& views) {
  const auto parsed = parse_memory_name(name);
  if (!parsed) return std::nullopt;
  size_t v = 0;
  for (const auto& view : views) {
    if (view.name == parsed->view) {
      for (size_t c = 0; c < view.columns.size(); ++c)
        if (view.columns[c] == parsed->column) return MemoryRef{v, parsed->index, c};
      return std::nullopt;
    }
    ++v;
  }
  return std::nullopt;
}

// A number of a captured view by `NAME[N].COLUMN`; nullopt when no such row or column.
inline std::optional<int64_t> memory_value(const std::vector<MemoryView>& views,
                                           std::string_view name) {
  const auto ref = resolve_memory_name(name, views);
  if (!ref) return std::nullopt;
  for (const auto& row : views[ref->view].rows)
    if (row.index == ref->index)
      return ref->column < row.values.size() ? std::optional<int64_t>(row.values[ref->column])
                                             : std::nullopt;
  return std::nullopt;
}

// The engine's state at one pause point, valid only during PauseHandler::pause.
class PausePoint {
 public:
  virtual ~PausePoint() = default;
  virtual uint32_t offset() const = 0;  // the bytecode instruction (inside native: its block's)
  virtual std::string_view mnemonic() const = 0;
  virtual uint32_t opcode() const = 0;
  virtual uint32_t depth() const = 0;
  virtual bool native() const = 0;  // before a native instruction
  // Inside native code: the instruction's offset in the program's address space, if it has one.
  virtual std::optional<uint32_t> native_offset() const = 0;
  virtual bool ended() const = 0;  // the run's end
  // A named value: a register, global or input, `NAME[N].COLUMN` of a memory view the engine
  // declares, a native register inside a native block. nullopt when it has none now.
  virtual std::optional<int64_t> read(std::string_view name) const = 0;
  // The full state; tick is filled in by the caller. Snapshot::memory holds every declared view.
  virtual Snapshot capture() const = 0;
  // What the engine shows, the same at every pause of a program (default: registers and globals
  // only, no memory views, no native code).
  virtual DebugVocabulary vocabulary() const { return {}; }
};

class PauseHandler {
 public:
  virtual ~PauseHandler() = default;
  // Return true to end the run. An engine may need to run on to its next bytecode pause before it
  // can stop (inside native code); it keeps calling pause, and the handler keeps returning true.
  virtual bool pause(const PausePoint& point) = 0;
};

// One line of the program listing the debugger shows (and serves to editors as the source).
struct ListingLine {
  std::optional<uint32_t> offset;  // the instruction on this line, if any
  bool native = false;             // a native (x86) instruction
  std::string text;
  // A native line's instruction as the listing writes it, with the program's own names for
  // relocated addresses (`cmp word ptr [_PLgearDown], 1`): the debugger shows this, never the
  // address the instruction happens to run at. Empty when the engine has no such text.
  std::string native_text = {};
};

}  // namespace shapevm
