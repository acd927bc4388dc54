// What `export` writes for a Starlancer model (interp/common/export_scene.h; SL-21): one node per
// part under its parent's, moved by its origin less its parent's and not turned; positions in
// the part's frame, normals, texture coordinates 0..1 from the top; wire and cap faces left out;
// odd-strip records with their last two corners swapped so every face winds alike; the half turn
// about Z (x and y negated) to reach a Y-up frame; the level --lod names (default 0).
#pragma once

#include <string>

#include "interp/common/export_scene.h"
#include "interp/common/state.h"
#include "interp/shp/draw_assets.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

ExportScene export_model(const Model& model, const StateRequest& state, const std::string& source,
                         const DrawAssets& assets);

}  // namespace shapevm::shp
