// One regression case: render it, load its capture and exclusions, compare pixel for pixel (and
// the palette colours), and with `update` re-bless the capture from our frame.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/case_engine.h"
#include "harness/regress_manifest.h"
#include "raster/frame_compare.h"

namespace shapevm::harness {

enum class CaseStatus {
  kPassed,   // identical outside the excluded pixels
  kFailed,   // rendered and compared: different
  kError,    // bad input: the shape, capture, mask or palette could not be used
  kUpdated,  // --update wrote our frame as the capture (it was different or missing)
};

const char* case_status_name(CaseStatus status);

struct CaseResult {
  const RegressCase* c = nullptr;
  CaseStatus status = CaseStatus::kError;
  std::string message;  // what differed, or the error; empty when passed
  std::vector<std::string> warnings;
  double seconds = 0;
  raster::FrameComparison pixels;
  raster::PaletteComparison palette;
  // Kept for the reports only when the case failed.
  std::optional<raster::Framebuffer> ours;
  raster::Palette ours_palette;
  std::optional<raster::Framebuffer> capture;
  raster::Palette capture_palette;
  std::optional<raster::Framebuffer> excluded;
  bool compared_by_colour = false;  // the capture was RGB: equal colours count as equal
};

class CaptureCache;

// `captures`, when given, decodes each capture once for all the run's cases that share it.
CaseResult check_case(const RegressCase& c, CaseRenderer& renderer, bool update,
                      CaptureCache* captures = nullptr);

}  // namespace shapevm::harness
