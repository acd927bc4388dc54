// The picture of a comparison, for people: the capture, our frame and a highlighted difference
// side by side. RGB because the two frames may be shown with different palettes and the highlight
// colours must not depend on what a game palette happens to contain.
#pragma once

#include "raster/frame_compare.h"
#include "raster/framebuffer.h"
#include "raster/palette.h"
#include "raster/png_io.h"

namespace shapevm::raster {

// Highlight colours (this project's choice): differing pixels red, pixels with the same index but
// a different palette colour yellow, excluded pixels dark blue; everything else is our frame in
// dimmed grey so the eye finds the differences and still sees the shape.
inline constexpr Rgb kDiffPixelColour{255, 0, 0};
inline constexpr Rgb kDiffPaletteColour{255, 255, 0};
inline constexpr Rgb kDiffExcludedColour{0, 0, 128};
// Fills the gaps between panels and any area outside a smaller frame.
inline constexpr Rgb kDiffBackgroundColour{64, 64, 64};
inline constexpr int kDiffPanelGap = 4;

struct DiffInput {
  const Framebuffer* expected = nullptr;  // the capture
  const Palette* expected_palette = nullptr;
  const Framebuffer* actual = nullptr;  // ours
  const Palette* actual_palette = nullptr;
  CompareOptions options;  // the same rule the comparison used (exclusions, same colour)
};

// A frame shown through its palette.
RgbImage frame_to_rgb(const Framebuffer& frame, const Palette& palette);

// The highlight panel alone, max(width) x max(height) of the two frames; where only one frame has
// pixels, they count as differing.
RgbImage difference_panel(const DiffInput& input);

// capture | ours | difference, separated by kDiffPanelGap columns of the background colour.
RgbImage side_by_side_diff(const DiffInput& input);

}  // namespace shapevm::raster
