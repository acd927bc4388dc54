// The buffer a whole-file read goes into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace shapevm::core {

// From this size on, a read buffer is laid out in 2 MiB pages (see allocate_read_buffer).
inline constexpr size_t kHugePageReadMinimum = size_t{4} << 20;
// The size of a transparent huge page on x86-64, to which large read buffers are aligned.
inline constexpr size_t kHugePageSize = size_t{2} << 20;

// An uninitialised buffer of `size` bytes (at least one, so an empty file has a buffer too) for
// read() to fill; the shared_ptr frees it the way it was allocated.
//
// A buffer of kHugePageReadMinimum bytes or more is aligned to kHugePageSize and advised
// MADV_HUGEPAGE. Reading a large container (a 58 MB Starlancer resource.hog) into ordinary memory
// cost one page fault per 4 KB, about 14,400 faults and 35 ms of kernel time for a command that
// needs one member; in 2 MiB pages it takes about 140 faults and 10-12 ms. The advice only asks:
// where the kernel has no huge pages to give (disabled, or none free and none compacted in time)
// the buffer is ordinary memory and works the same.
std::shared_ptr<uint8_t[]> allocate_read_buffer(size_t size);

// Takes the pages of [bytes, bytes + size) that are not in memory yet in one call
// (MADV_POPULATE_WRITE), before something fills them, instead of one page fault each as it reaches
// them: on a virtual machine a fault costs microseconds, and filling a few hundred KB of fresh
// memory took a hundred faults and more. Only for fresh memory about to be written in full (it is
// committed): on memory already in place the call still walks its pages (RefPack output buffers
// reused from the heap spent a quarter of a decompression there). Advice: a kernel older than 5.14
// refuses it and the faults are taken as before.
void populate_pages(uint8_t* bytes, size_t size);

}  // namespace shapevm::core
