// How a Starlancer frame is set up (docs/shp-drawing.md, "Frame"): the palette and textures
// (draw_assets.h), the projection (focal length 4/5 of the frame height, near plane 100 model
// units) and the depth test Starlancer's renderer drew through.
#pragma once

#include <string>

#include "interp/common/engine.h"
#include "interp/common/render_setup.h"

namespace shapevm::shp {

FrameSettings shp_frame_settings(int height);

// Palette, texture lookup and projection for a program opened with `options` from `source`.
// InputError for a palette or texture cache given or found that is malformed.
RenderSetup shp_render_setup(const OpenOptions& options, const std::string& source, int width,
                             int height);

}  // namespace shapevm::shp
