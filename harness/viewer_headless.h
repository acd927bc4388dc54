// The viewer without a window (`shapevm view --headless --frames N -o DIR`): N consecutive engine
// frames, one engine tick apart, each written as an indexed PNG. No window system is touched.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/viewer_session.h"

namespace shapevm::harness {

struct HeadlessFrame {
  std::filesystem::path file;
  uint32_t counter = 0;  // the engine frame counter it was drawn at
  ViewStats stats;
};

struct HeadlessReport {
  std::vector<HeadlessFrame> frames;
  double seconds = 0;  // wall time of the whole loop (render + PNG encode + write)
  bool all_clean = true;
};

// "frame_00000.png", ... in `dir` (created if missing). Existing files are an InputError before
// anything is written unless `overwrite`. The session's counter advances one frame after each.
HeadlessReport render_headless(ViewerSession& session, uint32_t frames,
                               const std::filesystem::path& dir, bool overwrite);

std::string headless_frame_name(uint32_t index);

}  // namespace shapevm::harness
