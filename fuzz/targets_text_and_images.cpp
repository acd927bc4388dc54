// Targets for what the tools read besides programs: PNG captures, regression manifests, reference
// traces for trace-diff, and every engine's assembler text.
#include <libdeflate.h>

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/input_error.h"
#include "fuzz/target_support.h"
#include "fuzz/targets_by_engine.h"
#include "harness/regress_manifest.h"
#include "harness/trace_diff.h"
#include "interp/common/registry.h"
#include "raster/frame_deflate.h"
#include "raster/palette.h"
#include "raster/png_fast_read.h"
#include "raster/png_io.h"

namespace shapevm::fuzzing {
namespace {

std::string_view as_text(std::span<const uint8_t> data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

// The PNG writer's encoder on the same bytes, taken as whole rows of an image 1 to 256 pixels
// wide (the selector picks the width, and one or three bytes a pixel): what it writes must
// inflate to exactly those rows.
void check_frame_deflate(std::span<const uint8_t> bytes, uint8_t selector) {
  const size_t pixel_bytes = selector & 1 ? 3 : 1;
  const size_t row_bytes = (size_t{selector} + 1) * pixel_bytes;
  const size_t height = bytes.size() / row_bytes;
  if (height == 0) return;
  std::vector<uint8_t> rows;
  rows.reserve(height * (row_bytes + 1));
  for (size_t y = 0; y < height; ++y) {
    rows.push_back(0);
    rows.insert(rows.end(), bytes.begin() + static_cast<std::ptrdiff_t>(y * row_bytes),
                bytes.begin() + static_cast<std::ptrdiff_t>((y + 1) * row_bytes));
  }
  std::vector<uint8_t> stream;
  raster::deflate_frame_rows(rows, row_bytes + 1, pixel_bytes, stream);
  static libdeflate_decompressor* const inflater = libdeflate_alloc_decompressor();
  if (inflater == nullptr) throw std::bad_alloc();
  std::vector<uint8_t> back(rows.size());
  size_t got = 0;
  if (libdeflate_zlib_decompress(inflater, stream.data(), stream.size(), back.data(), back.size(),
                                 &got) != LIBDEFLATE_SUCCESS ||
      got != rows.size() || back != rows)
    throw std::logic_error("the PNG writer's stream does not inflate to the rows it was given");
}

}  // namespace

// The first byte picks how the PNG is read: as an indexed capture, as an RGB capture matched
// against the default palette, or as a mask.
bool fuzz_png(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  check_frame_deflate(rest, data[0]);  // first: most inputs are then rejected as PNGs
  static const raster::Palette palette = raster::default_palette();
  // A file a libdeflate reader accepts must decode to exactly what libpng gives (an RGB one
  // mapped onto the default palette, a mask as a mask).
  auto same_as_libpng = [&](const raster::IndexedImage& fast, const raster::Palette* rgb) {
    raster::IndexedImage reference;
    try {
      reference = raster::decode_png_libpng(rest, kFuzzSource, rgb);
    } catch (const InputError& e) {
      throw std::logic_error(std::string("the fast PNG reader accepted what libpng rejects: ") +
                             e.what());
    }
    if (!(fast.frame == reference.frame) || fast.palette.colors != reference.palette.colors ||
        fast.palette_entries != reference.palette_entries ||
        fast.mapped_from_rgb != reference.mapped_from_rgb)
      throw std::logic_error("the fast PNG reader and libpng decode differently");
  };
  if (const auto fast = raster::decode_indexed8_png(rest)) same_as_libpng(*fast, nullptr);
  if (const auto fast = raster::decode_rgb8_png(rest, palette)) same_as_libpng(*fast, &palette);
  // decode_png's own fast path, which reads the chunks once for both kinds.
  if (const auto fast = raster::decode_png8(rest, nullptr)) same_as_libpng(*fast, nullptr);
  if (const auto fast = raster::decode_png8(rest, &palette)) same_as_libpng(*fast, &palette);
  if (const auto fast = raster::decode_mask8_png(rest)) {
    std::optional<raster::Framebuffer> reference;
    try {
      reference = raster::decode_mask_png_libpng(rest, kFuzzSource);
    } catch (const InputError& e) {
      throw std::logic_error(std::string("the fast mask reader accepted what libpng rejects: ") +
                             e.what());
    }
    if (!(*fast == *reference))
      throw std::logic_error("the fast mask reader and libpng read differently");
  }
  switch (data[0] % 3) {
    case 0:
      (void)raster::decode_png(rest, kFuzzSource);
      break;
    case 1:
      (void)raster::decode_png(rest, kFuzzSource, &palette);
      break;
    case 2:
      (void)raster::decode_mask_png(rest, kFuzzSource);
      break;
  }
  return true;
}

// A regression manifest (JSON), validated against the registered engines.
bool fuzz_regress_manifest(std::span<const uint8_t> data) {
  (void)harness::parse_manifest(as_text(data), kFuzzSource, engine_names());
  return true;
}

// A reference trace for trace-diff (JSON Lines, or plain lines with GLOBAL=VALUE), compared with
// itself (no divergence may be found) and with its own first half.
bool fuzz_trace_reference(std::span<const uint8_t> data) {
  const auto text = as_text(data);
  const harness::Trace trace = harness::parse_trace(text, kFuzzSource);
  const auto self = harness::diff_traces(trace, trace);
  if (self.diverged || !self.state_differences.empty())
    throw std::logic_error("a trace differs from itself: " + self.report);
  const auto cut = text.find('\n', text.size() / 2);
  if (cut != std::string_view::npos) {
    try {
      (void)harness::diff_traces(trace, harness::parse_trace(text.substr(0, cut + 1), kFuzzSource));
    } catch (const InputError&) {
      // The half may end where the whole did not (a reference with no events).
    }
  }
  return true;
}

// The first byte picks the engine; the rest is its assembler text: assembled to files, and opened
// as the program it assembles to.
bool fuzz_assemblers(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto& all = engines();
  const Engine& engine = *all[data[0] % all.size()];
  const auto text = as_text(data.subspan(1));
  (void)engine.assemble(text, kFuzzSource, "out");
  auto program = engine.open_text(text, kFuzzSource, std::nullopt, OpenOptions{});
  describe(*program);
  return true;
}

}  // namespace shapevm::fuzzing
