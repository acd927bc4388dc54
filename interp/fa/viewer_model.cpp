#include "interp/fa/viewer_model.h"

#include <algorithm>

#include "interp/common/json_text.h"
#include "interp/fa/assumptions.h"
#include "interp/fa/shape_info.h"
#include "interp/fa/state_knobs.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::fa {

namespace {

StateRequest at_height(StateRequest r, int32_t height) {
  r.height = height;
  return r;
}

}  // namespace

FaViewerModel::FaViewerModel(const Shape& shape, const StateRequest& opening,
                             const WalkOptions& walk, RenderSetup render, double frames_per_second)
    : shape_(shape),
      opening_(opening),
      base_(run_state_for(at_height(opening, 480))),
      render_(std::move(render)) {
  // One walk, shared by the interpreter and the shape's analysis.
  const auto walked = std::make_shared<const WalkResult>(walk_shape(shape_, walk));
  interp_ = std::make_unique<Interpreter>(shape_, walked);
  const ShapeInfo info = analyze_shape(shape_, *walked);

  caps_.engine = "fa";
  caps_.source = shape_.source();
  caps_.lod_levels = static_cast<uint32_t>(interp_->lod_thresholds().size()) + 1;
  detail_values_.push_back(base_.detail);
  for (auto it = info.detail_thresholds.rbegin(); it != info.detail_thresholds.rend(); ++it)
    if (*it > 0) detail_values_.push_back(static_cast<uint16_t>(*it - 1));
  caps_.detail_levels = static_cast<uint32_t>(detail_values_.size());
  caps_.animation_frames = info.max_frames;
  caps_.frame_counter_modulus = kFrameCounterModulus;
  caps_.frame_rate = frames_per_second > 0 ? frames_per_second : assumed::kViewerFramesPerSecond;
  // Every data import the static articulation analysis found an x86 block reading (FA-20), with
  // one value per distinct selection of sub-streams the blocks' guards make, leaving out the value
  // the input already holds (that is the cycle's "default" step).
  for (const auto& [name, compared] : info.articulations.inputs) {
    ViewerInput in;
    in.name = name;
    in.engine_default = X86Runner::default_import_value(name, base_);
    for (int64_t v : info.articulations.distinct_values(name))
      if (v != in.engine_default) in.values.push_back(v);
    caps_.inputs.push_back(std::move(in));
  }
}

ViewerState FaViewerModel::initial_state() const {
  ViewerState s;
  s.frame = base_.frame % kFrameCounterModulus;
  s.lod = base_.lod;
  s.detail_level = 0;
  s.destroyed = base_.destroyed_flag();
  s.effects = (base_.effects & kEffectsForceFinestLod) != 0;
  s.camera = {base_.camera.distance, base_.camera.heading, base_.camera.pitch};
  if (s.camera.distance <= 0)  // the interpreter's own default: the camera that fits the shape
    s.camera.distance = interp_->fit_distance(base_.camera, opening_.width, opening_.height);
  // Every input opens at its default: the value --set gave it, else the engine's.
  s.inputs.assign(caps_.inputs.size(), std::nullopt);
  return s;
}

RunState FaViewerModel::run_state(const ViewerState& v, int32_t height) const {
  RunState s = run_state_for(at_height(opening_, height));
  s.frame = v.frame;
  s.lod = v.lod;
  s.detail = detail_values_.at(std::min<size_t>(v.detail_level, detail_values_.size() - 1));
  // The viewer's switch decides; a health word or _forceDestroyed from --set is dropped with it.
  s.destroyed = v.destroyed;
  s.force_destroyed = false;
  s.effects =
      v.effects ? (s.effects | kEffectsForceFinestLod) : (s.effects & ~kEffectsForceFinestLod);
  s.camera = {v.camera.distance, v.camera.heading, v.camera.pitch};
  for (size_t i = 0; i < caps_.inputs.size() && i < v.inputs.size(); ++i) {
    const auto& in = caps_.inputs[i];
    // No choice: the opening value (--set) if any, else the engine's default for the import.
    if (v.inputs[i]) s.imports[in.name] = in.values.at(*v.inputs[i]);
  }
  return s;
}

ViewerRunResult FaViewerModel::run(const ViewerState& state, int32_t height, EventSink& sink) {
  const RunResult r = interp_->run(run_state(state, height), sink);
  return {r.clean, r.reason};
}

std::string FaViewerModel::state_json(const ViewerState& state, int32_t height) const {
  const RunState run = run_state(state, height);
  return dump_json(run_state_json(run, interp_->shape_view(run)), -1, /*ascii=*/true);
}

}  // namespace shapevm::fa
