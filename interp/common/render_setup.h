// What the frame renderer needs from an engine (DESIGN.md, "render setup"): the palette the
// engine reads its colours from, its textures by the names its programs use, and its projection.
// Engines resolve every face's style themselves (FaceEvent), so the renderer decodes no engine's
// flag bits.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "raster/palette.h"
#include "raster/texture.h"

namespace shapevm {

// Finds a texture by the name a program uses; nullptr when it is not available.
using TextureLookup = std::function<const raster::Texture*(std::string_view name)>;

struct FrameSettings {
  int32_t focal_pixels = 480;  // the frame height (assumed: docs/raster.md, docs/fa.md)
  int32_t near_z = 256;        // one shape unit in front of the viewer
  // Draw through a depth buffer (cleared to "infinitely far" per frame): a pixel is written only
  // where the face is at least as near as what is there. Engines that sorted by painter's order
  // (FA, Apache) leave it off, and their frames do not depend on it.
  bool depth_test = false;
};

struct RenderSetup {
  raster::Palette palette;
  TextureLookup textures;  // empty when the engine has none for this program
  FrameSettings frame;
};

}  // namespace shapevm
