// The static walker: decodes a whole CODE section into contiguous items (header, instructions,
// x86 regions, data, trampolines) without executing anything. It applies the seed's skip
// protocol (PtrToObjEnd records obj_end_off; an EndObject before it starts a skipped region that
// ends there; one at or after it ends the object) and bounds every x86 region (see walker.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/fa/instruction.h"
#include "interp/fa/shape.h"

namespace shapevm::fa {

enum class ItemKind : uint8_t {
  kHeader,       // the 14-byte header
  kInstruction,  // a decoded bytecode instruction (see `insn`)
  kX86,          // native code after F0 00, up to the next anchor
  kSkipped,      // skip protocol: [EndObject before obj_end_off, obj_end_off)
  kTrailer,      // after the real EndObject/EndShape, before the trampolines
  kUndecodable,  // bytes the walker could not decode (see the diagnostic at the same offset)
  kStub,         // one FF 25 trampoline
};

struct WalkItem {
  // Built in place by the walk: an aggregate temporary was cleared whole (96 bytes, with a
  // string store) before its fields were set, then moved into the items; 4% of the walk.
  WalkItem(ItemKind k, uint32_t off, uint32_t sz) : kind(k), offset(off), size(sz) {}

  ItemKind kind;
  uint32_t offset;
  uint32_t size;
  std::optional<Instruction> insn;  // kInstruction only
  bool alignment = false;           // a ShortEOF that only pads after the first of a run
};

struct WalkDiagnostic {
  enum class Level : uint8_t { kWarning, kError } level;
  uint32_t offset;  // CODE offset
  std::string message;
};

struct WalkOptions {
  ObjEndReading obj_end_reading = ObjEndReading::kAbsolute;
};

struct WalkResult {
  std::vector<WalkItem> items;  // contiguous, ascending, covering all of CODE
  std::vector<WalkDiagnostic> diagnostics;
  // CODE offsets that relocations point at (outside the trampolines): the x86 selectors'
  // sub-stream entries and re-entry points. Every x86 region ends at the next one. Ascending,
  // each once (a sorted vector rather than a set: one allocation per shape, not one per target).
  std::vector<uint32_t> reloc_targets;
  bool is_reloc_target(uint32_t offset) const;
  std::optional<uint32_t> obj_end_offset;  // from PtrToObjEnd, under the chosen reading
  bool has_errors() const;
};

WalkResult walk_shape(const Shape& shape, const WalkOptions& options = {});

// One item of a walk as its outline gives it: walk_shape's item without the decoded instruction.
struct OutlineItem {
  ItemKind kind;
  uint8_t op;  // kInstruction: the opcode byte (0 for the other kinds)
  uint32_t offset;
  uint32_t size;
};
// walk_shape's items, each as its kind, extent and opcode, in the same order: the same walk
// without decoding any instruction's links or keeping diagnostics, for a reader that needs only
// where the instructions lie (an interpreter's vertex buffers, LOD thresholds and x86 regions).
std::vector<OutlineItem> walk_outline(const Shape& shape, const WalkOptions& options = {});
// The outline of a walk already made: each of its items as walk_outline gives it.
std::vector<OutlineItem> outline_of(const WalkResult& walk);

// Both readings of every PtrToObjEnd (0xF2) in a walk, and whether each lands on an EndObject
// byte (0x00) inside CODE: what `info` reports so real files can settle the dispute.
struct ObjEndReport {
  uint32_t f2_offset;
  uint16_t operand;
  int64_t absolute_target;
  int64_t relative_target;
  bool absolute_on_end_object;
  bool relative_on_end_object;
};
std::vector<ObjEndReport> obj_end_reports(const Shape& shape, const WalkResult& walk);

}  // namespace shapevm::fa
