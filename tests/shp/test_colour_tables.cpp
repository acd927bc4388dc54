// Starlancer colour tables: the nearest palette entry is searched among the few entries that can
// be nearest in the query's cell of RGB space (NearestIndexSearch), not by measuring all 256. Every
// answer must be the full scan's: the smallest squared RGB distance, and the lowest index on a tie.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <thread>
#include <vector>

#include "interp/shp/colour_tables.h"
#include "raster/palette.h"
#include "tests/support/lcg.h"

namespace shp_colour_tables_tests {

using namespace shapevm;
using namespace shapevm::shp;

namespace {

// Random palette levels and colours.
uint8_t random_level(shapevm::testing::Lcg& rng) {
  return static_cast<uint8_t>(rng.next() >> 8);
}
raster::Rgb random_rgb(shapevm::testing::Lcg& rng) {
  const uint8_t r = random_level(rng), g = random_level(rng), b = random_level(rng);
  return {r, g, b};
}

// Palettes that stress the search: random; few distinct colours (many exact ties); one red for
// every entry (the red order says nothing); greys (ties between mirror-image colours); and the
// built-in palette.
raster::Palette test_palette(int kind, shapevm::testing::Lcg& rng) {
  raster::Palette p;
  for (size_t i = 0; i < 256; ++i) {
    raster::Rgb& c = p.colors[i];
    switch (kind) {
      case 0:
        c = random_rgb(rng);
        break;
      case 1:
        c = {static_cast<uint8_t>(rng.next() % 3 * 100), static_cast<uint8_t>(rng.next() % 2 * 200),
             static_cast<uint8_t>(rng.next() % 4 * 60)};
        break;
      case 2:
        c = {77, random_level(rng), random_level(rng)};
        break;
      case 3: {
        const auto grey = static_cast<uint8_t>(rng.next() % 16 * 17);
        c = {grey, grey, grey};
        break;
      }
      default:
        return raster::default_palette();
    }
  }
  return p;
}

}  // namespace

TEST_CASE("SHP colours: the cell search gives the full scan's nearest entry") {
  shapevm::testing::Lcg rng{2024};
  int ties = 0;
  for (int kind = 0; kind < 5; ++kind) {
    for (int round = 0; round < 4; ++round) {
      const raster::Palette palette = test_palette(kind, rng);
      const NearestIndexSearch search(palette);
      for (int q = 0; q < 6000; ++q) {
        // Random colours, the palette's own colours, and colours one step from them.
        raster::Rgb query = random_rgb(rng);
        if (q % 3 == 1) query = palette.colors[rng.next() % 256];
        if (q % 3 == 2) {
          query = palette.colors[rng.next() % 256];
          query.g = static_cast<uint8_t>(query.g + 1);
        }
        const uint8_t expected = nearest_index(palette, query);
        const uint8_t found = search(query);
        if (found != expected) {
          CAPTURE(kind);
          CAPTURE(round);
          CAPTURE(q);
          CHECK(int{found} == int{expected});
        }
        // Count the queries whose nearest distance more than one entry shares.
        int at_best = 0;
        const raster::Rgb e = palette.colors[expected];
        const int best = (e.r - query.r) * (e.r - query.r) + (e.g - query.g) * (e.g - query.g) +
                         (e.b - query.b) * (e.b - query.b);
        for (const raster::Rgb& c : palette.colors) {
          const int d = (c.r - query.r) * (c.r - query.r) + (c.g - query.g) * (c.g - query.g) +
                        (c.b - query.b) * (c.b - query.b);
          if (d == best) ++at_best;
        }
        if (at_best > 1) ++ties;
      }
    }
  }
  CHECK(ties > 10000);  // the lowest-index rule was exercised, not only unique nearest entries
}

TEST_CASE("SHP colours: of entries tied at the nearest distance, the lowest index wins") {
  // Query (100, 50, 50) and three entries at distance 100 from it: one on the same red, one 10
  // reds above, one 10 below. Index 3 holds each of them in turn and must be the answer.
  const raster::Rgb query{100, 50, 50};
  const raster::Rgb tied[3] = {{100, 60, 50}, {110, 50, 50}, {90, 50, 50}};
  for (int lowest = 0; lowest < 3; ++lowest) {
    raster::Palette p;
    p.colors.fill({0, 255, 0});  // far from the query
    p.colors[3] = tied[lowest];
    p.colors[9] = tied[(lowest + 1) % 3];
    p.colors[12] = tied[(lowest + 2) % 3];
    CAPTURE(lowest);
    REQUIRE(nearest_index(p, query) == 3);
    CHECK(int{NearestIndexSearch(p)(query)} == 3);
  }
}

TEST_CASE("SHP colours: an entry exactly as far from a cell as the cell's bound is kept") {
  // In the cell [16, 31]^3 (and in its parent [0, 31]^3), entry 7 at (15, 15, 15) is at most
  // 3 * 16^2 = 768 from any colour: that is the cell's bound. Entry 3 at (47, 47, 47) is at least
  // 768 from the cell, at the corner (31, 31, 31), where both are 768 away: a tie that the lower
  // index, 3, wins.
  raster::Palette p;
  p.colors.fill({200, 200, 0});  // far from the cell
  p.colors[3] = {47, 47, 47};
  p.colors[7] = {15, 15, 15};
  const raster::Rgb corner{31, 31, 31};
  REQUIRE(nearest_index(p, corner) == 3);
  CHECK(int{NearestIndexSearch(p)(corner)} == 3);
  CHECK(int{NearestIndexSearch(p)(raster::Rgb{30, 31, 31})} == 7);
}

TEST_CASE("SHP colours: blend tables hold the nearest entry of each blended colour") {
  shapevm::testing::Lcg rng{99};
  for (int kind : {0, 1, 4}) {
    raster::Palette palette = test_palette(kind, rng);
    palette.colors[0].r = static_cast<uint8_t>(kind * 31 + 5);  // not a palette cached by others
    const auto tables = colour_tables(palette);
    for (Blend mode : {Blend::kAdd, Blend::kAlpha}) {
      const auto table = tables->blend(mode);
      REQUIRE(table.size() == 65536);
      int wrong = 0;
      for (size_t s = 0; s < 256; ++s)
        for (size_t d = 0; d < 256; ++d)
          if (table[s * 256 + d] !=
              nearest_index(palette, blend_rgb(palette.colors[s], palette.colors[d], mode)))
            ++wrong;
      CAPTURE(kind);
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("SHP colours: each blend table is built on first use, once, whichever thread asks") {
  raster::Palette palette = raster::default_palette();
  palette.colors[0] = {1, 2, 250};  // a palette no other test caches
  const auto tables = colour_tables(palette);
  // A model with no added or alpha faces never pays for the tables.
  CHECK_FALSE(tables->blend_built(Blend::kAdd));
  CHECK_FALSE(tables->blend_built(Blend::kAlpha));
  CHECK(tables->blend(Blend::kNone).empty());
  CHECK_FALSE(tables->blend_built(Blend::kAlpha));

  // Four threads ask for the alpha table at once: one builds it, all get the same bytes.
  std::array<const uint8_t*, 4> seen{};
  std::array<size_t, 4> sizes{};
  {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i) {
      threads.emplace_back([&, i] {
        const auto table = tables->blend(Blend::kAlpha);
        seen[i] = table.data();
        sizes[i] = table.size();
      });
    }
    for (auto& t : threads) t.join();
  }
  for (size_t i = 0; i < seen.size(); ++i) {
    CAPTURE(i);
    CHECK(sizes[i] == 65536);
    CHECK(seen[i] == seen[0]);
  }
  CHECK(tables->blend_built(Blend::kAlpha));
  CHECK_FALSE(tables->blend_built(Blend::kAdd));  // only the table asked for
  // The same palette from the cache shares the built table; the other is built when asked.
  CHECK(colour_tables(palette)->blend(Blend::kAlpha).data() == seen[0]);
  const auto add = tables->blend(Blend::kAdd);
  CHECK(tables->blend_built(Blend::kAdd));
  REQUIRE(add.size() == 65536);
  for (size_t s : {0u, 7u, 128u, 255u}) {
    for (size_t d : {0u, 1u, 200u, 255u}) {
      CAPTURE(s);
      CAPTURE(d);
      CHECK(add[s * 256 + d] ==
            nearest_index(palette, blend_rgb(palette.colors[s], palette.colors[d], Blend::kAdd)));
      CHECK(seen[0][s * 256 + d] ==
            nearest_index(palette, blend_rgb(palette.colors[s], palette.colors[d], Blend::kAlpha)));
    }
  }
}

}  // namespace shp_colour_tables_tests
