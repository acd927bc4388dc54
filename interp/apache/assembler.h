// The Apache assembler: the project's text form of a 3DOBJS.BIN archive (docs/apache.md,
// "Assembler language") turned into the archive, an OBJTEXT.BIN texture archive and a 3DPAL.RGB
// palette, so tests and examples need no game data. The program part is the language
// `shapevm disasm` prints for a record; operands follow the one opcode table (opcodes.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::apache {

struct AssembledArchive {
  std::vector<uint8_t> archive;   // 3DOBJS.BIN
  std::vector<uint8_t> textures;  // OBJTEXT.BIN (empty when the text defines no texture)
  std::vector<uint8_t> palette;   // 3DPAL.RGB (672 bytes)
  // label -> file offset, per record ("3:front").
  std::map<std::string, uint32_t> labels;
};

// Throws InputError("source", "line N: ...") on any error in the text.
AssembledArchive assemble_apache(std::string_view text, const std::string& source);

}  // namespace shapevm::apache
