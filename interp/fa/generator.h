// Synthetic Fighters Anthology shapes for benchmarks, round-trip tests and fuzzing seeds. The
// generator writes FA assembler text (docs/fa-asm.md), which `assemble_fa` turns into a .SH, so
// every structure it produces goes through the same path as a hand-written or disassembled shape.
//
// Two profiles. The corpus profile (the default) makes each feature's share of files the shipped
// corpus's, as seed 000 counts them over FA_2.LIB's 1,275 shapes (kCorpusCounts below;
// docs/fa-generator.md): x86 articulation selectors on 16%, frame tables on 40%, chained LOD
// blocks and detail switches on 86%, Unmask fragments on 57%, XformUnmask on two files in 1,275,
// guards in the one form the seed names (cmp word [trampoline], imm8). The stress profile keeps
// the mix from before, where every structure is common (2-4 LOD blocks always, x86 on about 40%,
// byte/dword compares and je/jge guards), for coverage and fuzzing seeds.
#pragma once

#include <cstdint>
#include <string>

namespace shapevm::fa {

enum class GeneratorProfile : uint8_t { kCorpus, kStress };

// Files of FA_2.LIB's 1,275 that carry each feature, as seed 000 counts them: what the corpus
// profile follows.
struct CorpusCounts {
  uint32_t files = 1275;
  uint32_t x86 = 208;              // embedded x86 blocks (re-entering through do_start_interp)
  uint32_t jump_to_frame = 510;    // 0x40
  uint32_t jump_to_damage = 62;    // 0xAC
  uint32_t jump_to_detail = 1094;  // 0xA6
  uint32_t jump_to_lod = 1098;     // 0xC8, 2,064 opcodes: the blocks chain
  uint32_t jump_to_lod_ops = 2064;
  uint32_t unmask = 728;      // 0x12
  uint32_t jump = 533;        // 0x48
  uint32_t short_jump = 724;  // 0x38
  uint32_t xform_unmask = 2;  // 0xC4
};
inline constexpr CorpusCounts kCorpusCounts{};

// The assembler text of shape number `index` of a run seeded with `seed`. Deterministic: the same
// (seed, index, profile) gives the same text on every platform (own splitmix64 stream and bounded
// draws). The text always assembles, and the assembled shape walks without diagnostics. Its first
// line is a comment that ends with "EndObject at 0xNNNN", the CODE offset of the final EndObject.
std::string generate_fa_shape(uint64_t seed, uint32_t index,
                              GeneratorProfile profile = GeneratorProfile::kCorpus);

// The file stem `shapevm gen fa` uses for shape `index` (0-based): GEN00001 for index 0.
std::string generated_shape_stem(uint32_t index);

}  // namespace shapevm::fa
