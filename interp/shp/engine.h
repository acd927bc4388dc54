// The shp engine's entry in the registry (interp/engines.cpp): Starlancer .SHP models, loose, as
// RefPack streams, or as members of .HOG containers (interp/common/engine.h).
#pragma once

#include <memory>

#include "interp/common/engine.h"

namespace shapevm::shp {

std::unique_ptr<Engine> make_engine();

}  // namespace shapevm::shp
