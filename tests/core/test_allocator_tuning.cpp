// The allocator setting the shapevm program makes at start (core/allocator_tuning.h): a freed
// frame-sized block stays in the heap for the next one instead of going back to the kernel.
#include <doctest/doctest.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include "core/allocator_tuning.h"

namespace core_allocator_tuning_tests {

namespace {

// Large enough that glibc's default (128 KiB) would map it on its own; the size of two
// 640x480 frames.
constexpr size_t kBlock = 2 * 640 * 480;

}  // namespace

TEST_CASE("keep_freed_memory: large blocks come from the heap and stay there once freed") {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's allocator replaces glibc's and takes no such setting.
  CHECK_FALSE(shapevm::core::keep_freed_memory());
#else
  REQUIRE(shapevm::core::keep_freed_memory());
  const struct mallinfo2 before = mallinfo2();
  void* block = std::malloc(kBlock);
  REQUIRE(block != nullptr);
  std::memset(block, 1, kBlock);  // touched, as a frame is
  const struct mallinfo2 during = mallinfo2();
  // Not a block of its own from mmap.
  CHECK(during.hblks == before.hblks);
  CHECK(during.hblkhd == before.hblkhd);
  std::free(block);
  // Not given back to the kernel either: the heap still holds it, free for the next frame.
  const struct mallinfo2 after = mallinfo2();
  CHECK(after.arena >= during.arena);
  CHECK(after.fordblks >= kBlock);
  CHECK(shapevm::core::keep_freed_memory());  // a second call is harmless
#endif
}

}  // namespace core_allocator_tuning_tests
