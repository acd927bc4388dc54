#include "interp/apache/viewer_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace shapevm::apache {
namespace {

// When the programs cannot be walked: the low bits, which the examples and the generator use.
const std::vector<int64_t> kFallbackAnimValues = {1, 2, 4, 8, 16, 32};

}  // namespace

ApacheViewerModel::ApacheViewerModel(std::shared_ptr<Session> session, const StateRequest& opening)
    : session_(std::move(session)),
      record_(session_->record()),
      base_(apache::run_state(opening)),
      interp_(session_->archive(), session_->tables(), session_->textures()) {
  const Archive& archive = session_->archive();
  const StateAnalysis analysis = analyse_record(archive, record_);
  caps_.engine = "apache";
  caps_.source = session_->source();
  caps_.lod_levels = static_cast<uint32_t>(std::max<size_t>(1, analysis.lod_chain.size()));
  caps_.detail_levels = 1;
  caps_.animation_frames = 0;  // no frame counter: animation is the anim value
  caps_.frame_counter_modulus = 0;
  caps_.frame_rate = 0;
  if (analysis.anim_read || analysis.walk_failed) {
    ViewerInput anim;
    anim.name = "anim";
    anim.values = analysis.walk_failed && analysis.anim_values.empty() ? kFallbackAnimValues
                                                                       : analysis.anim_values;
    anim.engine_default = 0;
    caps_.inputs.push_back(std::move(anim));
    has_anim_input_ = true;
  }
  // Any record may hang in a slot except the model itself and its LOD records (a cycle).
  std::vector<int64_t> candidates;
  for (const auto& rec : archive.records()) {
    if (candidates.size() == kMaxSlotCandidates) break;
    if (std::find(analysis.lod_chain.begin(), analysis.lod_chain.end(), rec.index) ==
        analysis.lod_chain.end())
      candidates.push_back(rec.index);
  }
  for (uint32_t slot : analysis.slots) {
    ViewerInput in;
    in.name = fmt::format("slot{}", slot);
    in.values = candidates;
    in.engine_default = kEmptySlot;
    caps_.inputs.push_back(std::move(in));
    slot_of_input_.push_back(slot);
  }
}

ViewerState ApacheViewerModel::initial_state() const {
  ViewerState s;
  s.lod = base_.lod;
  const int64_t distance = interp_.camera_distance(session_->model(), base_);
  s.camera = {static_cast<int32_t>(std::min<int64_t>(distance, INT32_MAX)), base_.camera.heading,
              base_.camera.pitch};
  s.inputs.assign(caps_.inputs.size(), std::nullopt);
  auto index_of = [](const std::vector<int64_t>& values, int64_t v) -> std::optional<size_t> {
    const auto it = std::find(values.begin(), values.end(), v);
    if (it == values.end()) return std::nullopt;
    return static_cast<size_t>(it - values.begin());
  };
  size_t i = 0;
  if (has_anim_input_) s.inputs[i++] = index_of(caps_.inputs[0].values, base_.anim);
  for (uint32_t slot : slot_of_input_) {
    if (auto it = base_.slots.find(slot); it != base_.slots.end())
      s.inputs[i] = index_of(caps_.inputs[i].values, it->second);
    ++i;
  }
  return s;
}

RunState ApacheViewerModel::run_state(const ViewerState& v, int32_t height) const {
  RunState s = base_;
  s.height = std::max(1, height);
  s.width = std::max(1, s.height * 4 / 3);
  s.focal_pixels = s.height;
  s.lod = v.lod;
  s.camera = {std::max(0, v.camera.distance), v.camera.heading, v.camera.pitch};
  size_t i = 0;
  // No choice: the opening value (--set) if any, else the engine's (anim 0, the slot empty).
  if (has_anim_input_) {
    if (i < v.inputs.size() && v.inputs[i])
      s.anim = static_cast<uint32_t>(caps_.inputs[i].values.at(*v.inputs[i]));
    ++i;
  }
  for (uint32_t slot : slot_of_input_) {
    if (i < v.inputs.size() && v.inputs[i])
      s.slots[slot] = static_cast<uint32_t>(caps_.inputs[i].values.at(*v.inputs[i]));
    ++i;
  }
  return s;
}

ViewerRunResult ApacheViewerModel::run(const ViewerState& state, int32_t height, EventSink& sink) {
  const RunResult r = interp_.run(record_, run_state(state, height), sink);
  return {r.clean, r.reason};
}

std::string ApacheViewerModel::state_json(const ViewerState& state, int32_t height) const {
  return apache::state_json(run_state(state, height)).dump();
}

TextureLookup ApacheViewerModel::textures() {
  if (session_->textures() == nullptr) return {};
  return [session = session_](std::string_view name) { return session->find_texture(name); };
}

}  // namespace shapevm::apache
