// One FA frame: run the interpreter into the frame renderer. Shared by `render` and `examples`.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "harness/frame_renderer.h"
#include "interp/fa/interpreter.h"
#include "raster/framebuffer.h"
#include "tools/fa_textures.h"

namespace shapevm::tools {

struct FaFrame {
  raster::Framebuffer frame;
  fa::RunResult result;
  uint64_t faces_filled = 0;
  std::set<std::string> missing_textures;
};

FaFrame render_fa_frame(const fa::Shape& shape, const fa::RunState& state, int width, int height,
                        uint8_t background, FaTextures* textures, const fa::WalkOptions& walk = {});

// "640x480" -> {640, 480}; InputError unless both are 1..8192.
std::pair<int, int> parse_size(const std::string& text);

}  // namespace shapevm::tools
