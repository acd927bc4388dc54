// One FA frame for the benchmarks, drawn the way the benchmarks always drew it: a fresh
// interpreter for the shape, its run into the frame renderer.
#pragma once

#include "harness/frame_renderer.h"
#include "interp/fa/interpreter.h"

namespace shapevm::bench {

struct FaFrame {
  raster::Framebuffer frame;
  uint64_t faces_filled = 0;
};

inline FaFrame render_fa_frame(const fa::Shape& shape, const fa::RunState& state, int width,
                               int height) {
  FaFrame out{raster::Framebuffer(width, height, 0), 0};
  harness::FrameSettings settings;
  settings.focal_pixels = height;
  harness::FrameRenderer renderer(out.frame, settings);
  fa::Interpreter interp(shape);
  interp.run(state, renderer);
  out.faces_filled = renderer.faces_filled();
  return out;
}

}  // namespace shapevm::bench
