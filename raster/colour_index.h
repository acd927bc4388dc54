// The palette index of an RGB colour, for mapping an RGB capture onto a palette: the lowest
// index holding the colour, or none. A table of 512 slots probed in turn from the colour's
// hash (at most 256 colours, so at least half the slots stay empty and every probe ends); a
// capture has millions of pixels and a hash map's lookup was most of mapping one.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "raster/palette.h"

namespace shapevm::raster {

class ColourIndex {
 public:
  explicit ColourIndex(const Palette& palette) {
    // Lowest index first: a colour already in the table keeps the index it has.
    for (size_t i = 0; i < palette.colors.size(); ++i) {
      const Rgb& c = palette.colors[i];
      const uint32_t key = pack(c.r, c.g, c.b);
      size_t slot = first_slot(key);
      while (keys_[slot] != kEmpty && keys_[slot] != key) slot = (slot + 1) % kSlots;
      if (keys_[slot] == kEmpty) {
        keys_[slot] = key;
        indices_[slot] = static_cast<uint8_t>(i);
      }
    }
  }

  std::optional<uint8_t> find(uint8_t r, uint8_t g, uint8_t b) const {
    const uint32_t key = pack(r, g, b);
    for (size_t slot = first_slot(key);; slot = (slot + 1) % kSlots) {
      if (keys_[slot] == key) return indices_[slot];
      if (keys_[slot] == kEmpty) return std::nullopt;
    }
  }

 private:
  static constexpr size_t kSlots = 512;
  static constexpr uint32_t kEmpty = 0xFFFFFFFF;  // no 24-bit colour packs to it

  static uint32_t pack(uint8_t r, uint8_t g, uint8_t b) {
    return (uint32_t{r} << 16) | (uint32_t{g} << 8) | b;
  }
  static size_t first_slot(uint32_t key) { return (key * 2654435761u) >> 23; }  // top 9 bits

  std::array<uint32_t, kSlots> keys_ = [] {
    std::array<uint32_t, kSlots> k{};
    k.fill(kEmpty);
    return k;
  }();
  std::array<uint8_t, kSlots> indices_{};
};

}  // namespace shapevm::raster
