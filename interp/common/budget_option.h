// The command-line option that raises the budget a run stopped on, so every engine's diagnostic and
// the CLI's error name it the same way ("budget: faces (--max-faces raises it)").
#pragma once

#include <string_view>

namespace shapevm {

// The option for a "budget: ..." stop reason, or "" for any other reason.
inline std::string_view budget_option(std::string_view reason) {
  constexpr std::string_view kPrefix = "budget: ";
  if (reason.substr(0, kPrefix.size()) != kPrefix) return {};
  const std::string_view what = reason.substr(kPrefix.size());
  if (what == "steps") return "--max-steps";
  if (what == "depth" || what.substr(0, 10) == "call depth") return "--max-depth";
  if (what == "faces") return "--max-faces";
  if (what == "pixels") return "--max-pixels";
  if (what == "trace bytes") return "--max-trace-bytes";
  return {};
}

}  // namespace shapevm
