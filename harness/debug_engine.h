// What the debugger needs from an engine, engine neutral. An engine adapter (tools/ knows the
// engines; harness/ knows none) runs its program from the start, sends the event stream to a
// sink, and offers a "pause point" before every bytecode instruction, before every native
// instruction when the engine has embedded native code, and once at the end. At a pause the
// debugger may read values and take a snapshot; returning true ends the run. What the debugger
// shows — memory views, the native architecture's name — is the engine's DebugVocabulary.
//
// Execution is deterministic, so the debugger reaches any earlier or later point by running the
// program again from the start and counting pause points (debugger.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/frame_renderer.h"
#include "interp/common/events.h"
#include "interp/common/pause.h"
#include "raster/palette.h"

namespace shapevm::harness {

using ::shapevm::ColumnGroup;
using ::shapevm::DebugFrame;
using ::shapevm::DebugValue;
using ::shapevm::DebugVocabulary;
using ::shapevm::ListingLine;
using ::shapevm::memory_value;
using ::shapevm::MemoryRow;
using ::shapevm::MemoryView;
using ::shapevm::MemoryViewInfo;
using ::shapevm::NativeState;
using ::shapevm::parse_memory_name;
using ::shapevm::PauseHandler;
using ::shapevm::PausePoint;
using ::shapevm::resolve_memory_name;
using ::shapevm::Snapshot;

class DebugEngine {
 public:
  virtual ~DebugEngine() = default;
  virtual std::string_view engine() const = 0;  // "fa", "apache", ...
  virtual std::string source() const = 0;       // the program's file name
  // Runs the program from the start in the current state. Throws InputError on bad input.
  virtual void run(EventSink& sink, PauseHandler& pause) = 0;
  // What the program's pause points declare (PausePoint::vocabulary), the same for every run.
  // Default: runs the program to its first pause point and asks it.
  virtual DebugVocabulary vocabulary();
  // NAME=VALUE for a global or input of the next run. Throws InputError when malformed.
  virtual void set(const std::string& assignment) = 0;
  // The state options in effect, one line.
  virtual std::string describe_state() const = 0;
  virtual const std::vector<ListingLine>& listing() const = 0;
  // How partial frames are drawn: palette, renderer settings, textures, size.
  virtual raster::Palette palette() const = 0;
  virtual FrameSettings frame_settings() const = 0;
  virtual TextureLookup textures() const { return {}; }
  virtual std::pair<int, int> frame_size() const { return {640, 480}; }
  // The palette index frames are cleared to: the engine's default, as render and view use it.
  virtual uint8_t background() const { return 0; }
};

}  // namespace shapevm::harness
