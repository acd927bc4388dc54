#include "core/read_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

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

void populate_pages(uint8_t* bytes, size_t size) {
  if (size == 0) return;
  // The advice wants a page-aligned start: the page holding `bytes` is mapped already (the block
  // starts in it), so starting there asks nothing more of it.
  static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<uintptr_t>(bytes) / page * page;
  const auto end = reinterpret_cast<uintptr_t>(bytes) + size;
  (void)::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
}

}  // namespace shapevm::core
