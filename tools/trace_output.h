// Where `shapevm trace` writes: stdout, or with -o a temporary file renamed into place only when
// the run finished, so a failed run never leaves a half-written trace under the requested name.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace shapevm::tools {

// Calls `write` with the stream to write to; `output` empty = stdout. If `write` throws, the
// temporary file is removed and the exception passes on.
void write_trace_output(const std::string& output, const std::function<void(std::FILE*)>& write);

}  // namespace shapevm::tools
