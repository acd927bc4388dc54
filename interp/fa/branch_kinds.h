// The FA interpreter's branch kinds, as BranchEvent::kind and the trace's "kind" (docs/trace.md).
#pragma once

#include <string_view>

namespace shapevm::fa::branch_kind {

inline constexpr std::string_view kJump = "jump";          // an unconditional jump
inline constexpr std::string_view kFrame = "frame";        // JumpToFrame: the frame counter
inline constexpr std::string_view kLod = "lod";            // JumpToLOD: the projected size
inline constexpr std::string_view kDetail = "detail";      // JumpToDetail: _detail
inline constexpr std::string_view kDamage = "damage";      // JumpToDamage: _destroyed
inline constexpr std::string_view kSelector = "selector";  // draw-order selectors
inline constexpr std::string_view kX86Skip = "x86-skip";   // an x86 block stepped over statically
inline constexpr std::string_view kHarvest = "harvest";    // --merged: a recovered entry

}  // namespace shapevm::fa::branch_kind
