// Pixel-for-pixel comparison of two 8-bit frames (a capture and ours), with excluded pixels, and
// of the palettes the frames are shown with. Engine-neutral: frames are indices and nothing more.
#pragma once

#include <cstdint>
#include <optional>

#include "raster/framebuffer.h"
#include "raster/palette.h"

namespace shapevm::raster {

struct PixelDifference {
  int x = 0;
  int y = 0;
  uint8_t expected = 0;
  uint8_t actual = 0;
  bool operator==(const PixelDifference&) const = default;
};

struct CompareOptions {
  // Pixels where this is nonzero are not compared (must have the frames' size when set).
  const Framebuffer* excluded = nullptr;
  // When set, two different indices that this palette maps to the same colour count as equal:
  // an RGB capture mapped onto a palette with repeated colours gets the lowest such index, which
  // need not be the one the engine drew.
  const Palette* same_colour = nullptr;
};

struct FrameComparison {
  bool same_size = true;
  uint64_t differing = 0;  // differing pixels (outside excluded ones)
  uint64_t excluded = 0;   // pixels not compared
  ClipRect bounds{};       // bounding box of the differing pixels; empty when there are none
  std::optional<PixelDifference> first;  // in row-major order from the top row

  bool identical() const { return same_size && differing == 0; }
};

// Compares `actual` with `expected`. Frames of different sizes are simply different (same_size
// false, no pixel statistics). Throws std::invalid_argument if options.excluded does not have the
// frames' size.
FrameComparison compare_frames(const Framebuffer& expected, const Framebuffer& actual,
                               const CompareOptions& options = {});

// Marks a rectangle in an exclusion mask (1 = excluded), clipped to the mask.
void exclude_rect(Framebuffer& mask, const ClipRect& rect);

struct PaletteDifference {
  int index = 0;
  Rgb expected;
  Rgb actual;
};

struct PaletteComparison {
  int differing = 0;  // entries used by either frame whose colours differ
  std::optional<PaletteDifference> first;
  bool identical() const { return differing == 0; }
};

// Compares the colours of the palette entries that either frame uses: the same indices shown
// with different colours is a visible difference even when every index matches. Only entries
// below both `*_entries` counts (how many the files defined) are compared.
PaletteComparison compare_palettes(const Framebuffer& expected, const Palette& expected_palette,
                                   int expected_entries, const Framebuffer& actual,
                                   const Palette& actual_palette, int actual_entries);

}  // namespace shapevm::raster
