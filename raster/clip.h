// Clipping in view space against the near plane.
//
// Only the near plane is clipped geometrically. The screen rectangle is handled by the fills
// themselves, per scanline and per span (polygon_fill.h), which is cheaper than Sutherland-Hodgman
// against four edges and gives the same pixels; lines and points clip per pixel. The projection
// saturates far-off coordinates instead of overflowing, so a polygon reaching far outside the
// screen is still safe to fill once it is in front of the near plane.
//
// The intersection arithmetic is integer: along an edge from an inside vertex A (z >= near) to an
// outside vertex B, every value becomes A + floor((B - A) * (near - A.z) / (B.z - A.z)) and z
// becomes exactly `near`. Interpolating always from the inside vertex makes the cut point of an
// edge independent of the direction the polygon walks it, so two faces sharing an edge are cut at
// the same point.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "raster/projection.h"

namespace shapevm::raster {

// Sutherland-Hodgman against z >= near_z. Returns the clipped polygon in the same winding; it is
// empty when the polygon lies wholly behind the plane and may gain one vertex per crossing.
std::vector<ViewVertex> clip_polygon_near(std::span<const ViewVertex> polygon, int32_t near_z);
// The same into `out` (cleared first), so a caller drawing many faces reuses one buffer. `out`
// must not share storage with `polygon`.
void clip_polygon_near(std::span<const ViewVertex> polygon, int32_t near_z,
                       std::vector<ViewVertex>& out);

// Clips the segment a-b to z >= near_z in place; false when it lies wholly behind the plane.
bool clip_line_near(ViewVertex& a, ViewVertex& b, int32_t near_z);

}  // namespace shapevm::raster
