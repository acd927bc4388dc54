// The FA shape assembler: the project's readable text form of a .SH (docs/fa-asm.md) turned into
// a Phar Lap PE file laid out as the shipped shapes are. `shapevm disasm` prints the same
// language, so a listing re-assembles to the identical bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "interp/fa/pe_writer.h"

namespace shapevm::fa {

struct AssembledShape {
  fa::ImageBuildInput image;               // what was handed to the PE writer
  std::vector<uint8_t> file;               // the .SH bytes
  std::map<std::string, uint32_t> labels;  // label -> CODE offset
};

// Throws InputError("source", "line N: ...") on any error in the text.
AssembledShape assemble_fa(std::string_view text, const std::string& source);

}  // namespace shapevm::fa
