// Synthetic Apache archives for benchmarks and robustness tests: assembler text (docs/apache.md)
// for `count` records shaped like the reference archive (seed 003): about two thirds signed
// 16-bit and one third grid-encoded records; boxes with coplanar secondary details, every packet
// type, winding decisions, mask, choice and select branches, LOD links, and on about one record
// in five attached models (earlier records, so there are no cycles) or gameplay slots.
#pragma once

#include <cstdint>
#include <string>

namespace shapevm::apache {

// Deterministic: the same (seed, count) gives the same text everywhere. Always assembles, and
// every record runs without diagnostics of level error.
std::string generate_apache_archive(uint64_t seed, uint32_t count);

}  // namespace shapevm::apache
