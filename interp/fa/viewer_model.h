// The FA viewer model (interp/common/viewer_model.h): maps the engine-neutral viewer state onto
// an FA run state (_frameCounter, --lod, _detail, _destroyed, _effects, the camera, articulation
// imports) and runs the shape with one interpreter kept for the whole session.
#pragma once

#include <memory>
#include <vector>

#include "interp/common/state.h"
#include "interp/common/viewer_model.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape.h"

namespace shapevm::fa {

// The FA frame counter is 15 bits: (c + 1) & 0x7FFF per rendered frame (FA-32).
inline constexpr uint32_t kFrameCounterModulus = 0x8000;
// The one traced _effects bit: 0x20000 forces the finest LOD (FA-46). The viewer's effects
// switch sets and clears it.
inline constexpr uint32_t kEffectsForceFinestLod = 0x20000;

class FaViewerModel : public ViewerModel {
 public:
  // `shape` must outlive the model. `opening` is the command line's state; `frames_per_second`
  // 0 = the assumed rate (interp/fa/assumptions.h). InputError on a malformed state.
  FaViewerModel(const Shape& shape, const StateRequest& opening, const WalkOptions& walk,
                RenderSetup render, double frames_per_second = 0);

  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override;
  ViewerRunResult run(const ViewerState& state, int32_t height, EventSink& sink) override;
  std::string state_json(const ViewerState& state, int32_t height) const override;
  const raster::Palette& palette() const override { return render_.palette; }
  TextureLookup textures() override { return render_.textures; }

  // The FA run state a viewer state stands for (exposed for tests).
  RunState run_state(const ViewerState& state, int32_t height) const;
  // _detail for each detail level: [0] = the opening value, then just below each distinct
  // non-zero JumpToDetail threshold, largest first (FA-45: branch when _detail < threshold).
  const std::vector<uint16_t>& detail_values() const { return detail_values_; }

 private:
  const Shape& shape_;
  StateRequest opening_;
  RunState base_;
  RenderSetup render_;
  std::unique_ptr<Interpreter> interp_;
  ViewerCapabilities caps_;
  std::vector<uint16_t> detail_values_;
};

}  // namespace shapevm::fa
