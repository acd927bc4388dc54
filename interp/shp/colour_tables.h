// Colour tables for drawing Starlancer models into an 8-bit frame: the nearest palette entry to a
// colour, shade rows for lit faces, and the 256 x 256 blend tables for added and alpha-blended
// faces (draw_assumptions.h names the rules). Built once per palette.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "raster/palette.h"

namespace shapevm::shp {

// The palette entry nearest to `rgb` (squared RGB distance; the lowest index on ties).
uint8_t nearest_index(const raster::Palette& palette, raster::Rgb rgb);

// The same answer as nearest_index, found without measuring every entry. RGB space is cut into
// 8 x 8 x 8 cells of 32 levels; each cell keeps, in index order, only the entries that can be
// nearest (or tie) somewhere in it: those no farther from the cell than the bound that some
// entry's farthest distance from the cell gives. Building the blend tables asks for 131,072
// colours; measuring all 256 entries for each was a quarter of a regress run over the bundled
// golden manifest.
class NearestIndexSearch {
 public:
  explicit NearestIndexSearch(const raster::Palette& palette);
  uint8_t operator()(raster::Rgb rgb) const;

 private:
  static constexpr int kCellShift = 5;  // 32 levels per cell side
  static constexpr int kCellsPerSide = 256 >> kCellShift;
  struct Entry {
    int16_t r, g, b;
    uint8_t index;
  };
  std::vector<Entry> candidates_;  // each cell's, one after another
  std::array<uint32_t, kCellsPerSide * kCellsPerSide * kCellsPerSide + 1> cell_begin_{};
};

enum class Blend : uint8_t { kNone, kAdd, kAlpha };

struct ColourTables {
  raster::Palette palette;
  // kShadeLevels rows of 256: row l maps an entry to the one nearest its colour x (l+1)/levels.
  std::vector<uint8_t> shade_rows;
  uint8_t untextured = 0;  // the untextured faces' colour
  uint8_t wire = 0;        // wire lines' colour
  // 65536 entries each, [source * 256 + destination].
  std::vector<uint8_t> add, alpha;
  // The table for `mode`; empty for kNone.
  std::span<const uint8_t> blend(Blend mode) const {
    if (mode == Blend::kAdd) return add;
    if (mode == Blend::kAlpha) return alpha;
    return {};
  }
};

// The tables for `palette`, shared between runs with the same palette.
std::shared_ptr<const ColourTables> colour_tables(const raster::Palette& palette);

// The blended colour of two palette entries (one cell of a blend table).
raster::Rgb blend_rgb(raster::Rgb source, raster::Rgb destination, Blend mode);

}  // namespace shapevm::shp
