// The name this engine's trace events, diagnostics and registration carry ("engine" in a trace).
#pragma once

#include <string_view>

namespace shapevm::fa {

inline constexpr std::string_view kEngine = "fa";

}  // namespace shapevm::fa
