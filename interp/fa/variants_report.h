// `shapevm variants` for FA (seed 002): the _a.._d damage-variant slots _SetupOT derives for an
// object type and the shapes each draw pass queues for an object in a given state, optionally
// checked against an EALIB's members.
#pragma once

#include "interp/common/variants.h"

namespace shapevm::fa {

// Settings: class (fighter, bomber, ship, sam, aaa, tank, vehicle or a number; required),
// health (1), damage-model (0), damage-set (1), override-type-flags (unset: the high byte of
// obj_class, shape_selection.h). InputError on bad values.
VariantsReport variants_report(const VariantsRequest& request);

}  // namespace shapevm::fa
