// Static articulation analysis of the embedded x86 selectors (seed 000, "X86Unknown Region":
// input identification, sub-stream identification, contiguous-run attribution). Nothing is
// executed: the shape's own relocations anchor every read, and Capstone decodes only the
// instruction that holds a relocated operand. docs/fa-articulation.md gives the definitions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "interp/fa/shape.h"
#include "interp/fa/walker.h"

namespace shapevm::fa {

// One relocated operand inside an x86 payload that points at a data trampoline.
struct ArticulationRead {
  uint32_t site = 0;         // CODE offset of the relocated dword
  uint32_t instruction = 0;  // CODE offset of the instruction holding it (== site when unknown)
  std::string input;         // the data import named by the trampoline
  // The immediate of `cmp <width> ptr [input], imm`, sign-extended from the compared width;
  // empty for any other access (a load, a test, an OR, `mov ebx, stub`, ...).
  std::optional<int64_t> value;
};

// The (input, compare value) that governs a sub-stream entry.
struct ArticulationGuard {
  std::string input;
  int64_t value = 0;
  bool operator==(const ArticulationGuard&) const = default;
};

struct X86Block {
  uint32_t offset = 0;   // the X86Code (F0 00) instruction
  uint32_t payload = 0;  // offset + 2: where the native code starts
  uint32_t end = 0;      // end of the x86 region the walker bounded (== payload when empty)
  // End of the block's byte range: `end` extended over its arm (call-and-continue / jump bytecode
  // entered by this block's own pointers). The next block abuts when it starts exactly here.
  uint32_t range_end = 0;
  // The data import the block compares (the first compared one; else the first one read).
  std::optional<std::string> input;
  std::vector<int64_t> compare_values;  // immediates compared against `input`, in code order
  // Relocation-pinned code pointers in the payload that are neither trampolines nor the head
  // (X86Code offset or payload) of any block: the sub-stream entries. Ascending by site.
  std::vector<uint32_t> pointers;
  // Parallel to `pointers`: the last (input, value) compared before the pointer's site, in this
  // block or carried from earlier blocks of the same run; empty when none precedes it.
  std::vector<std::optional<ArticulationGuard>> governing;
  std::vector<ArticulationRead> reads;  // every data-import access, ascending by site
  uint32_t run = 0;                     // index of the abutting run (0-based, in code order)
};

struct ArticulationCase {
  std::string input;
  int64_t value = 0;
  std::vector<uint32_t> substreams;  // CODE offsets, ascending, distinct; may be empty
};

struct ArticulationAnalysis {
  std::vector<X86Block> blocks;                     // in code order
  std::map<std::string, std::set<int64_t>> inputs;  // every data import read -> compared values
  std::vector<ArticulationCase> cases;              // ordered by (input, value)
  // The cases of one input, in value order (empty when the input is never compared).
  std::vector<const ArticulationCase*> cases_of(const std::string& input) const;
};

ArticulationAnalysis analyze_articulations(const Shape& shape, const WalkResult& walk);

// "reads _PLgearDown, cmp 1 → 0x0223": a short description of one block for listings.
std::string describe_block(const X86Block& block);

}  // namespace shapevm::fa
