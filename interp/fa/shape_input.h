// Resolves a file argument as DESIGN.md's contract says: a plain path, or a container member
// "FA_2.LIB:A10.SH" (the part after the last ':' names the member, case-insensitively).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interp/fa/shape.h"

namespace shapevm::fa {

struct LoadedInput {
  std::string source;          // the name errors should use, e.g. "FA_2.LIB:A10.SH"
  std::vector<uint8_t> bytes;  // the file or the decompressed member
};

// Throws InputError if the file or member does not exist or cannot be decoded.
LoadedInput load_input(const std::string& spec);

// The member `member` (case-insensitive) of the EALIB container `container` (read from `path`),
// decompressed: load_input's second half, for bytes already in memory.
LoadedInput load_member(std::span<const uint8_t> container, const std::string& path,
                        const std::string& member);

// load_input then load_shape: the shape a file argument names.
Shape load_shape_spec(const std::string& spec);

}  // namespace shapevm::fa
