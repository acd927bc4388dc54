#include "raster/frame_allocator.h"

namespace shapevm::raster {

namespace {

// Trivially destructible, so a frame freed while its thread ends (a static's destructor on the
// main thread, after the thread's objects are gone) still finds it, marked closed.
struct KeptBlock {
  void* block = nullptr;
  size_t bytes = 0;
  bool closed = false;
  bool contents_known = false;
  FrameContents contents;
};
thread_local KeptBlock t_kept;

// A block and what it holds: the one noted by a frame about to free it (`t_noted`), and the
// one the last frame allocation took from t_kept (`t_taken`). Null when none.
struct NotedBlock {
  const void* block = nullptr;
  FrameContents contents;
};
thread_local NotedBlock t_noted;
thread_local NotedBlock t_taken;

void free_block(void* block) {
  ::operator delete(block, std::align_val_t(kFrameAlignment));
}

// Frees the thread's kept block when the thread ends.
struct KeptBlockCloser {
  void arm() {}
  ~KeptBlockCloser() {
    if (t_kept.block != nullptr) free_block(t_kept.block);
    t_kept = {nullptr, 0, true, false, {}};
  }
};
thread_local KeptBlockCloser t_closer;

}  // namespace

void* take_kept_frame_block(size_t bytes) {
  t_taken = {};
  if (t_kept.block == nullptr || t_kept.bytes != bytes) return nullptr;
  void* block = t_kept.block;
  if (t_kept.contents_known) t_taken = {block, t_kept.contents};
  t_kept.block = nullptr;
  t_kept.bytes = 0;
  t_kept.contents_known = false;
  return block;
}

void keep_frame_block(void* block, size_t bytes) {
  const bool noted = t_noted.block == block;
  const FrameContents contents = t_noted.contents;
  t_noted = {};
  if (t_kept.closed) {
    free_block(block);
    return;
  }
  t_closer.arm();  // constructs the closer on this thread's first kept block
  if (t_kept.block != nullptr) free_block(t_kept.block);
  t_kept.block = block;
  t_kept.bytes = bytes;
  t_kept.contents_known = noted;
  t_kept.contents = contents;
}

void note_frame_contents(const void* block, const FrameContents& contents) {
  t_noted = {block, contents};
}

const FrameContents* recall_frame_contents(const void* block) {
  if (t_taken.block == nullptr || t_taken.block != block) return nullptr;
  t_taken.block = nullptr;  // asked once
  return &t_taken.contents;
}

}  // namespace shapevm::raster
