// The state options every command that runs a shape takes (DESIGN.md): --frame, --lod, --detail,
// --destroyed, --effects, --set NAME=VALUE, --camera distance,heading,pitch; plus the budgets.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "interp/fa/run_state.h"

namespace shapevm::tools {

struct RunOptions {
  uint32_t frame = 0;
  std::optional<uint32_t> lod;
  std::optional<uint16_t> detail;
  bool destroyed = false;
  uint32_t effects = 0;
  std::vector<std::string> sets;
  std::string camera;
  bool no_x86 = false;
  bool x86_trace = false;
  bool merged = false;
  uint64_t step_limit = fa::assumed::kDefaultStepLimit;
  uint32_t call_depth_limit = fa::assumed::kDefaultCallDepthLimit;
};

void add_run_options(CLI::App* cmd, RunOptions& options);

// Builds the FA run state; `frame_height` is scrh unless --set scrh= overrides it. Throws
// InputError on a malformed --camera or --set.
fa::RunState fa_run_state(const RunOptions& options, int32_t frame_height);

// The state as JSON, for the trace's first line.
nlohmann::json run_state_json(const fa::RunState& state);

}  // namespace shapevm::tools
