// A std::allocator that aligns every block to `Alignment` bytes.
//
// Large buffers used to come from mmap, page-aligned by accident; since the program keeps them
// in the heap (allocator_tuning.h) they are only 16-byte aligned unless asked. That made a frame
// clear and a full-screen fill 1.3-1.6 times slower (64-byte vector stores split across cache
// lines) and an x86 guard block 1.5 times slower (guest pages straddling host pages). Buffers
// that are written in bulk, or mapped into the x86 sandbox, ask for their alignment here.
#pragma once

#include <cstddef>
#include <new>

namespace shapevm::core {

template <typename T, size_t Alignment>
struct AlignedAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = AlignedAllocator<U, Alignment>;
  };

  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U, Alignment>&) {}  // NOLINT: rebinding is implicit

  T* allocate(size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(Alignment)));
  }
  // The unsized form: clang, unlike GCC, declares sized deallocation only with
  // -fsized-deallocation.
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(Alignment)); }
  template <typename U>
  bool operator==(const AlignedAllocator<U, Alignment>&) const {
    return true;
  }
};

}  // namespace shapevm::core
