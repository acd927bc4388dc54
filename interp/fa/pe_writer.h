// Builds a Phar Lap PE .SH file laid out as the shipped shapes are: MZ header, "PL" header with a
// 224-byte optional header, CODE (0xE0000020), .idata (0xC0000040) importing from main.dll, and
// .reloc (0x42000040) with HIGHLOW entries, file alignment 0x200, section alignment 0x1000. The
// assembler and the generator use it so every other part of the project can be tested without
// game data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace shapevm::fa {

struct CodeFixup {
  uint32_t site = 0;    // CODE offset of a 32-bit field
  uint32_t target = 0;  // CODE offset it points at; the field gets image_base + code_va + target
  // A relocation whose value the body already holds (a pointer outside CODE, kept as found in a
  // real file): only the HIGHLOW entry is written, `target` is ignored.
  bool raw = false;
};

struct ImageLayout {
  uint32_t image_base = 0;    // FA: 0 (some files 0x10000)
  uint32_t code_va = 0x1000;  // CODE VirtualAddress
  std::string code_section_name = "CODE";
  // USNF-era variant: trampoline operands already include ImageBase and are not relocated.
  bool stub_operands_include_image_base = false;
  bool relocate_stub_operands = true;
};

struct ImageBuildInput {
  // CODE bytes up to (not including) the trampolines; the writer appends one 6-byte
  // `FF 25 t32` stub per entry of `stubs`, in order, so stub k sits at body.size() + 6*k.
  std::vector<uint8_t> code_body;
  std::vector<std::string> imports;  // the .idata import order (names imported from main.dll)
  std::vector<std::string> stubs;    // import name for each trailing stub
  std::vector<CodeFixup> fixups;     // relocated pointers inside CODE (may target stubs)
  ImageLayout layout;
};

// Throws std::invalid_argument on inconsistent input (a stub naming no import, a fixup outside
// CODE, duplicate imports).
std::vector<uint8_t> build_pharlap(const ImageBuildInput& input);

}  // namespace shapevm::fa
