// The fa engine's entry in the registry (interp/engines.cpp): its implementation of the engine
// interface (interp/common/engine.h).
#pragma once

#include <memory>

#include "interp/common/engine.h"

namespace shapevm::fa {

std::unique_ptr<Engine> make_engine();

}  // namespace shapevm::fa
