// The pixels of a frame that are not the clear colour 0: what the fills left showing, the least
// they wrote (a pixel drawn over by a later face counts once). The fill-rate counters beside the
// benchmarks' times divide this by the time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "raster/framebuffer.h"

namespace shapevm::bench {

inline size_t painted_pixels(const raster::Framebuffer& frame) {
  size_t count = 0;
  for (uint8_t p : frame.pixels()) count += (p != 0);
  return count;
}

}  // namespace shapevm::bench
