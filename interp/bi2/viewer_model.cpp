#include "interp/bi2/viewer_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "interp/bi2/draw.h"

namespace shapevm::bi2 {

Bi2ViewerModel::Bi2ViewerModel(std::shared_ptr<Session> session, const StateRequest& opening)
    : session_(std::move(session)) {
  const size_t parts = session_->kind() == Kind::kMesh ? session_->mesh().parts.size() : 0;
  base_ = bi2::run_state(opening, parts);
  (void)session_->instances();  // InputError now when there is nothing to draw
  caps_.engine = "bi2";
  caps_.source = session_->source();
  for (size_t i = 0; i < parts; ++i) {
    ViewerInput in;
    in.name = fmt::format("part{}", i);
    for (int a = 0; a < 360; a += kViewerPartStep) in.values.push_back(a);
    in.engine_default = 0;
    caps_.inputs.push_back(std::move(in));
  }
}

ViewerState Bi2ViewerModel::initial_state() const {
  ViewerState s;
  const int32_t distance =
      base_.camera.distance != 0
          ? base_.camera.distance
          : default_camera_distance(session_->instances(), base_.camera, base_.width, base_.height);
  s.camera = {distance, base_.camera.heading, base_.camera.pitch};
  s.inputs.assign(caps_.inputs.size(), std::nullopt);
  return s;
}

RunState Bi2ViewerModel::run_state(const ViewerState& v, int32_t height) const {
  RunState s = base_;
  s.height = std::max(1, height);
  s.width = std::max(1, s.height * 4 / 3);
  s.camera = {std::max(0, v.camera.distance), v.camera.heading, v.camera.pitch};
  for (size_t i = 0; i < caps_.inputs.size() && i < v.inputs.size(); ++i) {
    if (!v.inputs[i]) continue;
    s.poses[i].angles[1] = static_cast<int32_t>(caps_.inputs[i].values.at(*v.inputs[i]));
    s.posed[i] = true;
  }
  return s;
}

ViewerRunResult Bi2ViewerModel::run(const ViewerState& state, int32_t height, EventSink& sink) {
  const RunOutcome r = run_draw(session_->instances(), run_state(state, height), sink, nullptr);
  return {r.clean, r.reason};
}

std::string Bi2ViewerModel::state_json(const ViewerState& state, int32_t height) const {
  return bi2::state_json(run_state(state, height)).dump();
}

}  // namespace shapevm::bi2
