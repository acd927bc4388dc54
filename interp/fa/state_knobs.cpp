#include "interp/fa/state_knobs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "core/text_bytes.h"
#include "interp/fa/engine_globals.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::fa {

namespace {

Knob option(std::string name, KnobType type, int64_t min, int64_t max, int64_t def,
            std::string help) {
  return option_knob(std::move(name), type, min, max, def, std::move(help));
}

Knob global(std::string name, int64_t min, int64_t max, int64_t def, std::string help,
            bool prefix = false) {
  Knob k = set_knob(std::move(name), KnobType::kInteger, min, max, def, std::move(help));
  k.prefix = prefix;
  // The global's address in the original executable, so --set takes it for the name.
  if (const auto at = find_engine_address(k.name); at && at->kind == EngineAddressKind::kGlobal)
    k.address = at->address;
  return k;
}

}  // namespace

std::vector<Knob> engine_knobs() {
  const RunState d;
  return {
      option("frame", KnobType::kInteger, 0, UINT32_MAX, 0,
             "The frame counter (_frameCounter, masked to 15 bits): JumpToFrame takes slot frame "
             "mod nframes"),
      option("lod", KnobType::kInteger, 0, UINT32_MAX, 0,
             "LOD level: 0 = finest; level k is an apparent size just below the k-th largest "
             "JumpToLOD threshold (overrides the camera distance)"),
      option("detail", KnobType::kInteger, 0, 0xFFFF, d.detail,
             "The detail preference (_detail); JumpToDetail branches when it is below the site's "
             "threshold"),
      option("destroyed", KnobType::kFlag, 0, 1, 0, "Draw the destroyed state (_destroyed = 1)"),
      option("effects", KnobType::kInteger, 0, UINT32_MAX, 0,
             "The _effects word (0x20000 forces the finest LOD)"),
      option(
          "camera", KnobType::kCamera, 0, 0, 0,
          "distance,heading,pitch: shape units (0 or fit: the shape fills the frame) and degrees"),
      option("no-x86", KnobType::kFlag, 0, 1, 0,
             "Step over each embedded x86 block to the end of its region (static)"),
      option("x86-trace", KnobType::kFlag, 0, 1, 0,
             "Report every x86 instruction and every read of an import"),
      option("no-memo", KnobType::kFlag, 0, 1, 0,
             "Run every x86 guard block, even when its outcome for the same inputs is known"),
      option("merged", KnobType::kFlag, 0, 1, 0,
             "All articulation variants at once (the seed's reloc harvest)"),
      option("switch-dispatch", KnobType::kFlag, 0, 1, 0,
             "Dispatch through the portable switch instead of threaded code"),
      option("objend", KnobType::kText, 0, 0, 0,
             "How PtrToObjEnd's operand is read: absolute (the seed) or relative"),
      option("max-steps", KnobType::kInteger, 1, INT64_MAX,
             static_cast<int64_t>(assumed::kDefaultStepLimit),
             "Budget: opcodes executed before the run is stopped"),
      option("max-depth", KnobType::kInteger, 1, UINT32_MAX, assumed::kDefaultCallDepthLimit,
             "Budget: call depth"),
      global("_frameCounter", 0, UINT32_MAX, 0, "The frame counter (masked to 15 bits)"),
      global("_detail", 0, 0xFFFF, d.detail, "The detail preference"),
      global("_effects", 0, UINT32_MAX, 0, "The effects word (0x20000 forces the finest LOD)"),
      global("_destroyed", 0, 1, 0, "The destroyed flag"),
      global("_forceDestroyed", 0, 1, 0, "Forces the destroyed state (FA-44)"),
      global("health", 0, 0xFFFF, 0, "The object record's health word (+0x0E); 0 = destroyed"),
      global("aspecty", INT32_MIN, INT32_MAX, d.aspecty, "The view's y aspect"),
      global("scrh", 1, INT32_MAX, d.scrh, "The screen height (default: the frame's)"),
      global("sizeAdjust", INT32_MIN, INT32_MAX, d.size_adjust, "The LOD size adjustment"),
      global("record+", 0, 0xFFFF, 0, "record+OFF=VALUE: a word of the object record", true),
      global("_v+", 0, 0xFFFF, 0, "_v+OFF=VALUE: a word of the object record", true),
  };
}

std::vector<Knob> shape_knobs(
    const Shape& shape, const std::vector<std::pair<std::string, std::vector<int64_t>>>& compared) {
  std::vector<Knob> out = engine_knobs();
  const RunState defaults;
  for (const auto& imp : shape.image.imports) {
    if (imp.is_function || imp.name == "_v") continue;
    Knob k =
        global(imp.name, INT64_MIN, INT64_MAX, X86Runner::default_import_value(imp.name, defaults),
               "An import the shape's x86 reads (its value in the sandbox)");
    k.from_file = true;
    for (const auto& [name, values] : compared)
      if (name == imp.name) k.values = values;
    out.push_back(std::move(k));
  }
  return out;
}

RunState run_state_for(const StateRequest& r) {
  RunState s;
  const auto integer = [&](const char* name, int64_t min, int64_t max) -> std::optional<int64_t> {
    const auto v = r.option(name);
    if (!v) return std::nullopt;
    return parse_integer(*v, fmt::format("--{}", name), min, max);
  };
  if (auto v = integer("frame", 0, UINT32_MAX)) s.frame = static_cast<uint32_t>(*v);
  if (auto v = integer("lod", 0, UINT32_MAX)) s.lod = static_cast<uint32_t>(*v);
  if (auto v = integer("detail", 0, 0xFFFF)) s.detail = static_cast<uint16_t>(*v);
  s.destroyed = r.flag("destroyed");
  if (auto v = integer("effects", 0, UINT32_MAX)) s.effects = static_cast<uint32_t>(*v);
  s.scrh = r.height;
  s.frame_width = r.width;
  s.frame_height = r.height;
  if (auto v = integer("max-steps", 1, INT64_MAX)) s.step_limit = static_cast<uint64_t>(*v);
  if (auto v = integer("max-depth", 1, UINT32_MAX)) s.call_depth_limit = static_cast<uint32_t>(*v);
  s.run_x86 = !r.flag("no-x86");
  s.x86_trace = r.flag("x86-trace");
  s.x86_memo = !r.flag("no-memo");
  s.merged = r.flag("merged");
  if (const auto camera = r.option("camera"); camera && !camera->empty()) {
    const auto c = parse_camera_option(*camera, {0, s.camera.heading, s.camera.pitch});
    s.camera.distance = c[0];
    s.camera.heading = c[1];
    s.camera.pitch = c[2];
  }
  for (const auto& a : r.sets) apply_set(s, a);
  return s;
}

WalkOptions walk_options_for(const StateRequest& r) {
  WalkOptions w;
  if (const auto v = r.option("objend")) {
    if (*v == "absolute") {
      w.obj_end_reading = ObjEndReading::kAbsolute;
    } else if (*v == "relative") {
      w.obj_end_reading = ObjEndReading::kRelative;
    } else {
      throw InputError("--objend " + *v, "expected absolute or relative");
    }
  }
  return w;
}

nlohmann::json run_state_json(const RunState& s, const ViewSetup& view) {
  nlohmann::json j = {{"frame", s.frame},
                      {"frame_counter", s.frame_counter()},
                      {"detail", s.detail},
                      {"effects", s.effects},
                      {"destroyed", s.destroyed_flag()},
                      {"camera", {s.camera.distance, s.camera.heading, s.camera.pitch}},
                      {"scrh", s.scrh},
                      {"aspecty", s.aspecty},
                      {"sizeAdjust", s.size_adjust}};
  if (s.lod) j["lod"] = *s.lod;
  if (!s.imports.empty()) {
    nlohmann::json imports = nlohmann::json::object();  // names from the file (text_bytes.h)
    for (const auto& [name, value] : s.imports) imports[latin1_to_utf8(name)] = value;
    j["imports"] = std::move(imports);
  }
  nlohmann::json globals = nlohmann::json::object();
  for (const auto& g : global_values(s, view))
    globals[std::string(g.global->name)] = {{"addr", format_engine_address(g.global->address)},
                                            {"value", g.value}};
  j["globals"] = std::move(globals);
  return j;
}

}  // namespace shapevm::fa
