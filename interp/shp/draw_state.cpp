#include "interp/shp/draw_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "interp/shp/draw_assumptions.h"

namespace shapevm::shp {
namespace {

std::array<int32_t, 3> parse_light(const std::string& text, const std::string& context) {
  std::array<int32_t, 3> out{};
  size_t start = 0;
  for (size_t i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    if ((i < 2) != (comma != std::string::npos))
      throw InputError("--set " + context, "expected light=x,y,z");
    out[i] = static_cast<int32_t>(
        parse_integer(text.substr(start, comma - start), "--set " + context, -1000000, 1000000));
    start = comma + 1;
  }
  if (out[0] == 0 && out[1] == 0 && out[2] == 0)
    throw InputError("--set " + context, "expected a light direction that is not all zero");
  return out;
}

bool parse_flag(const std::string& text, const std::string& context) {
  return parse_integer(text, "--set " + context, 0, 1) != 0;
}

}  // namespace

DrawState parse_draw_state(const StateRequest& request) {
  DrawState s;
  s.width = request.width;
  s.height = request.height;
  s.light = assumed::kDefaultLight;
  s.camera_heading = assumed::kDefaultCameraHeading;
  s.camera_pitch = assumed::kDefaultCameraPitch;
  if (auto v = request.option("lod"))
    s.lod = static_cast<uint32_t>(parse_integer(*v, "--lod", 0, UINT32_MAX));
  if (auto v = request.option("frame"))
    s.frame = static_cast<uint32_t>(parse_integer(*v, "--frame", 0, UINT32_MAX));
  s.destroyed = request.flag("destroyed");
  if (auto v = request.option("camera")) {
    const auto c = parse_camera_option(*v, {0, s.camera_heading, s.camera_pitch});
    s.camera_distance = c[0];
    s.camera_heading = c[1];
    s.camera_pitch = std::clamp(c[2], -89, 89);
  }
  for (const std::string& assignment : request.sets) {
    const Setting set = split_assignment(assignment);
    if (set.name == "caps") {
      s.caps = parse_flag(set.value, assignment);
    } else if (set.name == "light") {
      s.light = parse_light(set.value, assignment);
    } else if (set.name == "clip") {
      s.clip = set.value;
    } else if (set.name == "lod") {
      s.lod = static_cast<uint32_t>(parse_integer(set.value, "--set " + assignment, 0, 8));
    } else if (set.name == "lod_rule") {
      if (set.value == "seed") {
        s.lod_rule = LodRule::kSeed;
      } else if (set.value == "ported") {
        s.lod_rule = LodRule::kPorted;
      } else {
        throw InputError("--set " + assignment, "expected lod_rule=seed or lod_rule=ported");
      }
    } else if (set.name == "prefix") {
      if (set.value == "g" || set.value == "r") {
        s.prefix = set.value;
      } else if (set.value == "none" || set.value.empty()) {
        s.prefix.clear();
      } else {
        throw InputError("--set " + assignment, "expected prefix=g, r or none");
      }
    } else if (set.name == "lightmaps") {
      s.lightmaps = parse_flag(set.value, assignment);
    } else {
      throw InputError("--set " + assignment,
                       "unknown Starlancer state name (caps, light, clip, lod, lod_rule, prefix, "
                       "lightmaps)");
    }
  }
  return s;
}

nlohmann::json draw_state_to_json(const DrawState& s) {
  nlohmann::json j;
  j["lod"] = s.lod ? nlohmann::json(*s.lod) : nlohmann::json(nullptr);
  j["lod_rule"] = s.lod_rule == LodRule::kSeed ? "seed" : "ported";
  j["caps"] = s.caps;
  j["destroyed"] = s.destroyed;
  j["camera"] = {s.camera_distance, s.camera_heading, s.camera_pitch};
  j["light"] = s.light;
  j["clip"] = s.clip;
  j["frame"] = s.frame;
  j["prefix"] = s.prefix.empty() ? "none" : s.prefix;
  j["lightmaps"] = s.lightmaps;
  j["width"] = s.width;
  j["height"] = s.height;
  return j;
}

std::vector<Knob> draw_state_knobs() {
  const auto& l = assumed::kDefaultLight;
  return {
      option_knob("lod", KnobType::kInteger, 0, 8, 0,
                  "force this level of detail in every part (default: by camera distance)"),
      option_knob("camera", KnobType::kCamera, 0, INT32_MAX, 0,
                  fmt::format("distance,heading,pitch or fit (defaults: the distance at which "
                              "the model fills the frame, {}, {})",
                              assumed::kDefaultCameraHeading, assumed::kDefaultCameraPitch)),
      option_knob("destroyed", KnobType::kFlag, 0, 1, 0,
                  "draw the damaged-model parts (part flag 0x04), hidden while intact"),
      option_knob("frame", KnobType::kInteger, 0, UINT32_MAX, 0,
                  "25 Hz steps into the clip chosen with --set clip=NAME"),
      set_knob("caps", KnobType::kFlag, 0, 1, 0, "draw cap faces (face flag bit 0)"),
      set_knob(
          "light", KnobType::kText, 0, 0, 0,
          fmt::format("x,y,z toward the light, model frame (default {},{},{})", l[0], l[1], l[2])),
      set_knob("clip", KnobType::kText, 0, 0, 0,
               "play the parts' clips of this name (case-insensitive) at --frame"),
      set_knob("lod", KnobType::kInteger, 0, 8, 0, "force this level of detail (as --lod)"),
      set_knob("lod_rule", KnobType::kText, 0, 0, 0,
               "seed (a level applies beyond its distance) or ported (its distance is an upper "
               "bound)"),
      set_knob("prefix", KnobType::kText, 0, 0, 0,
               "texture lookup context: g (loadout ships), r (loadout weapons), none (in flight)"),
      set_knob("lightmaps", KnobType::kFlag, 0, 1, 1,
               "the l<material> light-map pass of parts with flag 0x80"),
  };
}

}  // namespace shapevm::shp
