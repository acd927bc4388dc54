#include "tools/run_options.h"

#include <fmt/format.h>

#include "interp/common/input_error.h"

namespace shapevm::tools {

void add_run_options(CLI::App* cmd, RunOptions& o) {
  cmd->add_option("--frame", o.frame,
                  "The frame counter (_frameCounter, masked to 15 bits): JumpToFrame takes "
                  "slot frame mod nframes")
      ->capture_default_str();
  cmd->add_option("--lod", o.lod,
                  "LOD level: 0 = finest; level k is an apparent size just below the k-th largest "
                  "JumpToLOD threshold of the shape (overrides the camera distance)");
  cmd->add_option("--detail", o.detail,
                  "The detail preference (_detail); JumpToDetail branches when it is below the "
                  "site's threshold (default: maximum)");
  cmd->add_flag("--destroyed", o.destroyed, "Draw the destroyed state (_destroyed = 1)");
  cmd->add_option("--effects", o.effects, "The _effects word (0x20000 forces the finest LOD)")
      ->capture_default_str();
  cmd->add_option("--set", o.sets,
                  "NAME=VALUE for an engine global (_frameCounter, _detail, _effects, _destroyed, "
                  "_forceDestroyed, health, aspecty, scrh, sizeAdjust, record+OFF) or an import "
                  "such as _PLgearDown; repeatable")
      ->take_all();
  cmd->add_option("--camera", o.camera,
                  "distance,heading,pitch: shape units (0 = 3x the radius) and degrees");
  cmd->add_flag("--no-x86", o.no_x86,
                "Do not run embedded x86: step over each block to the end of its region (static)");
  cmd->add_flag(
      "--x86-trace", o.x86_trace,
      "Report every x86 instruction and every read of an import (trace: x86_insn, import_read)");
  cmd->add_flag(
      "--merged", o.merged,
      "All articulation variants at once: the base run with x86 stepped over, then the "
      "seed's reloc harvest (every relocation-pinned sub-stream; finest intact path only)");
  cmd->add_option("--max-steps", o.step_limit, "Budget: opcodes executed before the run is stopped")
      ->capture_default_str();
  cmd->add_option("--max-depth", o.call_depth_limit, "Budget: call depth")->capture_default_str();
}

fa::RunState fa_run_state(const RunOptions& o, int32_t frame_height) {
  fa::RunState s;
  s.frame = o.frame;
  s.lod = o.lod;
  if (o.detail) s.detail = *o.detail;
  s.destroyed = o.destroyed;
  s.effects = o.effects;
  s.scrh = frame_height;
  s.step_limit = o.step_limit;
  s.run_x86 = !o.no_x86;
  s.x86_trace = o.x86_trace;
  s.merged = o.merged;
  s.call_depth_limit = o.call_depth_limit;
  if (!o.camera.empty()) {
    int values[3] = {0, s.camera.heading, s.camera.pitch};
    size_t start = 0;
    int n = 0;
    while (start <= o.camera.size() && n < 3) {
      size_t comma = o.camera.find(',', start);
      std::string part =
          o.camera.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      try {
        size_t used = 0;
        values[n] = std::stoi(part, &used);
        if (used != part.size()) throw std::invalid_argument(part);
      } catch (const std::exception&) {
        throw InputError("--camera " + o.camera, "expected distance,heading,pitch as integers");
      }
      ++n;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (values[0] < 0)
      throw InputError("--camera " + o.camera, "the distance must not be negative");
    s.camera.distance = values[0];
    s.camera.heading = values[1];
    s.camera.pitch = values[2];
  }
  for (const auto& a : o.sets) fa::apply_set(s, a);
  return s;
}

nlohmann::json run_state_json(const fa::RunState& s) {
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
  if (!s.imports.empty()) j["imports"] = s.imports;
  return j;
}

}  // namespace shapevm::tools
