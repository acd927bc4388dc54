// `gen bi2`: synthetic Battle Isle 2 archives with the seed's record counts (UN3D000.LIB 240
// units, LAND000.LIB 288 terrain objects, PAL000.LIB 41 palettes, LAYR000.LIB 96 scenery lists),
// every third member TPWM-packed, for benchmarks and fuzzing seeds. The same seed gives the same
// bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "interp/bi2/mesh.h"

namespace shapevm::bi2 {

inline constexpr uint32_t kGeneratedUnits = 240;
inline constexpr uint32_t kGeneratedTerrain = 288;
inline constexpr uint32_t kGeneratedPalettes = 41;
inline constexpr uint32_t kGeneratedLayers = 96;

struct GeneratedFile {
  std::string name;
  std::vector<uint8_t> bytes;
};

// A unit: a hull, a turret part with its gun (a line) turning about the turret's pivot.
Mesh generate_unit(uint64_t seed, uint32_t index);
// A terrain object: a 1000-unit ground tile with a hill, rocks or a tree on it.
Mesh generate_terrain(uint64_t seed, uint32_t index);
// The four archives; `units` members in UN3D000.LIB.
std::vector<GeneratedFile> generate_archives(uint64_t seed, uint32_t units);

}  // namespace shapevm::bi2
