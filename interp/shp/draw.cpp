// The drawing boundary's setup functions (draw.h): render setup, the viewer model and the export
// scene. draw_knobs, draw_model and draw_state_json are in draw_model.cpp.
#include "interp/shp/draw.h"

#include "interp/shp/draw_assets.h"
#include "interp/shp/draw_setup.h"
#include "interp/shp/export.h"
#include "interp/shp/viewer_model.h"

namespace shapevm::shp {

RenderSetup draw_render_setup(const Model&, const OpenOptions& options, const std::string& source,
                              int width, int height) {
  return shp_render_setup(options, source, width, height);
}

std::unique_ptr<ViewerModel> draw_viewer(std::shared_ptr<const Model> model,
                                         const OpenOptions& options, std::string source,
                                         const StateRequest& opening, double) {
  return std::make_unique<ShpViewerModel>(std::move(model), options, std::move(source), opening);
}

std::optional<ExportScene> draw_export_scene(const Model& model, const OpenOptions& options,
                                             const StateRequest& state, const std::string& source) {
  const auto assets = load_draw_assets(options.palette, options.textures, input_path_of(source));
  return export_model(model, state, source, *assets);
}

}  // namespace shapevm::shp
