// `export` for Battle Isle 2 (interp/common/export_scene.h): a mesh as a root node (the polygons
// no part owns) with one child node per part, whose frame sits at the part's pivot plus its
// translation and whose positions are the part's vertices as the state turns them; a scene as a
// root with one node per placed object. Two-vertex polygons are lines; +y is down, so the axis
// signs turn the frame half a turn about z.
#pragma once

#include "interp/bi2/run_state.h"
#include "interp/bi2/session.h"
#include "interp/common/export_scene.h"

namespace shapevm::bi2 {

ExportScene export_scene(const Session& session, const RunState& state);

}  // namespace shapevm::bi2
