// The Battle Isle 2 viewer model (interp/common/viewer_model.h): a mesh or a scene, the camera,
// and for a mesh one input per part ("partN": its turn about Y in degrees), so the viewer turns
// a turret. No frame counter, LOD, detail levels, destroyed or effects switch.
#pragma once

#include <memory>

#include "interp/bi2/run_state.h"
#include "interp/bi2/session.h"
#include "interp/common/state.h"
#include "interp/common/viewer_model.h"

namespace shapevm::bi2 {

// The Y angles a part input offers.
inline constexpr int kViewerPartStep = 45;

class Bi2ViewerModel : public ViewerModel {
 public:
  Bi2ViewerModel(std::shared_ptr<Session> session, const StateRequest& opening);
  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override;
  ViewerRunResult run(const ViewerState& state, int32_t height, EventSink& sink) override;
  std::string state_json(const ViewerState& state, int32_t height) const override;
  const raster::Palette& palette() const override { return session_->palette(); }
  TextureLookup textures() override { return {}; }
  RunState run_state(const ViewerState& state, int32_t height) const;

 private:
  std::shared_ptr<Session> session_;
  RunState base_;
  ViewerCapabilities caps_;
};

}  // namespace shapevm::bi2
