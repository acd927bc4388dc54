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

// When a guarded sub-stream is entered, as the conditional jump after the compare decides: the
// re-entry is reached when the jump is NOT taken (it skips the re-entry and its arm). `jne` gives
// kEq (the seed's reading, and the default when no conditional jump follows the compare), `je`
// kNe, `jge` kLt, and so on; the unsigned forms come from ja/jae/jb/jbe.
enum class GuardRelation : uint8_t { kEq, kNe, kLt, kGe, kGt, kLe, kULt, kUGe, kUGt, kULe };

const char* guard_relation_symbol(GuardRelation r);  // "==", "!=", "<", ... ("<u" for unsigned)

// One relocated operand inside an x86 payload that points at a data trampoline.
struct ArticulationRead {
  uint32_t site = 0;         // CODE offset of the relocated dword
  uint32_t instruction = 0;  // CODE offset of the instruction holding it (== site when unknown)
  std::string input;         // the data import named by the trampoline
  // The immediate of `cmp <width> ptr [input], imm`, sign-extended from the compared width;
  // empty for any other access (a load, a test, an OR, `mov ebx, stub`, ...).
  std::optional<int64_t> value;
  GuardRelation relation = GuardRelation::kEq;  // from the conditional jump after the compare
  unsigned bits = 0;                            // the compared width
  std::optional<uint32_t> skip_to;  // CODE offset the conditional jump after the compare goes to
};

// The (input, compare value) that governs a sub-stream entry.
struct ArticulationGuard {
  std::string input;
  int64_t value = 0;
  GuardRelation relation = GuardRelation::kEq;
  unsigned bits = 16;  // the compared width: the input is read at this width
  // Whether an input holding `input_value` (the --set value, stored little-endian) selects it.
  bool holds(int64_t input_value) const;
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
  // block or carried from earlier blocks of the same run (the seed's rule); empty when none
  // precedes it.
  std::vector<std::optional<ArticulationGuard>> governing;
  // Parallel to `pointers`: what actually decides whether the x86 re-enters there, from the
  // control flow. A compare followed by a conditional jump governs the re-entries its jump skips
  // (sites between the jump and its target, across abutting blocks); a pointer no such jump skips
  // is reached on every path (e.g. the run's final join) and is ungoverned. Where no conditional
  // jump follows the compare this falls back to `governing` (docs/fa-articulation.md).
  std::vector<std::optional<ArticulationGuard>> selection;
  std::vector<ArticulationRead> reads;  // every data-import access, ascending by site
  uint32_t run = 0;                     // index of the abutting run (0-based, in code order)
};

// The sub-streams whose `selection` guard compares `input` with `value` (whatever the relation).
struct ArticulationCase {
  std::string input;
  int64_t value = 0;
  std::vector<uint32_t> substreams;             // CODE offsets, ascending, distinct; may be empty
  GuardRelation relation = GuardRelation::kEq;  // of the first guard that selects one of them
};

struct ArticulationAnalysis {
  std::vector<X86Block> blocks;                     // in code order
  std::map<std::string, std::set<int64_t>> inputs;  // every data import read -> compared values
  std::vector<ArticulationCase> cases;              // ordered by (input, value)
  // The cases of one input, in value order (empty when the input is never compared).
  std::vector<const ArticulationCase*> cases_of(const std::string& input) const;
  // The sub-stream entries the x86 re-enters when the inputs hold `values` (missing = 0), for
  // the blocks that run: every pointer whose `selection` guard holds, and every ungoverned one.
  std::vector<uint32_t> selected(const std::map<std::string, int64_t>& values) const;
  // Values of `input` that give distinct selections (for each compare immediate: it and its
  // neighbours, and 0), one per distinct outcome, ascending; empty for an input never compared.
  std::vector<int64_t> distinct_values(const std::string& input) const;
};

ArticulationAnalysis analyze_articulations(const Shape& shape, const WalkResult& walk);

// "reads _PLgearDown, cmp 1 → 0x0223": a short description of one block for listings.
std::string describe_block(const X86Block& block);

}  // namespace shapevm::fa
