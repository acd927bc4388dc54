// Test helpers that open and render programs the way the commands do (through the engine
// registry), so tests compare against exactly what `render` draws.
#pragma once

#include <string>
#include <vector>

#include "harness/program_frame.h"
#include "interp/common/registry.h"

namespace shapevm::testing {

inline StateRequest state_with(std::vector<Setting> options = {},
                               std::vector<std::string> sets = {}, int width = 640,
                               int height = 480) {
  StateRequest r;
  r.options = std::move(options);
  r.sets = std::move(sets);
  r.width = width;
  r.height = height;
  return r;
}

inline harness::ProgramFrame render_spec(const std::string& spec, const StateRequest& state = {},
                                         uint8_t background = 0) {
  OpenOptions open;
  open.state = state;
  auto program = open_program(spec, open);
  validate_state(*program, state);
  return harness::render_program(*program, state, background);
}

}  // namespace shapevm::testing
