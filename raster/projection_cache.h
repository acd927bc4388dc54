// raster::project through a cache of recently projected view positions.
//
// The faces of a mesh share corners (in a grid each corner belongs to about six triangles), and
// a projection costs three 64-bit divisions, which made it a fifth of a 400-face frame. A
// direct-mapped table remembers the last position seen in each slot; a slot keys on the whole
// view position (x, y, z), so a hit returns exactly what project() would. u, v and shade are
// the point's own, never cached.
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>

#include "raster/projection.h"

namespace shapevm::raster {

class ProjectionCache {
 public:
  static constexpr int kSlotBits =
      10;  // 1,024 slots (32 KB): a few hundred corners, few collisions
  static constexpr size_t kSlots = size_t{1} << kSlotBits;

  explicit ProjectionCache(const Projection& projection) : projection_(projection) {}

  // As raster::project(projection, point, out). Always inline: GCC kept it out of line in the
  // renderer's flat path, and the call cost a twentieth of a 400-face frame.
  [[gnu::always_inline]] bool project(const ViewVertex& point, ScreenVertex& out) {
    return project<true>(point, out);
  }
  // The same, except that out.inv_w is left unset: for a fill that reads only where corners
  // land (a flat fill), which spares a miss the third of its three divisions.
  [[gnu::always_inline]] bool project_position(const ViewVertex& point, ScreenVertex& out) {
    return project<false>(point, out);
  }

  // The slot a view position occupies (multiplicative hashing; the top bits are the best mixed).
  static size_t slot_of(int32_t x, int32_t y, int32_t z) {
    const uint32_t key = static_cast<uint32_t>(x) * 0x9E3779B1u ^
                         static_cast<uint32_t>(y) * 0x85EBCA77u ^
                         static_cast<uint32_t>(z) * 0xC2B2AE3Du;
    return key >> (32 - kSlotBits);
  }

 private:
  // A slot's inv_w before it is computed: a projected inv_w is at least 1.
  static constexpr int32_t kInvWUnset = 0;

  template <bool kInvW>
  [[gnu::always_inline]] bool project(const ViewVertex& point, ScreenVertex& out) {
    const size_t index = slot_of(point.x, point.y, point.z);
    Slot& slot = slots_[index];
    bool in_front;
    ScreenVertex s;
    if (!filled_[index] || slot.x != point.x || slot.y != point.y || slot.z != point.z) {
      // A miss answers from the fresh projection, not from the slot just written: reading the
      // slot back straight after its stores waited for them (the two 32-bit stores could not be
      // forwarded to the one 64-bit load GCC made of them).
      in_front = point.z >= std::max(projection_.near_z, 1);
      if (in_front) {
        raster::project_position(projection_, point.x, point.y, point.z, s.x, s.y);
        s.inv_w = kInvW ? projected_inv_w(projection_, point.z) : kInvWUnset;
      } else {
        s.x = s.y = s.inv_w = 0;  // kept in the slot, never read: the point is rejected
      }
      filled_[index] = true;
      slot = {in_front, point.x, point.y, point.z, s.x, s.y, s.inv_w};
    } else {
      in_front = slot.in_front;
      s.x = slot.screen_x;
      s.y = slot.screen_y;
      s.inv_w = slot.inv_w;
      if (kInvW && in_front && s.inv_w == kInvWUnset)
        slot.inv_w = s.inv_w = projected_inv_w(projection_, point.z);
    }
    if (!in_front) return false;
    out.x = s.x;
    out.y = s.y;
    out.inv_w = s.inv_w;
    out.u = point.u;
    out.v = point.v;
    out.shade = point.shade;
    return true;
  }

  // Left uninitialised: a slot is read only once filled_ says it was written. A renderer is made
  // per frame, and zeroing the slots for each was 3% of a 400-face frame; the 128-byte bitset is
  // what a new cache clears. 32 bytes each, aligned, so that no slot straddles two cache lines:
  // at their natural 28 bytes three slots in seven did, and the 400-face frame took 3% longer.
  struct alignas(32) Slot {
    bool in_front;
    int32_t x, y, z;  // the view position
    int32_t screen_x, screen_y, inv_w;
  };
  Projection projection_;
  std::bitset<kSlots> filled_;
  std::array<Slot, kSlots> slots_;
};

}  // namespace shapevm::raster
