#include "harness/program_frame.h"

#include "harness/frame_renderer.h"

namespace shapevm::harness {

ProgramFrame render_program(Program& program, const StateRequest& state, uint8_t background) {
  RenderSetup setup = program.render_setup(state.width, state.height);
  ProgramFrame out{raster::Framebuffer(state.width, state.height, background),
                   std::move(setup.palette),
                   {},
                   0,
                   {}};
  FrameRenderer renderer(out.frame, setup.frame, setup.textures, state.limits);
  out.outcome = program.run(state, renderer);
  out.faces_filled = renderer.faces_filled();
  out.missing_textures = renderer.missing_textures();
  return out;
}

}  // namespace shapevm::harness
