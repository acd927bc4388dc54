// One frame of any engine's program: run it for a state into the frame renderer with the render
// setup the engine gives (palette, textures, projection). Shared by `render`, `examples` and the
// regression runner, so every command draws the same bytes for the same state.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "interp/common/engine.h"
#include "raster/framebuffer.h"
#include "raster/palette.h"

namespace shapevm::harness {

struct ProgramFrame {
  raster::Framebuffer frame;
  raster::Palette palette;
  RunOutcome outcome;
  uint64_t faces_filled = 0;
  std::set<std::string> missing_textures;
};

ProgramFrame render_program(Program& program, const StateRequest& state, uint8_t background);

}  // namespace shapevm::harness
