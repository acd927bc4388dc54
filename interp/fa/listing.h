// The FA disassembly listing. Its text is the project's FA assembler language (docs/fa-asm.md):
// `shapevm asm` turns a listing back into the identical file. Offsets and raw bytes ride in
// comments; jump, call, selector and frame targets become labels; x86 regions are shown one
// Capstone instruction per line with relocated pointers written symbolically ({label} or
// {import} in the bytes, the label or import name in the Capstone text); bytes that no instruction
// syntax reproduces exactly are written as `.db`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "interp/fa/walker.h"

namespace shapevm::fa {

struct ListingLine {
  uint32_t offset = 0;
  uint32_t size = 0;
  std::string label;     // defined at this line ("" for none)
  std::string kind;      // header, instruction, x86, data, stub, directive
  std::string mnemonic;  // instruction mnemonic, "x86", ".db", ".stub", ...
  std::string text;      // the assembler text of the line (without label/comment)
  std::string comment;   // decoded detail: handler, flags, targets, Capstone text
  std::string x86_text;  // x86 lines: the Capstone text with relocated values named (symbolic)
  nlohmann::json operands = nlohmann::json::object();
  std::vector<std::string> continuation;  // extra lines (VertexBuffer's `v x, y, z`)
};

struct Listing {
  std::vector<std::string> directives;  // .image / .import lines
  std::vector<ListingLine> lines;
  std::vector<WalkDiagnostic> diagnostics;
};

// `with_operands`: fill ListingLine::operands (needed for JSON output only).
Listing make_listing(const Shape& shape, const WalkResult& walk, bool with_operands = false);
std::string render_listing_text(const Shape& shape, const Listing& listing);
nlohmann::json render_listing_json(const Shape& shape, const Listing& listing);

}  // namespace shapevm::fa
