// shapevm: re-runs the shape programs of 1990s 3D engines (tools/cli.cpp has the commands).
#include "core/allocator_tuning.h"
#include "tools/command.h"

int main(int argc, char** argv) {
  // Runs over many files allocate and free the same large blocks again and again.
  shapevm::core::keep_freed_memory();
  return shapevm::tools::run_shapevm(argc, argv);
}
