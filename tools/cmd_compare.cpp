// shapevm compare A B: two frames pixel for pixel (A = the capture, B = ours), with the palette
// colours of the indices they use; optionally a side-by-side diff image.
#include <fmt/format.h>

#include <filesystem>

#include "core/input_error.h"
#include "raster/diff_image.h"
#include "raster/frame_compare.h"
#include "raster/png_io.h"
#include "tools/command.h"
#include "tools/frame_input.h"
#include "tools/state_options.h"

namespace shapevm::tools {

namespace {

raster::ClipRect parse_exclude(const std::string& text) {
  int v[4] = {0, 0, 0, 0};
  size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const size_t comma = text.find(',', start);
    if ((i < 3) != (comma != std::string::npos))
      throw InputError("--exclude " + text, "expected x,y,width,height");
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      size_t used = 0;
      v[i] = std::stoi(part, &used);
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      throw InputError("--exclude " + text, "expected x,y,width,height as integers");
    }
    start = comma + 1;
  }
  if (v[0] < 0 || v[1] < 0 || v[2] < 1 || v[3] < 1)
    throw InputError("--exclude " + text, "expected x, y >= 0 and width, height >= 1");
  return {v[0], v[1], v[0] + v[2], v[1] + v[3]};
}

std::string hex(raster::Rgb c) {
  return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
}

}  // namespace

void register_compare_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string a, b;
    std::string palette;
    std::string size;
    std::string diff;
    std::string mask;
    std::vector<std::string> exclude;
    bool force = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare two 8-bit frames pixel for pixel: A (the capture) and B (ours). Each is an indexed "
      "PNG,\n"
      "an RGB/grey PNG matched exactly onto a palette, or a raw 8-bit dump (.raw, with --size). "
      "Prints\n"
      "the differing-pixel count, their bounding box and the first difference, and palette "
      "entries that\n"
      "the frames use but show in different colours. Exit 0 identical, 1 different, 2 bad "
      "input.");
  cmd->add_option("a", o->a, "The capture (expected frame)")->required();
  cmd->add_option("b", o->b, "Our frame")->required();
  cmd->add_option("--palette", o->palette,
                  "Palette for RGB PNGs and raw frames: an indexed .png (its PLTE), an FA .PAL, or "
                  "768 bytes of 8-bit RGB. Default: the other frame's PLTE, else the built-in "
                  "palette");
  cmd->add_option("--size", o->size, "WIDTHxHEIGHT of raw frames");
  cmd->add_option("--diff", o->diff,
                  "Write a diff image (PNG): A | B | highlighted difference side by side");
  cmd->add_option("--mask", o->mask, "PNG of excluded pixels (nonzero = not compared)");
  cmd->add_option("--exclude", o->exclude,
                  "x,y,width,height of a rectangle not compared; repeatable")
      ->take_all();
  cmd->add_flag("--force", o->force, "Overwrite the diff image if it exists");
  cmd->callback([o, &ctx] {
    if (!o->diff.empty()) check_output_option(o->diff, o->force, {".png"}, "PNG");
    std::optional<std::pair<int, int>> raw_size;
    if (!o->size.empty()) raw_size = parse_size(o->size);
    std::optional<raster::Palette> palette;
    if (!o->palette.empty()) palette = read_palette_argument(o->palette);
    // Without --palette an RGB frame is matched through the other frame's PLTE when that one is
    // an indexed PNG: comparing a screenshot with our indexed output needs no extra file.
    auto plte_of = [](const std::string& path) -> std::optional<raster::Palette> {
      if (is_raw_frame_path(path)) return std::nullopt;
      raster::IndexedImage image = raster::read_png(path, nullptr);
      return image.palette;
    };
    auto load = [&](const std::string& path, const std::string& other) {
      if (palette) return read_frame_file(path, &*palette, raw_size);
      try {
        return read_frame_file(path, nullptr, raw_size);
      } catch (const InputError&) {
        // Not lost: only an RGB PNG fails for want of a palette, and any other problem (a broken
        // file) fails again, and is reported, by the read with a palette below.
      }
      std::optional<raster::Palette> fallback;
      try {
        fallback = plte_of(other);
      } catch (const InputError&) {
        // The other frame is not an indexed PNG (or is broken, which its own read reports): use
        // the built-in palette.
      }
      raster::Palette p = fallback ? *fallback : raster::default_palette();
      return read_frame_file(path, &p, raw_size);
    };
    FrameFile a = load(o->a, o->b);
    FrameFile b = load(o->b, o->a);
    const bool by_colour = a.kind == FrameFileKind::kRgbPng || b.kind == FrameFileKind::kRgbPng;

    raster::Framebuffer excluded(a.image.frame.width(), a.image.frame.height(), 0);
    if (!o->mask.empty()) {
      raster::Framebuffer mask = raster::read_mask_png(o->mask);
      if (mask.width() != excluded.width() || mask.height() != excluded.height())
        throw InputError(o->mask,
                         fmt::format("the mask is {}x{}; the frames are {}x{}", mask.width(),
                                     mask.height(), excluded.width(), excluded.height()));
      excluded = std::move(mask);
    }
    for (const auto& e : o->exclude) raster::exclude_rect(excluded, parse_exclude(e));

    raster::CompareOptions options;
    options.excluded = &excluded;
    // An RGB side has colours, not indices: compare what is shown.
    if (by_colour)
      options.same_colour = a.kind == FrameFileKind::kRgbPng ? &a.image.palette : &b.image.palette;
    const raster::FrameComparison pixels =
        raster::compare_frames(a.image.frame, b.image.frame, options);
    raster::PaletteComparison colours;
    if (pixels.same_size && !by_colour)
      colours = raster::compare_palettes(a.image.frame, a.image.palette, a.image.palette_entries,
                                         b.image.frame, b.image.palette, b.image.palette_entries);

    fmt::print("A: {} ({}x{}), B: {} ({}x{})\n", o->a, a.image.frame.width(),
               a.image.frame.height(), o->b, b.image.frame.width(), b.image.frame.height());
    if (!pixels.same_size) {
      fmt::print("different: the sizes differ\n");
    } else if (pixels.differing == 0) {
      fmt::print("pixels identical ({} compared, {} excluded)\n",
                 a.image.frame.pixels().size() - pixels.excluded, pixels.excluded);
    } else {
      fmt::print("{} pixel{} differ{} ({} excluded)\n", pixels.differing,
                 pixels.differing == 1 ? "" : "s", pixels.differing == 1 ? "s" : "",
                 pixels.excluded);
      fmt::print("bounding box: x {}..{}, y {}..{} ({}x{})\n", pixels.bounds.left,
                 pixels.bounds.right - 1, pixels.bounds.top, pixels.bounds.bottom - 1,
                 pixels.bounds.right - pixels.bounds.left,
                 pixels.bounds.bottom - pixels.bounds.top);
      const auto& f = *pixels.first;
      fmt::print("first difference: ({}, {}): A index {} {}, B index {} {}\n", f.x, f.y, f.expected,
                 hex(a.image.palette.colors[f.expected]), f.actual,
                 hex(b.image.palette.colors[f.actual]));
    }
    if (!colours.identical()) {
      const auto& f = *colours.first;
      fmt::print("palette: {} used entr{} differ{}; first: index {}: A {}, B {}\n",
                 colours.differing, colours.differing == 1 ? "y" : "ies",
                 colours.differing == 1 ? "s" : "", f.index, hex(f.expected), hex(f.actual));
    }
    if (!o->diff.empty()) {
      raster::DiffInput in{&a.image.frame, &a.image.palette, &b.image.frame, &b.image.palette,
                           options};
      if (!pixels.same_size) in.options.excluded = nullptr;
      raster::write_rgb_png(o->diff, raster::side_by_side_diff(in));
      fmt::print("diff image: {}\n", o->diff);
    }
    const bool identical = pixels.identical() && colours.identical();
    fmt::print("{}\n", identical ? "identical" : "different");
    if (!identical) ctx.exit_code = 1;
  });
}

}  // namespace shapevm::tools
