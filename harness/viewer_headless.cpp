#include "harness/viewer_headless.h"

#include <fmt/format.h>

#include <chrono>

#include "core/input_error.h"
#include "raster/png_io.h"

namespace shapevm::harness {

std::string headless_frame_name(uint32_t index) {
  return fmt::format("frame_{:05}.png", index);
}

HeadlessReport render_headless(ViewerSession& session, uint32_t frames,
                               const std::filesystem::path& dir, bool overwrite) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw InputError(dir.string(), "cannot create the output directory");
  if (!overwrite) {
    for (uint32_t i = 0; i < frames; ++i) {
      const auto path = dir / headless_frame_name(i);
      if (std::filesystem::exists(path))
        throw InputError(path.string(), "already exists (not overwritten; pass --force)");
    }
  }
  HeadlessReport report;
  report.frames.reserve(frames);
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < frames; ++i) {
    HeadlessFrame f;
    f.file = dir / headless_frame_name(i);
    f.counter = session.state().frame;
    raster::write_indexed_png(f.file, session.frame(), session.palette());
    f.stats = session.stats();
    report.all_clean = report.all_clean && f.stats.clean;
    report.frames.push_back(std::move(f));
    session.step_frames(1);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace shapevm::harness
