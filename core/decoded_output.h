// The output of a decompressor (Starlancer's RefPack, Battle Isle 2's TPWM, the PKWare DCL of FA
// EALIB members), written in place.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace shapevm::core {

// Storage reserved once, for the declared size or the most the input could give (the smaller:
// a damaged header then reserves no more than its stream could fill), and a window that grows,
// zeroed, a step at a time just ahead of the writes while the step is still in cache. Appending
// write by write instead cost a call each (a vector insert), and sizing the whole output first
// made a second pass over it. The window keeps kSlack bytes past the output where the
// reservation has them, so a short copy may move a fixed 16 bytes: what it writes past its length
// is not output yet, and is written again by what comes next or cut off by take().
class DecodedOutput {
 public:
  static constexpr size_t kSlack = 16;

  explicit DecodedOutput(size_t reserve) { bytes_.reserve(reserve); }

  size_t size() const { return size_; }

  // `count` bytes from outside the output.
  void append(const uint8_t* from, size_t count) {
    make_room(count);
    // memmove, not memcpy, for a call to the C library's: GCC expands a memcpy of the bounded
    // sizes decoders give as `rep movsq`, slower here for runs of up to a hundred bytes (RefPack
    // literal-run members 4.0 -> 5.6 ms). The ranges never overlap.
    if (count != 0) std::memmove(bytes_.data() + size_, from, count);
    size_ += count;
  }

  void push(uint8_t byte) {
    make_room(1);
    bytes_[size_++] = byte;
  }

  // `length` bytes from `distance` back, 1 <= distance <= size() (the caller checks): a copy
  // longer than its distance repeats what it has just written, as a byte-by-byte copy does.
  void repeat(size_t distance, size_t length) {
    make_room(length);
    uint8_t* out = bytes_.data() + size_;
    const uint8_t* from = out - distance;
    if (distance >= kSlack && length <= kSlack && bytes_.size() - size_ >= kSlack) {
      std::memcpy(out, from, kSlack);  // one fixed-size move for the common short copy
    } else if (distance >= length) {
      std::memmove(out, from, length);  // not overlapping; memmove as append() says
    } else {
      // Each move copies what is already repeated, a whole number of periods, so the moves
      // double until the copy is done.
      for (size_t done = 0; done < length;) {
        const size_t step = std::min(length - done, distance + done);
        std::memcpy(out + done, from, step);
        done += step;
      }
    }
    size_ += length;
  }

  std::vector<uint8_t> take() {
    bytes_.resize(size_);
    return std::move(bytes_);
  }

 private:
  static constexpr size_t kStep = 16 << 10;

  // At least `count` bytes writable at size(), and kSlack more where the reservation has them.
  // Past the reservation (a caller's bound that was wrong) the vector reallocates: slower, still
  // safe.
  void make_room(size_t count) {
    const size_t needed = size_ + count;
    if (needed + kSlack <= bytes_.size()) return;
    const size_t grown =
        std::min(std::max(needed + kSlack, bytes_.size() + kStep), bytes_.capacity());
    bytes_.resize(std::max(grown, needed));
  }

  std::vector<uint8_t> bytes_;
  size_t size_ = 0;
};

}  // namespace shapevm::core
