// What a debugger sees of an engine while a program runs (DESIGN.md: the run's optional pause
// handler). An engine offers a "pause point" before every bytecode instruction, before every
// native instruction when it has embedded native code, and once at the end. At a pause the
// handler may read values and take a snapshot; returning true ends the run. Engines implement
// PausePoint; the debugger (harness/) implements PauseHandler.
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
  bool operator==(const DebugValue&) const = default;
};

struct DebugPoolEntry {
  uint32_t index = 0;
  std::array<int32_t, 3> source{};       // as the program gave it
  std::array<int32_t, 3> transformed{};  // in view space
  bool operator==(const DebugPoolEntry&) const = default;
};

// Inside an embedded native block: the instruction about to execute and the registers before it.
struct NativeState {
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
  std::vector<DebugPoolEntry> pool;   // written slots only
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
         globals == o.globals && pool == o.pool && native == o.native && ended == o.ended &&
         end_reason == o.end_reason && end_clean == o.end_clean;
}

// `pool[N].x|y|z|vx|vy|vz`: the slot and which number (0..2 source x,y,z; 3..5 transformed).
struct PoolName {
  uint32_t index = 0;
  int component = 0;
};
inline std::optional<PoolName> parse_pool_name(std::string_view name) {
  constexpr std::string_view kPrefix = "pool[";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  size_t i = kPrefix.size();
  uint64_t index = 0;
  const size_t digits = i;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && index < 0xFFFFFFFF)
    index = index * 10 + static_cast<uint64_t>(name[i++] - '0');
  if (i == digits || index > 0xFFFFFFFF || name.substr(i, 2) != "].") return std::nullopt;
  const std::string_view c = name.substr(i + 2);
  static constexpr std::string_view kComponents[] = {"x", "y", "z", "vx", "vy", "vz"};
  for (int k = 0; k < 6; ++k)
    if (c == kComponents[k]) return PoolName{static_cast<uint32_t>(index), k};
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
  // A named value: a register, global or input, `pool[N].x|y|z` (source) or `.vx|vy|vz`
  // (transformed), a native register inside a native block. nullopt when it has none now.
  virtual std::optional<int64_t> read(std::string_view name) const = 0;
  // The full state; tick is filled in by the caller.
  virtual Snapshot capture() const = 0;
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
};

}  // namespace shapevm
