#include "raster/framebuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace shapevm::raster {

ClipRect ClipRect::intersect(const ClipRect& other) const {
  return {std::max(left, other.left), std::max(top, other.top), std::min(right, other.right),
          std::min(bottom, other.bottom)};
}

void Framebuffer::check_size(int width, int height) {
  if (width < 1 || height < 1 || width > kMaxDimension || height > kMaxDimension) {
    throw std::invalid_argument(fmt::format("framebuffer size {}x{}: each side must be 1..{}",
                                            width, height, kMaxDimension));
  }
}

Framebuffer::Framebuffer(int width, int height, uint8_t fill) : width_(width), height_(height) {
  check_size(width, height);
  pixels_.resize(static_cast<size_t>(width) * static_cast<size_t>(height));  // no values yet
  // A kept block that held this size of frame, cleared to `fill` but for some rows the last
  // frame wrote, is taken as that frame left it, and the clear fills only those rows: a fresh
  // frame for every shape of a corpus was otherwise one whole fill per shape. Any other block
  // counts as written everywhere.
  const FrameContents* before = recall_frame_contents(pixels_.data());
  if (before != nullptr && before->width == width && before->height == height) {
    cleared_ = before->value;
    dirty_top_ = before->dirty_top;
    dirty_bottom_ = before->dirty_bottom;
  } else {
    touch_all();
  }
  clear(fill);
}

Framebuffer::~Framebuffer() {
  if (pixels_.size() >= kKeptFrameMinBytes)
    note_frame_contents(pixels_.data(), {width_, height_, cleared_, dirty_top_, dirty_bottom_});
}

Framebuffer::Framebuffer(int width, int height, Unset) : width_(width), height_(height) {
  check_size(width, height);
  pixels_.resize(static_cast<size_t>(width) * static_cast<size_t>(height));
  // Every row counts as written: the next clear fills the whole frame.
  touch_all();
}

Framebuffer Framebuffer::for_overwrite(int width, int height) {
  return Framebuffer(width, height, Unset{});
}

void Framebuffer::clear(uint8_t index) {
  const size_t stride = static_cast<size_t>(width_);
  if (index == cleared_) {
    if (dirty_top_ < dirty_bottom_)
      std::fill(pixels_.begin() + static_cast<ptrdiff_t>(stride * dirty_top_),
                pixels_.begin() + static_cast<ptrdiff_t>(stride * dirty_bottom_), index);
  } else {
    std::fill(pixels_.begin(), pixels_.end(), index);
  }
  cleared_ = index;
  dirty_top_ = height_;
  dirty_bottom_ = 0;
}

void Framebuffer::check(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) throw_outside(x, y);
}

void Framebuffer::throw_outside(int x, int y) const {
  throw std::out_of_range(
      fmt::format("pixel ({}, {}) outside the {}x{} framebuffer", x, y, width_, height_));
}

uint8_t Framebuffer::at(int x, int y) const {
  check(x, y);
  return pixels_[static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x)];
}

void Framebuffer::set(int x, int y, uint8_t index) {
  check(x, y);
  touch(y);
  pixels_[static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x)] = index;
}

}  // namespace shapevm::raster
