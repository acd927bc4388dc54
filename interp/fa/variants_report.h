// `shapevm variants` for FA (seed 002): the _a.._d damage-variant slots _SetupOT derives for an
// object type and the shapes each draw pass queues for an object in a given state, optionally
// checked against an EALIB's members.
#pragma once

#include "interp/common/engine.h"

namespace shapevm::fa {

// Settings: class (fighter, bomber, ship, sam, aaa, tank, vehicle or a number; required),
// type-flags (0xC0), health (1), damage-model (0), damage-set (1). InputError on bad values.
VariantsReport variants_report(const VariantsRequest& request);

}  // namespace shapevm::fa
