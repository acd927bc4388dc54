// shapevm: re-runs the shape programs of 1990s 3D engines (tools/cli.cpp has the commands).
#include <unistd.h>

#include <cstdio>

#include "core/allocator_tuning.h"
#include "tools/command.h"

int main(int argc, char** argv) {
  // Runs over many files allocate and free the same large blocks again and again.
  shapevm::core::keep_freed_memory();
  // Text for a file or a pipe goes out in writes of 64 KiB rather than the C library's 4 KiB:
  // `info` over a corpus of 1,275 shapes made some 360 write calls, each a few microseconds on a
  // virtual machine. A terminal keeps its line buffering. (glibc ignores the size unless it is
  // given the buffer; static, since stdout is flushed after main returns.)
  static char stdout_buffer[64 * 1024];
  if (::isatty(STDOUT_FILENO) == 0)
    std::setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  return shapevm::tools::run_shapevm(argc, argv);
}
