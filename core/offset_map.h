// A map from 32-bit offsets to pointers, for caches looked up once per run of a program or per
// executed instruction (the Apache interpreter's decoded instructions).
//
// Open addressing with linear probing in a power-of-two table at most half full, and a
// multiplicative hash (Knuth's golden-ratio constant): a lookup is a multiply, a shift and,
// nearly always, one load. std::unordered_map took a 64-bit division by its prime bucket count
// and two dependent loads (the bucket, then the node) per lookup, which was a twelfth of an
// Apache batch's time. Entries are never removed; the pointers are the caller's to keep alive.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace shapevm {

template <typename T>
class OffsetMap {
 public:
  // The value stored for `key`, or nullptr.
  T* find(uint32_t key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = bucket(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == nullptr) return nullptr;
      if (s.key == key) return s.value;
    }
  }

  // Stores `value` (not null) for `key`, which must not be present yet.
  void insert(uint32_t key, T* value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(key, value);
    ++size_;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t key = 0;
    T* value = nullptr;  // nullptr: empty
  };

  size_t bucket(uint32_t key) const { return (key * 0x9E3779B1u) >> shift_; }

  void place(uint32_t key, T* value) {
    size_t i = bucket(key);
    while (slots_[i].value != nullptr) i = (i + 1) & mask_;
    slots_[i] = {key, value};
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t capacity = old.empty() ? 16 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 32 - static_cast<unsigned>(std::countr_zero(capacity));
    for (const Slot& s : old)
      if (s.value != nullptr) place(s.key, s.value);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 32;
  size_t size_ = 0;
};

}  // namespace shapevm
