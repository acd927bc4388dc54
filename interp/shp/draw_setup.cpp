#include "interp/shp/draw_setup.h"

#include <algorithm>

#include "interp/shp/draw_assets.h"
#include "interp/shp/draw_assumptions.h"

namespace shapevm::shp {

FrameSettings shp_frame_settings(int height) {
  FrameSettings f;
  f.focal_pixels = std::max(1, height * assumed::kFocalNumerator / assumed::kFocalDenominator);
  f.near_z = static_cast<int32_t>(assumed::kNearPlaneModelUnits * assumed::kViewUnitsPerModelUnit);
  f.depth_test = true;
  return f;
}

RenderSetup shp_render_setup(const OpenOptions& options, const std::string& source, int,
                             int height) {
  const auto assets = load_draw_assets(options.palette, options.textures, input_path_of(source));
  RenderSetup setup;
  setup.palette = assets->palette();
  if (assets->cache() != nullptr)
    setup.textures = [assets](std::string_view name) { return assets->texture(name); };
  setup.frame = shp_frame_settings(height);
  return setup;
}

}  // namespace shapevm::shp
