#include "raster/frame_compare.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace shapevm::raster {

namespace {

// equal[a * 256 + b]: indices a and b show the same thing under the options' rule.
std::vector<bool> index_equality(const Palette* same_colour) {
  std::vector<bool> equal(256 * 256, false);
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      equal[static_cast<size_t>(a * 256 + b)] =
          a == b || (same_colour != nullptr && same_colour->colors[static_cast<size_t>(a)] ==
                                                   same_colour->colors[static_cast<size_t>(b)]);
    }
  }
  return equal;
}

// How many of the `count` bytes from `bytes` are not zero, sixteen at a time (SSE2, every x86-64
// compiler) or eight (elsewhere). std::count's loop went a byte at a time (GCC does not vectorise
// it at -O2), and on a regression case with an exclusion it was a tenth of the run, its speed
// moving by half with where the linker placed it; eight at a time it was still a twelfth of a
// case, counting every matching row of the mask.
size_t count_nonzero(const uint8_t* bytes, size_t count) {
  size_t nonzero = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= count) {
    // Each lane counts the zero bytes it meets (a compare gives -1 for each), at most 255 blocks
    // before its byte could wrap; the lanes are then summed.
    const size_t blocks = std::min<size_t>((count - i) / 16, 255);
    __m128i zeros = _mm_setzero_si128();
    for (size_t b = 0; b < blocks; ++b, i += 16) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
      zeros = _mm_sub_epi8(zeros, _mm_cmpeq_epi8(block, zero));
    }
    const __m128i sums = _mm_sad_epu8(zeros, zero);
    const auto zero_bytes = static_cast<size_t>(_mm_cvtsi128_si64(sums) +
                                                _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    nonzero += blocks * 16 - zero_bytes;
  }
#endif
  constexpr uint64_t kLowSeven = 0x7F7F7F7F7F7F7F7Full;
  constexpr uint64_t kHighBits = 0x8080808080808080ull;
  for (; i + 8 <= count; i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    // Each byte's high bit ends up set when the byte is not zero: its low seven bits carry into
    // it (no carry leaves the byte: 0x7F + 0x7F < 0x100), or it was set already.
    const uint64_t flags = (((word & kLowSeven) + kLowSeven) | word) & kHighBits;
    // One 0/1 per byte, summed into the top byte by the multiply (at most 8).
    nonzero += static_cast<size_t>(((flags >> 7) * 0x0101010101010101ull) >> 56);
  }
  for (; i < count; ++i) nonzero += bytes[i] != 0;
  return nonzero;
}

}  // namespace

FrameComparison compare_frames(const Framebuffer& expected, const Framebuffer& actual,
                               const CompareOptions& options) {
  FrameComparison out;
  if (expected.width() != actual.width() || expected.height() != actual.height()) {
    out.same_size = false;
    return out;
  }
  const Framebuffer* excluded = options.excluded;
  if (excluded != nullptr &&
      (excluded->width() != expected.width() || excluded->height() != expected.height())) {
    throw std::invalid_argument("exclusion mask size differs from the frames");
  }
  // Built only when two indices first differ: most comparisons find none, and the table costs
  // 65,536 colour comparisons.
  std::vector<bool> equal;
  const size_t width = static_cast<size_t>(expected.width());
  int left = expected.width(), top = expected.height(), right = 0, bottom = 0;
  for (int y = 0; y < expected.height(); ++y) {
    const uint8_t* e = expected.row(y);
    const uint8_t* a = actual.row(y);
    const uint8_t* m = excluded != nullptr ? excluded->row(y) : nullptr;
    // A row whose indices all match has no difference, masked or not; only its excluded pixels
    // are left to count.
    if (std::memcmp(e, a, width) == 0) {
      if (m != nullptr) out.excluded += static_cast<uint64_t>(count_nonzero(m, width));
      continue;
    }
    for (int x = 0; x < expected.width(); ++x) {
      if (m != nullptr && m[x] != 0) {
        ++out.excluded;
        continue;
      }
      if (e[x] == a[x]) continue;
      if (options.same_colour != nullptr) {
        if (equal.empty()) equal = index_equality(options.same_colour);
        if (equal[static_cast<size_t>(e[x]) * 256 + a[x]]) continue;
      }
      if (out.differing == 0) out.first = PixelDifference{x, y, e[x], a[x]};
      ++out.differing;
      left = std::min(left, x);
      right = std::max(right, x + 1);
      top = std::min(top, y);
      bottom = std::max(bottom, y + 1);
    }
  }
  if (out.differing != 0) out.bounds = {left, top, right, bottom};
  return out;
}

void exclude_rect(Framebuffer& mask, const ClipRect& rect) {
  const ClipRect r = rect.intersect(mask.bounds());
  if (r.empty()) return;
  for (int y = r.top; y < r.bottom; ++y) {
    uint8_t* row = mask.row(y);
    std::fill(row + r.left, row + r.right, uint8_t{1});
  }
}

PaletteComparison compare_palettes(const Framebuffer& expected, const Palette& expected_palette,
                                   int expected_entries, const Framebuffer& actual,
                                   const Palette& actual_palette, int actual_entries) {
  const int limit = std::min({expected_entries, actual_entries, 256});
  PaletteComparison out;
  // Palettes that agree on every compared entry agree on the used ones: no need to find which
  // entries the frames use (a pass over every pixel of both).
  if (limit <= 0 ||
      std::equal(expected_palette.colors.begin(), expected_palette.colors.begin() + limit,
                 actual_palette.colors.begin()))
    return out;
  std::array<bool, 256> used{};
  for (uint8_t v : expected.pixels()) used[v] = true;
  for (uint8_t v : actual.pixels()) used[v] = true;
  for (int i = 0; i < limit; ++i) {
    const auto at = static_cast<size_t>(i);
    if (!used[at] || expected_palette.colors[at] == actual_palette.colors[at]) continue;
    if (out.differing == 0)
      out.first = PaletteDifference{i, expected_palette.colors[at], actual_palette.colors[at]};
    ++out.differing;
  }
  return out;
}

}  // namespace shapevm::raster
