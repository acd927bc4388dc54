#include "core/allocator_tuning.h"

#include <malloc.h>

namespace shapevm::core {
namespace {

// Blocks up to 32 MiB (glibc's ceiling for this setting) come from the heap: every frame and
// table shapevm allocates per file, and even an 8192x4096 canvas.
constexpr int kMmapThreshold = 32 * 1024 * 1024;
// The heap's free top is returned to the kernel only past 8 MiB: far more than a file or a frame
// frees at once (about a megabyte), and little enough that each worker thread's heap, which
// keeps its own free top, holds no more than that.
constexpr int kTrimThreshold = 8 * 1024 * 1024;

}  // namespace

bool keep_freed_memory() {
  // mallopt returns 1 on success and 0 when it rejects a value (or is a sanitizer's stub).
  const bool mmap_set = mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
  return mmap_set && trim_set;
}

}  // namespace shapevm::core
