// The state an FA shape runs in: what the engine's globals hold for one draw (seed 000: the frame
// counter, detail, effects, destroyed, the view and the object record), chosen on the command
// line with the same options on every command (--frame, --lod, --detail, --destroyed, --effects,
// --set NAME=VALUE, --camera distance,heading,pitch).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "interp/fa/assumptions.h"
#include "interp/fa/camera.h"

namespace shapevm::fa {

struct RunState {
  uint32_t frame = 0;  // _frameCounter before masking to 15 bits
  uint16_t detail = assumed::kDefaultDetail;
  uint32_t effects = 0;  // _effects; 0x20000 forces the finest LOD
  bool destroyed = false;
  bool force_destroyed = false;  // _forceDestroyed
  std::optional<uint32_t> lod;   // a synthetic apparent size for LOD level k (seed, FA-50)
  CameraSpec camera{0, assumed::kDefaultCameraHeading, assumed::kDefaultCameraPitch};
  int32_t aspecty = assumed::kDefaultAspectY;
  int32_t size_adjust = assumed::kDefaultSizeAdjust;
  int32_t scrh = 480;  // the frame height unless set
  // The frame the run is drawn into (--size): the default camera distance frames the shape in it.
  int32_t frame_width = 640;
  int32_t frame_height = 480;
  // The object record OrderField (0x6C) reads a word from; +0x0E is the health word (FA-44).
  std::array<uint8_t, 0x100> object_record{};
  // Values for imports (x86 inputs such as _PLgearDown), kept for the sandbox.
  std::map<std::string, int64_t> imports;
  // Embedded x86: run it in the sandbox (default), or step over it statically (--no-x86).
  bool run_x86 = true;
  bool x86_trace = false;  // every x86 instruction and import read as events (slower)
  // Take a pure guard block's outcome from its earlier runs with the same inputs instead of
  // running it again (x86_guard_memo.h); --no-memo runs every block.
  bool x86_memo = true;
  // The seed's reloc-based sub-stream harvest: after the base run, walk every relocation target
  // in CODE it did not reach, so all articulation variants appear at once; an input set in
  // `imports` keeps only what its value selects (--merged; merged_harvest.h).
  bool merged = false;
  uint64_t step_limit = assumed::kDefaultStepLimit;
  uint32_t call_depth_limit = assumed::kDefaultCallDepthLimit;

  uint16_t frame_counter() const { return static_cast<uint16_t>(frame & 0x7FFF); }
  // _destroyed as ShapeSetup sets it: health word == 0 or the override (FA-44). Without an
  // explicit health word the --destroyed flag stands for it.
  bool destroyed_flag() const { return destroyed || force_destroyed; }
};

// Applies `NAME=VALUE` for an engine global (_frameCounter, _detail, _effects, _destroyed,
// _forceDestroyed, aspecty, scrh, sizeAdjust, health) or, for any other name, an import value.
// Throws InputError naming the option on a malformed value.
// NAME may also be a global's address in the original executable (0x515EEE or 515EEEh for
// _detail: engine_globals.h).
void apply_set(RunState& state, const std::string& assignment);

// The engine globals apply_set takes by name (the view globals xv..m9 come from --camera).
bool is_settable_global(std::string_view name);

}  // namespace shapevm::fa
