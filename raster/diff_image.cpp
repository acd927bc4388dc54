#include "raster/diff_image.h"

#include <algorithm>
#include <stdexcept>

namespace shapevm::raster {

namespace {

RgbImage blank(int width, int height) {
  RgbImage image{width, height, {}};
  image.rgb.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
  for (size_t i = 0; i < image.rgb.size(); i += 3) {
    image.rgb[i] = kDiffBackgroundColour.r;
    image.rgb[i + 1] = kDiffBackgroundColour.g;
    image.rgb[i + 2] = kDiffBackgroundColour.b;
  }
  return image;
}

void put(RgbImage& image, int x, int y, Rgb c) {
  const size_t at =
      (static_cast<size_t>(y) * static_cast<size_t>(image.width) + static_cast<size_t>(x)) * 3;
  image.rgb[at] = c.r;
  image.rgb[at + 1] = c.g;
  image.rgb[at + 2] = c.b;
}

void blit(RgbImage& dest, const RgbImage& src, int left) {
  for (int y = 0; y < src.height; ++y) {
    const size_t from = static_cast<size_t>(y) * static_cast<size_t>(src.width) * 3;
    const size_t to =
        (static_cast<size_t>(y) * static_cast<size_t>(dest.width) + static_cast<size_t>(left)) * 3;
    std::copy_n(src.rgb.begin() + static_cast<std::ptrdiff_t>(from),
                static_cast<size_t>(src.width) * 3,
                dest.rgb.begin() + static_cast<std::ptrdiff_t>(to));
  }
}

Rgb dimmed_grey(Rgb c) {
  // Integer luma (weights sum to 256), then a third of it: stays well below the highlights.
  const int luma = (77 * c.r + 150 * c.g + 29 * c.b) >> 8;
  const auto v = static_cast<uint8_t>(luma / 3);
  return {v, v, v};
}

}  // namespace

RgbImage frame_to_rgb(const Framebuffer& frame, const Palette& palette) {
  RgbImage image = blank(frame.width(), frame.height());
  for (int y = 0; y < frame.height(); ++y) {
    const uint8_t* row = frame.row(y);
    for (int x = 0; x < frame.width(); ++x) put(image, x, y, palette.colors[row[x]]);
  }
  return image;
}

RgbImage difference_panel(const DiffInput& in) {
  if (in.expected == nullptr || in.actual == nullptr || in.expected_palette == nullptr ||
      in.actual_palette == nullptr) {
    throw std::invalid_argument("difference_panel needs both frames and both palettes");
  }
  const Framebuffer& e = *in.expected;
  const Framebuffer& a = *in.actual;
  const int width = std::max(e.width(), a.width());
  const int height = std::max(e.height(), a.height());
  RgbImage image = blank(width, height);
  const Framebuffer* excluded = in.options.excluded;
  const bool mask_fits =
      excluded != nullptr && excluded->width() == e.width() && excluded->height() == e.height();
  const Palette* same = in.options.same_colour;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const bool in_e = x < e.width() && y < e.height();
      const bool in_a = x < a.width() && y < a.height();
      if (!in_e || !in_a) {
        put(image, x, y, kDiffPixelColour);
        continue;
      }
      if (mask_fits && excluded->at(x, y) != 0) {
        put(image, x, y, kDiffExcludedColour);
        continue;
      }
      const uint8_t ei = e.at(x, y);
      const uint8_t ai = a.at(x, y);
      const Rgb ec = in.expected_palette->colors[ei];
      const Rgb ac = in.actual_palette->colors[ai];
      if (ei != ai && !(same != nullptr && same->colors[ei] == same->colors[ai])) {
        put(image, x, y, kDiffPixelColour);
      } else if (ei == ai && ec != ac) {
        put(image, x, y, kDiffPaletteColour);
      } else {
        put(image, x, y, dimmed_grey(ac));
      }
    }
  }
  return image;
}

RgbImage side_by_side_diff(const DiffInput& in) {
  const RgbImage left = frame_to_rgb(*in.expected, *in.expected_palette);
  const RgbImage middle = frame_to_rgb(*in.actual, *in.actual_palette);
  const RgbImage right = difference_panel(in);
  const int width = left.width + middle.width + right.width + 2 * kDiffPanelGap;
  const int height = std::max({left.height, middle.height, right.height});
  if (width > Framebuffer::kMaxDimension) {
    throw std::invalid_argument("frames too wide for a side-by-side diff image");
  }
  RgbImage image = blank(width, height);
  blit(image, left, 0);
  blit(image, middle, left.width + kDiffPanelGap);
  blit(image, right, left.width + middle.width + 2 * kDiffPanelGap);
  return image;
}

}  // namespace shapevm::raster
