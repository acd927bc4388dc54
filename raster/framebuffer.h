// An 8-bit indexed frame: one palette index per pixel, row-major from the top row, no padding.
// Frames are compared byte for byte with captures, so this is deliberately nothing more than a
// width, a height and the bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

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

  int width() const { return width_; }
  int height() const { return height_; }
  ClipRect bounds() const { return {0, 0, width_, height_}; }

  void clear(uint8_t index);

  // Checked pixel access: throws std::out_of_range outside the frame.
  uint8_t at(int x, int y) const;
  void set(int x, int y, uint8_t index);

  // The first pixel of row y (checked: throws std::out_of_range); the row has width() bytes.
  uint8_t* row(int y);
  const uint8_t* row(int y) const;

  std::span<uint8_t> pixels() { return pixels_; }
  std::span<const uint8_t> pixels() const { return pixels_; }

  bool operator==(const Framebuffer&) const = default;

 private:
  void check(int x, int y) const;

  int width_;
  int height_;
  std::vector<uint8_t> pixels_;
};

}  // namespace shapevm::raster
