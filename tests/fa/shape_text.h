// Builds FA shapes for tests from assembler text (docs/fa-asm.md), so each test states its input
// in the same language the disassembler prints.
#pragma once

#include <string>
#include <vector>

#include "interp/fa/assembler.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"

namespace shapevm::testing {

// `body` goes between a standard header and nothing else: the caller writes its own ending.
inline std::string with_header(const std::string& body, const std::string& preamble = "") {
  return preamble + ".header radius_world=0 radius=100 scale=8 extents=10,10,10\n" + body;
}

// Two faces, then a jump back to them: a loop that only a work budget ends before the step
// budget (which alone would allow about 330,000 faces). `preamble` goes first (an .image line).
inline std::string face_loop_text(const std::string& preamble = "") {
  return preamble + R"(.header radius_world=0 radius=24 scale=8 extents=10,10,20
    VertexBuffer at=0
        v -6, -6, 0
        v 6, -6, 0
        v 6, 6, 0
loop:
    Face content=0x00 layout=0x00 color=0x70 shadow=0 idx=0,1,2
    Face content=0x00 layout=0x00 color=0x71 shadow=0 idx=2,1,0
    Jump @loop
)";
}

struct BuiltShape {
  fa::AssembledShape assembled;
  fa::Shape shape;
};

inline BuiltShape build_shape(const std::string& text) {
  BuiltShape b{fa::assemble_fa(text, "test.fas"), {}};
  b.shape = fa::load_shape(b.assembled.file, "test.SH");
  return b;
}

// The items of a walk as "kind@offset+size" strings, for compact assertions.
inline std::vector<std::string> item_kinds(const fa::WalkResult& walk) {
  std::vector<std::string> out;
  for (const auto& item : walk.items) {
    std::string k;
    switch (item.kind) {
      case fa::ItemKind::kHeader:
        k = "header";
        break;
      case fa::ItemKind::kInstruction:
        k = std::string(item.insn->info->mnemonic);
        break;
      case fa::ItemKind::kX86:
        k = "x86";
        break;
      case fa::ItemKind::kSkipped:
        k = "skipped";
        break;
      case fa::ItemKind::kTrailer:
        k = "trailer";
        break;
      case fa::ItemKind::kUndecodable:
        k = "undecodable";
        break;
      case fa::ItemKind::kStub:
        k = "stub";
        break;
    }
    out.push_back(k + "@" + std::to_string(item.offset) + "+" + std::to_string(item.size));
  }
  return out;
}

}  // namespace shapevm::testing
