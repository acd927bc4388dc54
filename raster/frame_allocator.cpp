#include "raster/frame_allocator.h"

namespace shapevm::raster {

namespace {

// Trivially destructible, so a frame freed while its thread ends (a static's destructor on the
// main thread, after the thread's objects are gone) still finds it, marked closed.
struct KeptBlock {
  void* block = nullptr;
  size_t bytes = 0;
  bool closed = false;
};
thread_local KeptBlock t_kept;

void free_block(void* block) {
  ::operator delete(block, std::align_val_t(kFrameAlignment));
}

// Frees the thread's kept block when the thread ends.
struct KeptBlockCloser {
  void arm() {}
  ~KeptBlockCloser() {
    if (t_kept.block != nullptr) free_block(t_kept.block);
    t_kept = {nullptr, 0, true};
  }
};
thread_local KeptBlockCloser t_closer;

}  // namespace

void* take_kept_frame_block(size_t bytes) {
  if (t_kept.block == nullptr || t_kept.bytes != bytes) return nullptr;
  void* block = t_kept.block;
  t_kept.block = nullptr;
  t_kept.bytes = 0;
  return block;
}

void keep_frame_block(void* block, size_t bytes) {
  if (t_kept.closed) {
    free_block(block);
    return;
  }
  t_closer.arm();  // constructs the closer on this thread's first kept block
  if (t_kept.block != nullptr) free_block(t_kept.block);
  t_kept.block = block;
  t_kept.bytes = bytes;
}

}  // namespace shapevm::raster
