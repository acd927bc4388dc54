// `gen shp`: a synthetic resource.hog of Starlancer models with the shipped game's proportions
// (fighters of a few hundred faces, capital ships of thousands, several parts, 1-4 levels of
// detail, attachments, clips, collision trees, firing arcs), each member written by the shp
// writer at the shipped record sizes and RefPack-compressed with literal runs. Deterministic from
// the seed: for benchmarks and as fuzzing seeds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/shp/model.h"

namespace shapevm::shp {

inline constexpr uint32_t kDefaultGeneratedModels = 440;
inline constexpr uint32_t kMaxGeneratedModels = 2000;

// Model `index` of the set `seed` gives.
Model generate_model(uint64_t seed, uint32_t index);
// Its member name ("gen0007.SHP").
std::string generated_model_name(uint32_t index);
// The whole HOG of `count` models.
std::vector<uint8_t> generate_resource_hog(uint64_t seed, uint32_t count);

// The record sizes of the shipped models' newest exporter (header 88, part 312, vertex 32,
// face 80, ..., attachment 100), without trigger polygons.
RecordSizes shipped_record_sizes();

}  // namespace shapevm::shp
