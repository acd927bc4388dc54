// The allocator of frame pixels: 64-byte aligned (core/aligned_allocator.h), and each thread keeps
// the last large block it freed for the next frame of the same size.
//
// Why: a run over many shapes frees a frame and then allocates small, long-lived things (a
// regress case's error message, say) that glibc places in the space just freed; the next frame
// no longer fits there and extends the heap. `regress` over 1,300 cases whose captures did not
// exist yet peaked at 230-264 MB with a live heap under 7 MB. A kept block never becomes such
// space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace shapevm::raster {

inline constexpr size_t kFrameAlignment = 64;
// Blocks below this go straight back to the heap: small frames do not fragment it.
inline constexpr size_t kKeptFrameMinBytes = 64 * 1024;

// The calling thread's kept block if it is `bytes` long (and then no longer kept), else nullptr.
void* take_kept_frame_block(size_t bytes);
// Keeps `block` (`bytes` long, from ::operator new with kFrameAlignment) for the calling thread,
// freeing the block kept before; frees it at once when the thread is ending.
void keep_frame_block(void* block, size_t bytes);

// What a frame's block holds, as the frame knew it when it was freed: `value` in every pixel of a
// width x height frame outside rows [dirty_top, dirty_bottom).
//
// Why: a run over many shapes makes a fresh frame for each, filled whole, in the block the last
// frame left, of which it had written only some rows; a frame that knows which can fill those
// rows alone (Framebuffer's constructor).
struct FrameContents {
  int width = 0;
  int height = 0;
  uint8_t value = 0;
  int dirty_top = 0;
  int dirty_bottom = 0;
};
// Called by a frame just before its block is freed: when the block is kept, these contents go
// with it. A block freed without this call is kept with its contents unknown.
void note_frame_contents(const void* block, const FrameContents& contents);
// The contents of `block` if it is the kept block the calling thread's last frame allocation
// took and they were noted, else null; asked once, right after that allocation (later, null).
const FrameContents* recall_frame_contents(const void* block);

template <typename T>
struct FrameAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = FrameAllocator<U>;
  };

  FrameAllocator() = default;
  template <typename U>
  FrameAllocator(const FrameAllocator<U>&) {}  // NOLINT: rebinding is implicit

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    // Asked for every size: a block of a size never kept is not found, and the question also
    // forgets the contents of the block taken by the allocation before.
    if (void* kept = take_kept_frame_block(bytes)) return static_cast<T*>(kept);
    return static_cast<T*>(::operator new(bytes, std::align_val_t(kFrameAlignment)));
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes >= kKeptFrameMinBytes) {
      keep_frame_block(p, bytes);
      return;
    }
    ::operator delete(p, std::align_val_t(kFrameAlignment));
  }
  // A pixel constructed without a value keeps whatever the block holds, so that a frame a
  // decoder is about to overwrite whole is not filled first (Framebuffer::for_overwrite); every
  // other construction is the ordinary one.
  template <typename U>
  void construct(U* at) noexcept {
    ::new (static_cast<void*>(at)) U;
  }
  template <typename U, typename... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const FrameAllocator<U>&) const {
    return true;
  }
};

}  // namespace shapevm::raster
