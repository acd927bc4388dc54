// The FA engine adapter for the viewer: maps the engine-neutral viewer state onto an FA run state
// (_frameCounter, --lod, _detail, _destroyed, _effects, the camera, articulation imports) and
// runs the shape with one interpreter kept for the whole session.
#pragma once

#include <memory>
#include <optional>

#include "harness/viewer_engine.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape.h"
#include "interp/fa/shape_info.h"
#include "tools/fa_textures.h"
#include "tools/run_options.h"

namespace shapevm::tools {

// The FA frame counter is 15 bits: (c + 1) & 0x7FFF per rendered frame (FA-32).
inline constexpr uint32_t kFaFrameCounterModulus = 0x8000;
// The one traced _effects bit: 0x20000 forces the finest LOD (FA-46). The viewer's effects
// switch sets and clears it.
inline constexpr uint32_t kFaEffectsForceFinestLod = 0x20000;

class FaViewerEngine : public harness::ViewerEngine {
 public:
  // `options` give the opening state (as on every command); `frames_per_second` 0 = the assumed
  // rate (interp/fa/assumptions.h). `textures` may be empty.
  FaViewerEngine(fa::Shape shape, const RunOptions& options, const fa::WalkOptions& walk,
                 raster::Palette palette, std::optional<FaTextures> textures,
                 double frames_per_second = 0);

  const harness::ViewerCapabilities& capabilities() const override { return caps_; }
  harness::ViewerState initial_state() const override;
  harness::ViewerRunResult run(const harness::ViewerState& state, int32_t height,
                               EventSink& sink) override;
  std::string state_json(const harness::ViewerState& state, int32_t height) const override;
  const raster::Palette& palette() const override { return palette_; }
  harness::TextureLookup textures() override;

  // The FA run state a viewer state stands for (exposed for tests).
  fa::RunState run_state(const harness::ViewerState& state, int32_t height) const;
  // _detail for each detail level: [0] = the opening value, then just below each distinct
  // non-zero JumpToDetail threshold, largest first (FA-45: branch when _detail < threshold).
  const std::vector<uint16_t>& detail_values() const { return detail_values_; }

 private:
  std::unique_ptr<fa::Shape> shape_;  // stable address: the interpreter keeps a reference
  RunOptions options_;
  fa::RunState base_;
  raster::Palette palette_;
  std::optional<FaTextures> textures_;
  std::unique_ptr<fa::Interpreter> interp_;
  harness::ViewerCapabilities caps_;
  std::vector<uint16_t> detail_values_;
};

}  // namespace shapevm::tools
