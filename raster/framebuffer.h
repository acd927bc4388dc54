// An 8-bit indexed frame: one palette index per pixel, row-major from the top row, no padding.
// Frames are compared byte for byte with captures, so this is deliberately nothing more than a
// width, a height and the bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "raster/frame_allocator.h"

namespace shapevm::raster {

// A pixel rectangle [left, right) x [top, bottom): right and bottom are exclusive.
struct ClipRect {
  int32_t left = 0;
  int32_t top = 0;
  int32_t right = 0;
  int32_t bottom = 0;

  bool empty() const { return left >= right || top >= bottom; }
  bool contains(int32_t x, int32_t y) const {
    return x >= left && x < right && y >= top && y < bottom;
  }
  ClipRect intersect(const ClipRect& other) const;
  bool operator==(const ClipRect&) const = default;
};

class Framebuffer {
 public:
  // Large enough for every screen mode the engines used (up to 1024x768) and for oversized test
  // canvases, small enough that a bad size cannot ask for gigabytes.
  static constexpr int kMaxDimension = 8192;

  // 640x480, the most common mode of the period, cleared to index 0.
  Framebuffer() : Framebuffer(640, 480) {}
  // Throws std::invalid_argument unless 1 <= width, height <= kMaxDimension.
  Framebuffer(int width, int height, uint8_t fill = 0);
  // Leaves what its block holds to the next frame made in it (raster/frame_allocator.h).
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = default;
  Framebuffer(Framebuffer&&) = default;
  Framebuffer& operator=(const Framebuffer&) = default;
  Framebuffer& operator=(Framebuffer&&) = default;
  // A frame whose pixels hold no set value yet, for a writer that gives every one of them a value
  // before any is read (the image decoders): filling a 640x480 frame first, only to overwrite it,
  // was a tenth of a regress case. Throws as the constructor does.
  static Framebuffer for_overwrite(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  ClipRect bounds() const { return {0, 0, width_, height_}; }

  // Every pixel := index. Rows written since the last clear to the same index are all that is
  // filled again (a frame loop that redraws one object clears only the rows it drew).
  void clear(uint8_t index);

  // Checked pixel access: throws std::out_of_range outside the frame.
  uint8_t at(int x, int y) const;
  void set(int x, int y, uint8_t index);

  // The first pixel of row y (checked: throws std::out_of_range); the row has width() bytes.
  // Inline: every span of every fill asks for its row.
  uint8_t* row(int y) {
    if (static_cast<unsigned>(y) >= static_cast<unsigned>(height_)) throw_outside(0, y);
    touch(y);
    return pixels_.data() + static_cast<size_t>(y) * static_cast<size_t>(width_);
  }
  // Row `top`'s first pixel for a writer that stays within rows [top, bottom), which follow at
  // width() bytes each; marks them written once, where row() marks one row per call. Checked:
  // throws std::out_of_range unless 0 <= top < bottom <= height().
  uint8_t* rows_for_writing(int top, int bottom) {
    if (top < 0 || top >= bottom || bottom > height_) throw_outside(0, top < 0 ? top : bottom);
    dirty_top_ = std::min(dirty_top_, top);
    dirty_bottom_ = std::max(dirty_bottom_, bottom);
    return pixels_.data() + static_cast<size_t>(top) * static_cast<size_t>(width_);
  }
  const uint8_t* row(int y) const {
    if (static_cast<unsigned>(y) >= static_cast<unsigned>(height_)) throw_outside(0, y);
    return pixels_.data() + static_cast<size_t>(y) * static_cast<size_t>(width_);
  }

  // Writable access to every pixel (the next clear fills the whole frame).
  std::span<uint8_t> pixels() {
    touch_all();
    return pixels_;
  }
  std::span<const uint8_t> pixels() const { return pixels_; }

  bool operator==(const Framebuffer& o) const {
    return width_ == o.width_ && height_ == o.height_ && pixels_ == o.pixels_;
  }

 private:
  struct Unset {};
  Framebuffer(int width, int height, Unset);
  static void check_size(int width, int height);
  void check(int x, int y) const;
  [[noreturn]] void throw_outside(int x, int y) const;
  void touch(int y) {
    dirty_top_ = std::min(dirty_top_, y);
    dirty_bottom_ = std::max(dirty_bottom_, y + 1);
  }
  void touch_all() {
    dirty_top_ = 0;
    dirty_bottom_ = height_;
  }

  int width_;
  int height_;
  // Cache-line aligned: clears and fills write whole rows with 64-byte stores. A freed frame's
  // block is kept for the next frame (raster/frame_allocator.h).
  std::vector<uint8_t, FrameAllocator<uint8_t>> pixels_;
  // Outside rows [dirty_top_, dirty_bottom_) every pixel still holds cleared_ (the last fill).
  uint8_t cleared_ = 0;
  int dirty_top_ = 0;
  int dirty_bottom_ = 0;
};

}  // namespace shapevm::raster
