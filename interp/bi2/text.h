// The Battle Isle 2 text form (docs/bi2.md, "Text form"): a 3DOB mesh, a 3DLD record or a whole
// LIB archive as line-oriented text that `disasm` prints and `asm` reads back. Every byte of a
// file the readers accept has a spelling, so text -> file -> text is exact and `check` can
// rewrite a file byte for byte. Indices replace the stored pointers and offsets (the writer lays
// the tables out again).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/bi2/layer.h"
#include "interp/bi2/mesh.h"

namespace shapevm::bi2 {

// Whether `text`'s first statement is `3dob`, `3dld` or `lib`.
bool looks_like_bi2_text(std::string_view text);

// The text of a whole file (a 3DOB, a 3DLD or a LIB, each possibly TPWM-packed). InputError when
// it is none of them (or a member of a LIB that claims to be a mesh is malformed: such a member
// is written as data).
std::string disassemble_file(std::span<const uint8_t> bytes, const std::string& source);
std::string mesh_text(const Mesh& mesh);
std::string layer_text(const Layer& layer);

// The file the text assembles to. InputError "SOURCE: line N: expected ..." for bad text.
std::vector<uint8_t> assemble_text(std::string_view text, const std::string& source);

// The normal the assembler gives a polygon without one: the cross product of its first two edges
// scaled to 16384 (0, 0, 0 for fewer than three corners or a degenerate polygon).
Vec3i16 computed_normal(const std::vector<Vec3i16>& vertices, const std::vector<uint32_t>& corners);

}  // namespace shapevm::bi2
