// The FA engine's state, declared as data (interp/common/state.h): the shared state options it
// takes, the engine globals --set knows, and the imports a shape names; and the mapping from a
// StateRequest onto the RunState the interpreter runs in.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "interp/common/state.h"
#include "interp/fa/camera.h"
#include "interp/fa/run_state.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"

namespace shapevm::fa {

// The options and globals every FA shape takes.
std::vector<Knob> engine_knobs();
// engine_knobs() plus the shape's data imports (the x86 inputs such as _PLgearDown), each with
// the values the articulation analysis found it compared against.
std::vector<Knob> shape_knobs(
    const Shape& shape, const std::vector<std::pair<std::string, std::vector<int64_t>>>& compared);

// The RunState a request stands for (scrh = the request's height unless --set scrh= says
// otherwise). InputError on a malformed value.
RunState run_state_for(const StateRequest& request);
// --objend (read when a shape is opened: it changes the static walk).
WalkOptions walk_options_for(const StateRequest& request);

// The state as JSON, for the trace's first line, with "globals": every engine global of the
// address table (engine_globals.h) with its address and the value a run of a shape of header
// radius `radius` starts with: {"_detail": {"addr": "0x515EEE", "value": 65535}, ...}.
nlohmann::json run_state_json(const RunState& state, const ViewSetup& view);

}  // namespace shapevm::fa
