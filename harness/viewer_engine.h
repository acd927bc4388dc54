// The viewer's view of an engine (issue 8): what an engine adapter tells the engine-neutral
// viewer core about a shape (its LOD and detail levels, animation length, articulation inputs and
// their values, the rate its frame counter advances at) and how it runs the shape for one viewer
// state into an event sink. FA implements it in tools/viewer_fa.*; another engine (Apache:
// animation values, attached slots) plugs in by implementing the same interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/viewer_model.h"
#include "raster/palette.h"

namespace shapevm::harness {

using ::shapevm::ViewerCamera;
using ::shapevm::ViewerCapabilities;
using ::shapevm::ViewerInput;
using ::shapevm::ViewerRunResult;
using ::shapevm::ViewerState;
using ViewerEngine = ::shapevm::ViewerModel;

}  // namespace shapevm::harness
