// The Apache interpreter's branch kinds, as BranchEvent::kind and the trace's "kind"
// (docs/trace.md).
#pragma once

#include <string_view>

namespace shapevm::apache::branch_kind {

inline constexpr std::string_view kJump = "jump";
inline constexpr std::string_view kWinding = "winding";    // a decision on screen winding
inline constexpr std::string_view kMask = "mask";          // a decision on animation state bits
inline constexpr std::string_view kSelector = "selector";  // select: an authored case

}  // namespace shapevm::apache::branch_kind
