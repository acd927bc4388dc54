// The Battle Isle 2 engine's entry in the registry (interp/engines.cpp): its implementation of
// the engine interface (interp/common/engine.h) for the fight meshes (3DOB), scenery lists
// (3DLD), fight palettes and the LIB archives that hold them.
#pragma once

#include <memory>

#include "interp/common/engine.h"

namespace shapevm::bi2 {

std::unique_ptr<Engine> make_engine();

}  // namespace shapevm::bi2
