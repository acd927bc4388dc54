#include "core/read_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace shapevm::core {

std::shared_ptr<uint8_t[]> allocate_read_buffer(size_t size) {
  if (size < kHugePageReadMinimum)
    return std::shared_ptr<uint8_t[]>(new uint8_t[std::max<size_t>(size, 1)]);
  // aligned_alloc wants a multiple of the alignment; the tail past `size` is never touched.
  const size_t rounded = (size + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
  void* block = std::aligned_alloc(kHugePageSize, rounded);
  if (block == nullptr) throw std::bad_alloc();
  // Advice, not a request that can fail the read: EINVAL (a kernel built without transparent huge
  // pages) leaves ordinary pages, which hold the bytes just as well.
  (void)::madvise(block, rounded, MADV_HUGEPAGE);
  return std::shared_ptr<uint8_t[]>(static_cast<uint8_t*>(block),
                                    [](uint8_t* bytes) { std::free(bytes); });
}

}  // namespace shapevm::core
