// What `check` finds in a model besides its rewrite: indices that point past what they index
// (face vertices and materials, parents, counterparts, node face lists and children), and how each
// part's stored bounding box relates to its level-0 vertices (docs/shp.md, "Bounding boxes").
#pragma once

#include <string>
#include <vector>

#include "interp/shp/model.h"

namespace shapevm::shp {

// The five relations the shipped models show between a part's stored box and its level-0 vertex
// extent, tried in this order.
enum class BoxKind {
  kAsStored,          // the extent of the vertices as stored
  kAfterOrientation,  // the extent after applying the part's orientation matrix
  kAxisSwapped,       // the extent up to an axis swap or reflection the record does not describe
  kZero,              // never filled in
  kDifferent,         // none of these
};
const char* box_kind_name(BoxKind kind);

// How `part`'s stored box relates to its level-0 vertices (a part without any is kZero when its box
// is zero, else kDifferent).
BoxKind classify_box(const Part& part);

// Every index that points past what it indexes, one line each ("part 2 level 0 face 17: vertex
// 40 past the level's 38 vertices"); empty when the model is consistent.
std::vector<std::string> validate_model(const Model& model);

}  // namespace shapevm::shp
