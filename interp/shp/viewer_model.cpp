#include "interp/shp/viewer_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>

#include "interp/shp/draw.h"
#include "interp/shp/draw_assumptions.h"
#include "interp/shp/draw_setup.h"
#include "interp/shp/draw_state.h"
#include "interp/shp/pose.h"

namespace shapevm::shp {
namespace {

constexpr size_t kClipInput = 0, kCapsInput = 1, kLodRuleInput = 2;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The opening's --set assignments without the names the viewer's inputs own.
std::vector<std::string> sets_without(const std::vector<std::string>& sets,
                                      std::initializer_list<std::string_view> names) {
  std::vector<std::string> out;
  for (const std::string& s : sets) {
    const std::string name = s.substr(0, s.find('='));
    if (std::find(names.begin(), names.end(), name) == names.end()) out.push_back(s);
  }
  return out;
}

}  // namespace

ShpViewerModel::ShpViewerModel(std::shared_ptr<const Model> model, OpenOptions options,
                               std::string source, const StateRequest& opening)
    : model_(std::move(model)),
      options_(std::move(options)),
      source_(std::move(source)),
      opening_(opening),
      assets_(load_draw_assets(options_.palette, options_.textures, input_path_of(source_))) {
  (void)parse_draw_state(opening_);  // a malformed opening fails here, not in the first frame
  caps_.engine = "shp";
  caps_.source = source_;
  size_t levels = 1;
  int64_t longest = 0;
  for (const Part& part : model_->parts) {
    levels = std::max(levels, part.levels.size());
    for (const Clip& clip : part.clips) {
      longest = std::max<int64_t>(longest, clip.length);
      const std::string name = lower(clip.name);
      if (std::find(clip_names_.begin(), clip_names_.end(), name) == clip_names_.end())
        clip_names_.push_back(name);
    }
  }
  caps_.lod_levels = static_cast<uint32_t>(levels);
  caps_.detail_levels = 1;
  // Ping-pong clips take twice their length to come back.
  caps_.animation_frames = static_cast<uint32_t>(std::min<int64_t>(longest * 2, UINT32_MAX));
  caps_.frame_counter_modulus = 0;
  caps_.frame_rate = 25;
  ViewerInput clip{"clip", {}, -1};
  for (size_t i = 0; i < clip_names_.size(); ++i) clip.values.push_back(static_cast<int64_t>(i));
  caps_.inputs.push_back(std::move(clip));
  caps_.inputs.push_back({"caps", {0, 1}, 0});
  caps_.inputs.push_back({"lod_rule", {0, 1}, 0});
}

ViewerState ShpViewerModel::initial_state() const {
  const DrawState s = parse_draw_state(opening_);
  ViewerState v;
  v.lod = s.lod;
  v.destroyed = s.destroyed;
  v.frame = s.frame;
  const CameraFit fit = fit_camera(*model_, place_parts(*model_, s), s);
  v.camera = {static_cast<int32_t>(std::clamp<int64_t>(
                  fit.camera.distance / assumed::kViewUnitsPerModelUnit, 1, INT32_MAX)),
              s.camera_heading, s.camera_pitch};
  v.inputs.assign(caps_.inputs.size(), std::nullopt);
  if (!s.clip.empty()) {
    const auto it = std::find(clip_names_.begin(), clip_names_.end(), lower(s.clip));
    if (it != clip_names_.end())
      v.inputs[kClipInput] = static_cast<size_t>(it - clip_names_.begin());
  }
  if (s.caps) v.inputs[kCapsInput] = 1;
  if (s.lod_rule == LodRule::kPorted) v.inputs[kLodRuleInput] = 1;
  return v;
}

StateRequest ShpViewerModel::request(const ViewerState& v, int32_t height) const {
  StateRequest r = opening_;
  r.height = std::max(1, height);
  r.width = std::max(1, r.height * 4 / 3);
  std::erase_if(r.options, [](const Setting& s) { return s.name == "lod"; });
  if (v.lod) r.set_option("lod", std::to_string(*v.lod));
  r.set_option("frame", std::to_string(v.frame));
  r.set_option("destroyed", v.destroyed ? "1" : "0");
  r.set_option("camera", fmt::format("{},{},{}", std::max(1, v.camera.distance), v.camera.heading,
                                     v.camera.pitch));
  r.sets = sets_without(opening_.sets, {"clip", "caps", "lod_rule", "lod"});
  auto chosen = [&](size_t input) -> std::optional<size_t> {
    return input < v.inputs.size() ? v.inputs[input] : std::nullopt;
  };
  if (auto c = chosen(kClipInput); c && *c < clip_names_.size())
    r.sets.push_back("clip=" + clip_names_[*c]);
  if (auto c = chosen(kCapsInput); c && *c == 1) r.sets.push_back("caps=1");
  if (auto c = chosen(kLodRuleInput); c && *c == 1) r.sets.push_back("lod_rule=ported");
  return r;
}

ViewerRunResult ShpViewerModel::run(const ViewerState& state, int32_t height, EventSink& sink) {
  DrawContext ctx(sink);
  ctx.source = source_;
  ctx.options = &options_;
  ctx.max_steps = std::numeric_limits<uint64_t>::max();
  const RunOutcome out = draw_model(*model_, request(state, height), ctx);
  return {out.clean, out.reason};
}

std::string ShpViewerModel::state_json(const ViewerState& state, int32_t height) const {
  return draw_state_to_json(parse_draw_state(request(state, height))).dump();
}

TextureLookup ShpViewerModel::textures() {
  if (assets_->cache() == nullptr) return {};
  return [assets = assets_](std::string_view name) { return assets->texture(name); };
}

FrameSettings ShpViewerModel::frame_settings(int32_t height) const {
  return shp_frame_settings(height);
}

}  // namespace shapevm::shp
