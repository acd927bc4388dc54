// Synthetic Fighters Anthology shapes for benchmarks, round-trip tests and fuzzing seeds. The
// generator writes FA assembler text (docs/fa-asm.md), which `assemble_fa` turns into a .SH, so
// every structure it produces goes through the same path as a hand-written or disassembled shape.
//
// The shapes imitate the corpus described by seed 000: a chain of 2–4 distance-LOD blocks with
// hundreds of vertices and faces in the finest one, Unmask fragments and draw-order selectors,
// frame tables, damage branches, untraced render-state opcodes and, on about 40% of shapes, a
// chain of x86 articulation selectors that re-enter the bytecode through do_start_interp.
#pragma once

#include <cstdint>
#include <string>

namespace shapevm::fa {

// The assembler text of shape number `index` of a run seeded with `seed`. Deterministic: the same
// (seed, index) gives the same text on every platform (own splitmix64 stream and bounded draws).
// The text always assembles, and the assembled shape walks without diagnostics. Its first line is
// a comment that ends with "EndObject at 0xNNNN", the CODE offset of the final EndObject.
std::string generate_fa_shape(uint64_t seed, uint32_t index);

// The file stem `shapevm gen fa` uses for shape `index` (0-based): GEN00001 for index 0.
std::string generated_shape_stem(uint32_t index);

}  // namespace shapevm::fa
