#include "tools/trace_output.h"

#include <filesystem>

#include "core/input_error.h"

namespace shapevm::tools {

void write_trace_output(const std::string& output, const std::function<void(std::FILE*)>& write) {
  if (output.empty()) {
    write(stdout);
    return;
  }
  const std::string tmp = output + ".tmp";
  std::FILE* out = std::fopen(tmp.c_str(), "wb");
  if (!out) throw InputError(output, "cannot create the trace file");
  try {
    write(out);
  } catch (...) {
    std::fclose(out);
    std::filesystem::remove(tmp);
    throw;
  }
  std::fclose(out);
  std::filesystem::rename(tmp, output);
}

}  // namespace shapevm::tools
