#include "core/allocator_tuning.h"

#include <malloc.h>

namespace shapevm::core {
namespace {

// Blocks up to 32 MiB (glibc's ceiling for this setting) come from the heap: every frame and
// table shapevm allocates per file, and even an 8192x4096 canvas.
constexpr int kMmapThreshold = 32 * 1024 * 1024;
// The heap's free top is returned to the kernel only past 256 MiB.
constexpr int kTrimThreshold = 256 * 1024 * 1024;

}  // namespace

bool keep_freed_memory() {
  // mallopt returns 1 on success and 0 when it rejects a value (or is a sanitizer's stub).
  const bool mmap_set = mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
  return mmap_set && trim_set;
}

}  // namespace shapevm::core
