// raster::project through a cache of recently projected view positions.
//
// The faces of a mesh share corners (in a grid each corner belongs to about six triangles), and
// a projection costs three 64-bit divisions, which made it a fifth of a 400-face frame. A
// direct-mapped table remembers the last position seen in each slot; a slot keys on the whole
// view position (x, y, z), so a hit returns exactly what project() would. u, v and shade are
// the point's own, never cached.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "raster/projection.h"

namespace shapevm::raster {

class ProjectionCache {
 public:
  static constexpr int kSlotBits =
      10;  // 1,024 slots (28 KB): a few hundred corners, few collisions
  static constexpr size_t kSlots = size_t{1} << kSlotBits;

  explicit ProjectionCache(const Projection& projection) : projection_(projection) {}

  // As raster::project(projection, point, out).
  bool project(const ViewVertex& point, ScreenVertex& out) {
    Slot& slot = slots_[slot_of(point.x, point.y, point.z)];
    if (!slot.valid || slot.x != point.x || slot.y != point.y || slot.z != point.z) {
      ScreenVertex s;
      slot.valid = true;
      slot.x = point.x;
      slot.y = point.y;
      slot.z = point.z;
      slot.in_front = raster::project(projection_, point, s);
      slot.screen_x = s.x;
      slot.screen_y = s.y;
      slot.inv_w = s.inv_w;
    }
    if (!slot.in_front) return false;
    out.x = slot.screen_x;
    out.y = slot.screen_y;
    out.inv_w = slot.inv_w;
    out.u = point.u;
    out.v = point.v;
    out.shade = point.shade;
    return true;
  }

  // The slot a view position occupies (multiplicative hashing; the top bits are the best mixed).
  static size_t slot_of(int32_t x, int32_t y, int32_t z) {
    const uint32_t key = static_cast<uint32_t>(x) * 0x9E3779B1u ^
                         static_cast<uint32_t>(y) * 0x85EBCA77u ^
                         static_cast<uint32_t>(z) * 0xC2B2AE3Du;
    return key >> (32 - kSlotBits);
  }

 private:
  struct Slot {
    bool valid = false;
    bool in_front = false;
    int32_t x = 0, y = 0, z = 0;  // the view position
    int32_t screen_x = 0, screen_y = 0, inv_w = 0;
  };
  Projection projection_;
  std::array<Slot, kSlots> slots_{};
};

}  // namespace shapevm::raster
