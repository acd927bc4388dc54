#include "tools/viewer_fa.h"

#include <algorithm>

#include "interp/fa/assumptions.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::tools {

FaViewerEngine::FaViewerEngine(fa::Shape shape, const RunOptions& options,
                               const fa::WalkOptions& walk, raster::Palette palette,
                               std::optional<FaTextures> textures, double frames_per_second)
    : shape_(std::make_unique<fa::Shape>(std::move(shape))),
      options_(options),
      base_(fa_run_state(options, 480)),
      palette_(palette),
      textures_(std::move(textures)) {
  interp_ = std::make_unique<fa::Interpreter>(*shape_, walk);
  const fa::ShapeInfo info = fa::analyze_shape(*shape_, fa::walk_shape(*shape_, walk));

  caps_.engine = "fa";
  caps_.source = shape_->source();
  caps_.lod_levels = static_cast<uint32_t>(interp_->lod_thresholds().size()) + 1;
  detail_values_.push_back(base_.detail);
  for (auto it = info.detail_thresholds.rbegin(); it != info.detail_thresholds.rend(); ++it)
    if (*it > 0) detail_values_.push_back(static_cast<uint16_t>(*it - 1));
  caps_.detail_levels = static_cast<uint32_t>(detail_values_.size());
  caps_.animation_frames = info.max_frames;
  caps_.frame_counter_modulus = kFaFrameCounterModulus;
  caps_.frame_rate =
      frames_per_second > 0 ? frames_per_second : fa::assumed::kViewerFramesPerSecond;
  // Every data import the static articulation analysis found an x86 block reading (FA-20), with
  // one value per distinct selection of sub-streams the blocks' guards make, leaving out the value
  // the input already holds (that is the cycle's "default" step).
  for (const auto& [name, compared] : info.articulations.inputs) {
    harness::ViewerInput in;
    in.name = name;
    in.engine_default = fa::X86Runner::default_import_value(name, base_);
    for (int64_t v : info.articulations.distinct_values(name))
      if (v != in.engine_default) in.values.push_back(v);
    caps_.inputs.push_back(std::move(in));
  }
}

harness::ViewerState FaViewerEngine::initial_state() const {
  harness::ViewerState s;
  s.frame = base_.frame % kFaFrameCounterModulus;
  s.lod = base_.lod;
  s.detail_level = 0;
  s.destroyed = base_.destroyed_flag();
  s.effects = (base_.effects & kFaEffectsForceFinestLod) != 0;
  s.camera = {base_.camera.distance, base_.camera.heading, base_.camera.pitch};
  if (s.camera.distance <= 0)  // the interpreter's own default (interp/fa/assumptions.h)
    s.camera.distance =
        std::max<int32_t>(1, shape_->header.radius) * fa::assumed::kDefaultCameraRadiusMultiple;
  // Every input opens at its default: the value --set gave it, else the engine's.
  s.inputs.assign(caps_.inputs.size(), std::nullopt);
  return s;
}

fa::RunState FaViewerEngine::run_state(const harness::ViewerState& v, int32_t height) const {
  fa::RunState s = fa_run_state(options_, height);
  s.frame = v.frame;
  s.lod = v.lod;
  s.detail = detail_values_.at(std::min<size_t>(v.detail_level, detail_values_.size() - 1));
  // The viewer's switch decides; a health word or _forceDestroyed from --set is dropped with it.
  s.destroyed = v.destroyed;
  s.force_destroyed = false;
  s.effects =
      v.effects ? (s.effects | kFaEffectsForceFinestLod) : (s.effects & ~kFaEffectsForceFinestLod);
  s.camera = {v.camera.distance, v.camera.heading, v.camera.pitch};
  for (size_t i = 0; i < caps_.inputs.size() && i < v.inputs.size(); ++i) {
    const auto& in = caps_.inputs[i];
    // No choice: the opening value (--set) if any, else the engine's default for the import.
    if (v.inputs[i]) s.imports[in.name] = in.values.at(*v.inputs[i]);
  }
  return s;
}

harness::ViewerRunResult FaViewerEngine::run(const harness::ViewerState& state, int32_t height,
                                             EventSink& sink) {
  const fa::RunResult r = interp_->run(run_state(state, height), sink);
  return {r.clean, r.reason};
}

std::string FaViewerEngine::state_json(const harness::ViewerState& state, int32_t height) const {
  return run_state_json(run_state(state, height)).dump();
}

harness::TextureLookup FaViewerEngine::textures() {
  if (!textures_) return {};
  return [this](std::string_view name) { return textures_->find(name); };
}

}  // namespace shapevm::tools
