#include "interp/bi2/run_state.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/input_error.h"
#include "interp/bi2/assumptions.h"

namespace shapevm::bi2 {
namespace {

Vec3 parse_triple(const std::string& text, const std::string& what) {
  Vec3 out{};
  std::stringstream in(text);
  std::string item;
  size_t n = 0;
  while (std::getline(in, item, ',')) {
    if (n == 3) throw InputError(what, "expected three integers X,Y,Z");
    out[n++] = static_cast<int32_t>(parse_integer(item, what, -32768, 32767));
  }
  if (n != 3) throw InputError(what, "expected three integers X,Y,Z");
  return out;
}

}  // namespace

std::vector<Knob> engine_knobs() {
  Knob part = set_knob("part", KnobType::kText, 0, 0, 0,
                       "partN=AX,AY,AZ: part N's angles in degrees (applied Z, then X, then Y, "
                       "about its pivot); partN.t=X,Y,Z: its translation, added after");
  part.prefix = true;
  return {
      option_knob("camera", KnobType::kCamera, 0, INT32_MAX, 0,
                  fmt::format("distance,heading,pitch or fit (defaults: the distance at which "
                              "the model fills the frame, {}, {})",
                              assumed::kDefaultCameraHeading, assumed::kDefaultCameraPitch)),
      option_knob("objects", KnobType::kText, 0, 0, 0,
                  "a 3DLD record's terrain archive (LAND000.LIB); object id N is its member #N "
                  "(default: LAND000.LIB beside the record's archive, else that archive)"),
      option_knob("max-steps", KnobType::kInteger, 1, INT64_MAX,
                  static_cast<int64_t>(assumed::kDefaultStepLimit),
                  "budget: polygons drawn before the run is stopped"),
      std::move(part),
  };
}

RunState run_state(const StateRequest& request, size_t part_count) {
  RunState s;
  s.width = request.width;
  s.height = request.height;
  s.camera = {0, assumed::kDefaultCameraHeading, assumed::kDefaultCameraPitch};
  s.step_limit = assumed::kDefaultStepLimit;
  s.poses.resize(part_count);
  s.posed.assign(part_count, false);
  for (const Setting& o : request.options) {
    if (o.name != "camera" && o.name != "objects" && o.name != "max-steps") {
      throw InputError("--" + o.name,
                       "the bi2 engine does not take this option (it takes --camera, --objects, "
                       "--max-steps and --set partN=..., partN.t=...)");
    }
  }
  if (const auto v = request.option("camera")) {
    const auto c = parse_camera_option(*v, {s.camera.distance, s.camera.heading, s.camera.pitch});
    s.camera = {c[0], c[1], c[2]};
  }
  if (const auto v = request.option("max-steps"))
    s.step_limit = static_cast<uint64_t>(parse_integer(*v, "--max-steps " + *v, 1, INT64_MAX));
  for (const std::string& assignment : request.sets) {
    const Setting set = split_assignment(assignment);
    const std::string what = "--set " + assignment;
    if (set.name.rfind("part", 0) != 0) throw InputError(what, "expected partN or partN.t");
    std::string rest = set.name.substr(4);
    const bool translation = rest.size() > 2 && rest.substr(rest.size() - 2) == ".t";
    if (translation) rest.resize(rest.size() - 2);
    const auto index = static_cast<size_t>(parse_integer(rest, what, 0, 0xFFFF));
    if (index >= part_count) {
      throw InputError(what, fmt::format("the mesh has {} parts (part0..part{})", part_count,
                                         part_count == 0 ? 0 : part_count - 1));
    }
    const Vec3 v = parse_triple(set.value, what);
    if (translation)
      s.poses[index].translation = v;
    else
      s.poses[index].angles = v;
    s.posed[index] = true;
  }
  return s;
}

nlohmann::json state_json(const RunState& s) {
  nlohmann::json parts = nlohmann::json::array();
  for (size_t i = 0; i < s.poses.size(); ++i)
    if (s.posed[i])
      parts.push_back(
          {{"part", i}, {"angles", s.poses[i].angles}, {"translation", s.poses[i].translation}});
  return {{"camera", {s.camera.distance, s.camera.heading, s.camera.pitch}},
          {"parts", parts},
          {"size", {s.width, s.height}},
          {"max_steps", s.step_limit}};
}

}  // namespace shapevm::bi2
