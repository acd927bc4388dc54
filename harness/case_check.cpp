#include "harness/case_check.h"

#include <fmt/format.h>

#include <chrono>
#include <mutex>
#include <system_error>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/capture_cache.h"
#include "raster/png_io.h"

namespace shapevm::harness {

namespace {

std::string hex(raster::Rgb c) {
  return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
}

std::string describe(const CaseResult& r) {
  const raster::FrameComparison& p = r.pixels;
  if (!p.same_size) {
    return fmt::format("size differs: capture {}x{}, ours {}x{}", r.capture->width(),
                       r.capture->height(), r.ours->width(), r.ours->height());
  }
  std::string text;
  if (p.differing != 0) {
    text = fmt::format(
        "{} pixel{} differ{} in x {}..{}, y {}..{}; first at ({}, {}): capture {}, ours {}",
        p.differing, p.differing == 1 ? "" : "s", p.differing == 1 ? "s" : "", p.bounds.left,
        p.bounds.right - 1, p.bounds.top, p.bounds.bottom - 1, p.first->x, p.first->y,
        p.first->expected, p.first->actual);
  }
  if (!r.palette.identical()) {
    const auto& f = *r.palette.first;
    text += fmt::format("{}{} used palette entr{} differ{}; first {}: capture {}, ours {}",
                        text.empty() ? "" : "; ", r.palette.differing,
                        r.palette.differing == 1 ? "y" : "ies", r.palette.differing == 1 ? "s" : "",
                        f.index, hex(f.expected), hex(f.actual));
  }
  return text;
}

// write_file_atomic names its temporary file after the process, so two worker threads blessing
// the same capture (cases may share one) must not write at the same time.
std::mutex capture_write_mutex;

void write_capture(const RegressCase& c, const RenderedCase& ours) {
  std::lock_guard lock(capture_write_mutex);
  if (c.capture_format == CaptureFormat::kRaw) {
    write_file_atomic(c.capture, ours.frame.pixels());
  } else {
    raster::write_indexed_png(c.capture, ours.frame, ours.palette);
  }
}

// The pixels a case leaves out, or none when it has neither a mask nor a rectangle (most cases:
// no mask is made, cleared and consulted for them).
std::optional<raster::Framebuffer> exclusions(const RegressCase& c,
                                              const raster::Framebuffer& ours) {
  if (c.mask.empty() && c.exclude.empty()) return std::nullopt;
  raster::Framebuffer excluded(ours.width(), ours.height(), 0);
  if (!c.mask.empty()) {
    raster::Framebuffer mask = raster::read_mask_png(c.mask);
    if (mask.width() != ours.width() || mask.height() != ours.height()) {
      throw InputError(c.mask.string(),
                       fmt::format("the mask is {}x{}; the case's frame is {}x{}", mask.width(),
                                   mask.height(), ours.width(), ours.height()));
    }
    excluded = std::move(mask);
  }
  for (const auto& rect : c.exclude) raster::exclude_rect(excluded, rect);
  return excluded;
}

}  // namespace

const char* case_status_name(CaseStatus status) {
  switch (status) {
    case CaseStatus::kPassed:
      return "passed";
    case CaseStatus::kFailed:
      return "FAILED";
    case CaseStatus::kError:
      return "ERROR";
    case CaseStatus::kUpdated:
      return "updated";
  }
  return "?";
}

CaseResult check_case(const RegressCase& c, CaseRenderer& renderer, bool update,
                      CaptureCache* captures) {
  const auto start = std::chrono::steady_clock::now();
  CaseResult r;
  r.c = &c;
  try {
    RenderedCase ours = renderer.render(c);
    r.warnings = ours.warnings;
    std::error_code ec;
    const bool have_capture = std::filesystem::exists(c.capture, ec);
    if (!have_capture && !update) {
      throw InputError(c.capture.string(),
                       "no such capture (run with --update to bless our frame as the capture)");
    }
    if (have_capture) {
      std::optional<raster::Framebuffer> excluded = exclusions(c, ours.frame);
      const std::shared_ptr<const raster::IndexedImage> decoded =
          captures ? captures->take(c, ours.palette) : read_capture(c, ours.palette);
      const raster::Framebuffer& capture = decoded->frame;
      const raster::Palette& capture_palette = decoded->palette;
      r.compared_by_colour = decoded->mapped_from_rgb;
      raster::CompareOptions options;
      options.excluded = excluded ? &*excluded : nullptr;
      if (r.compared_by_colour) options.same_colour = &ours.palette;
      r.pixels = raster::compare_frames(capture, ours.frame, options);
      if (r.pixels.same_size && !r.compared_by_colour) {
        r.palette = raster::compare_palettes(capture, capture_palette, decoded->palette_entries,
                                             ours.frame, ours.palette, 256);
      }
      if (r.pixels.identical() && r.palette.identical()) {
        r.status = CaseStatus::kPassed;
      } else {
        r.status = CaseStatus::kFailed;
        r.ours = ours.frame;
        r.ours_palette = ours.palette;
        r.capture = capture;
        r.capture_palette = capture_palette;
        r.excluded = std::move(excluded);
        r.message = describe(r);
      }
    }
    if (update && (!have_capture || r.status == CaseStatus::kFailed)) {
      write_capture(c, ours);
      if (captures) captures->forget(c.capture);
      r.message = have_capture ? "re-blessed (was: " + r.message + ")" : "blessed (new capture)";
      r.status = CaseStatus::kUpdated;
    }
  } catch (const std::exception& e) {
    // InputError and anything else a bad case can throw (e.g. std::invalid_argument for a frame
    // size): this case is an error, the others still run.
    r.status = CaseStatus::kError;
    r.message = e.what();
    r.ours.reset();
    r.capture.reset();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace shapevm::harness
