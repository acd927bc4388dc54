// The state one Battle Isle 2 draw runs in: each part's runtime angles and translation
// (--set part0=ax,ay,az, --set part0.t=x,y,z), the camera, the frame and the budget; and the
// knobs that declare them (interp/common/state.h).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "interp/bi2/transform.h"
#include "interp/common/state.h"

namespace shapevm::bi2 {

struct RunState {
  std::vector<PartPose> poses;  // by part; missing parts keep their on-disk pose
  std::vector<bool> posed;      // poses[i] was set by --set
  CameraSpec camera;            // distance 0 = from the model's size
  int32_t width = 640, height = 480;
  uint64_t step_limit = 0;
};

// The engine's knobs: --camera, --objects, --max-steps and the part prefix.
std::vector<Knob> engine_knobs();
// InputError for an option the engine does not take, a part index at or beyond `part_count`,
// or a malformed value.
RunState run_state(const StateRequest& request, size_t part_count);
nlohmann::json state_json(const RunState& state);

}  // namespace shapevm::bi2
