// The Starlancer engine's viewer model (interp/common/viewer_model.h): a loaded model with its
// levels of detail (forced globally, or chosen per part by distance), its animation clips (an
// input choosing one by name, played by the 25 Hz frame counter), the cap faces and the LOD rule
// as inputs, and the damaged-model parts behind the viewer's destroyed switch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interp/common/engine.h"
#include "interp/common/viewer_model.h"
#include "interp/shp/draw_assets.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

class ShpViewerModel : public ViewerModel {
 public:
  // InputError when `opening` is malformed or the palette or texture cache cannot be read.
  ShpViewerModel(std::shared_ptr<const Model> model, OpenOptions options, std::string source,
                 const StateRequest& opening);

  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override;
  ViewerRunResult run(const ViewerState& state, int32_t height, EventSink& sink) override;
  std::string state_json(const ViewerState& state, int32_t height) const override;
  const raster::Palette& palette() const override { return assets_->palette(); }
  TextureLookup textures() override;
  FrameSettings frame_settings(int32_t height) const override;

  // The state request a viewer state stands for (exposed for tests).
  StateRequest request(const ViewerState& state, int32_t height) const;
  // The clip names the clip input offers, in order (lower case, each once).
  const std::vector<std::string>& clip_names() const { return clip_names_; }

 private:
  std::shared_ptr<const Model> model_;
  OpenOptions options_;
  std::string source_;
  StateRequest opening_;
  std::shared_ptr<const DrawAssets> assets_;
  ViewerCapabilities caps_;
  std::vector<std::string> clip_names_;
};

}  // namespace shapevm::shp
