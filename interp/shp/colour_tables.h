// Colour tables for drawing Starlancer models into an 8-bit frame: the nearest palette entry to a
// colour, shade rows for lit faces, and the 256 x 256 blend tables for added and alpha-blended
// faces (draw_assumptions.h names the rules). Built once per palette.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "raster/palette.h"

namespace shapevm::shp {

// The palette entry nearest to `rgb` (squared RGB distance; the lowest index on ties).
uint8_t nearest_index(const raster::Palette& palette, raster::Rgb rgb);

// The same answer as nearest_index, found without measuring every entry. RGB space is cut into
// cells of 16 levels a side; each cell keeps, in index order, only the entries that can be nearest
// (or tie) somewhere in it: those no farther from the cell than the bound that some entry's
// farthest distance from the cell gives. Cells of 32 levels are sorted out first, and each of
// their eight 16-level cells then looks only at its parent's entries. Building the blend tables
// asks for 131,072 colours; measuring all 256 entries for each was a quarter of a regress run over
// the bundled golden manifest.
class NearestIndexSearch {
 public:
  explicit NearestIndexSearch(const raster::Palette& palette);
  uint8_t operator()(raster::Rgb rgb) const;

 private:
  static constexpr int kCellShift = 4;  // 16 levels per cell side
  static constexpr int kCellsPerSide = 256 >> kCellShift;
  struct Entry {  // four bytes: the candidates of all cells fill a quarter of a megabyte
    uint8_t r, g, b, index;
  };
  // Appends to `out` the entries of `from` (in index order) that can be nearest somewhere in the
  // cell of `side` levels from (r0, g0, b0).
  static void keep_possible(std::span<const Entry> from, int r0, int g0, int b0, int side,
                            std::vector<Entry>& out);
  // The cell holding the colour (r, g, b).
  static size_t cell_of(int r, int g, int b) {
    return (static_cast<size_t>(r >> kCellShift) * kCellsPerSide +
            static_cast<size_t>(g >> kCellShift)) *
               kCellsPerSide +
           static_cast<size_t>(b >> kCellShift);
  }
  static constexpr size_t kCells = size_t{kCellsPerSide} * kCellsPerSide * kCellsPerSide;
  // Each cell's candidates, one after another: about 62,000 for the built-in palette.
  std::vector<Entry> candidates_;
  std::array<uint32_t, kCells> cell_begin_{}, cell_end_{};
};

enum class Blend : uint8_t { kNone, kAdd, kAlpha };

struct ColourTables {
  explicit ColourTables(const raster::Palette& p) : palette(p), nearest(p) {}

  raster::Palette palette;
  NearestIndexSearch nearest;  // the palette's nearest entry to any colour
  // kShadeLevels rows of 256: row l maps an entry to the one nearest its colour x (l+1)/levels.
  std::vector<uint8_t> shade_rows;
  uint8_t untextured = 0;  // the untextured faces' colour
  uint8_t wire = 0;        // wire lines' colour

  // The blend table for `mode`, 65536 entries [source * 256 + destination]; empty for kNone.
  // Each is built on first use, once, whichever thread asks first: the two tables were most of
  // the cost of drawing one model in its own process, and a model with no added or alpha faces
  // needs neither.
  std::span<const uint8_t> blend(Blend mode) const;
  // Whether blend(mode) has built its table yet (for tests of the laziness).
  bool blend_built(Blend mode) const;

 private:
  struct LazyBlend {
    std::once_flag once;
    std::vector<uint8_t> table;
    std::atomic<bool> built{false};
  };
  mutable LazyBlend add_, alpha_;
};

// The tables for `palette`, shared between runs with the same palette.
std::shared_ptr<const ColourTables> colour_tables(const raster::Palette& palette);

// The blended colour of two palette entries (one cell of a blend table).
raster::Rgb blend_rgb(raster::Rgb source, raster::Rgb destination, Blend mode);

}  // namespace shapevm::shp
