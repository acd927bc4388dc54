// The name this engine's trace events, diagnostics and registration carry ("engine" in a trace).
#pragma once

#include <string_view>

namespace shapevm::bi2 {

inline constexpr std::string_view kEngine = "bi2";

}  // namespace shapevm::bi2
