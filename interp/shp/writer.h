// shp writing (docs/shp.md, "Writing"): a model written as model_load reads it. Its chunks stand
// in the loader's order, each record at the record size its tag has in the model (cut short, or
// filled out with zeros; an attachment's tail after its 124 bytes), every request the loader makes
// of a tag with a size gets a chunk (of no records where there are none), chunks of tags the
// loader never asks for go back after as many named chunks as stood before them, and the
// terminator is {FFFF, 0, 0}. A shipped layout comes back byte for byte (SL-12); any other comes
// back as the loader reads it (SL-13); what the loader would misread is refused (SL-14).
#pragma once

#include <cstdint>
#include <vector>

#include "interp/shp/model.h"

namespace shapevm::shp {

// The model image. InputError (source "shp writer", what and where in the model) for: records of
// a tag the model's sizes leave out; a chunk of more records than a count holds (65535); a kept
// chunk whose tag the loader names or is the terminator's, or whose bytes are not its records';
// attachments of one part where some have tails and some not at a size with room for them, or a
// tail longer than the room.
std::vector<uint8_t> write_model(const Model& model);

}  // namespace shapevm::shp
