// `info` for a Battle Isle 2 argument: a LIB's members, a mesh's header, parts (polygon ranges
// and pivots), polygons (shade, bias, colour, the undecoded words) and the reader's notes, or a
// 3DLD record's placements (unknown word kept), as text and JSON.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "interp/bi2/session.h"

namespace shapevm::bi2 {

nlohmann::json info_json(const Session& session);
std::string info_text(const Session& session);

}  // namespace shapevm::bi2
