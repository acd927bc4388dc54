// `info` for a Starlancer model: header, the parts tree, levels, attachments by kind, clips, point
// lists, each tag's record size, unnamed chunks, and what a rewrite would normalise.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "interp/shp/model.h"

namespace shapevm::shp {

std::string model_info_text(const Model& model, const std::string& source);
nlohmann::json model_info_json(const Model& model, const std::string& source);

// "missile hardpoint", "gun/turret", ... for an attachment kind; "kind N" when unknown.
std::string attachment_kind_name(uint32_t kind);

}  // namespace shapevm::shp
