// The regression runner's case renderer for every registered engine (case_engine.h): a case's
// file is opened through the engine registry (its "engine" forces the engine; assembler text is
// assembled in memory) and drawn by render_program exactly as `render` draws it. Programs are
// opened once per worker thread and reused for every case that names the same file.
#pragma once

#include "harness/case_engine.h"
#include "interp/common/state.h"

namespace shapevm::harness {

// One factory per registered engine, under its name.
EngineRegistry registered_case_engines();

// The shared state options a manifest case's state stands for.
StateRequest case_state_request(const RegressCase& c);

}  // namespace shapevm::harness
