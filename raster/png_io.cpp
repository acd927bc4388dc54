#include "raster/png_io.h"

#include <fmt/format.h>
#include <png.h>

#include <array>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>

#include "core/file_io.h"
#include "core/input_error.h"
#include "raster/colour_index.h"
#include "raster/png_fast_read.h"
#include "raster/png_fast_write.h"

// libpng reports errors by longjmp. longjmp may only skip frames that own no objects with
// destructors, so the function that calls setjmp below (run_png_read) creates no
// such objects: every container they fill is owned by the caller and reached through a state
// struct, and the libpng callbacks never let a C++ exception escape into libpng.

namespace shapevm::raster {

namespace {

constexpr size_t kMessageSize = 256;

struct PngMessage {
  char text[kMessageSize] = {};
};

[[noreturn]] void on_png_error(png_structp png, png_const_charp message) {
  auto* sink = static_cast<PngMessage*>(png_get_error_ptr(png));
  std::snprintf(sink->text, kMessageSize, "%s", message ? message : "libpng error");
  png_longjmp(png, 1);
}

// Warnings (e.g. about ancillary chunks) do not change the pixels; they are not reported.
void on_png_warning(png_structp, png_const_charp) {}

struct PngReadState {
  PngMessage message;
  std::span<const uint8_t> input;
  size_t position = 0;
  // Outputs, owned by the caller.
  std::vector<uint8_t>* pixels = nullptr;
  std::vector<png_bytep>* rows = nullptr;
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  bool indexed = false;
  std::array<png_color, 256> plte{};
  int plte_entries = 0;
};

void on_png_read(png_structp png, png_bytep data, size_t length) {
  auto* state = static_cast<PngReadState*>(png_get_io_ptr(png));
  if (length > state->input.size() - state->position) png_error(png, "the file ends early");
  std::memcpy(data, state->input.data() + state->position, length);
  state->position += length;
}

// Decodes into state.pixels: one byte per pixel for indexed images, RGBA otherwise.
bool run_png_read(PngReadState& state) {
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &state.message, on_png_error, on_png_warning);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &state, on_png_read);
  png_set_user_limits(png, Framebuffer::kMaxDimension, Framebuffer::kMaxDimension);
  png_read_info(png, info);
  int bit_depth = 0;
  int color_type = 0;
  png_get_IHDR(png, info, &state.width, &state.height, &bit_depth, &color_type, nullptr, nullptr,
               nullptr);
  size_t channels = 1;
  if (color_type == PNG_COLOR_TYPE_PALETTE) {
    state.indexed = true;
    png_set_packing(png);  // 1, 2 and 4-bit indices become one byte each
    png_colorp plte = nullptr;
    int entries = 0;
    if (png_get_PLTE(png, info, &plte, &entries) != 0) {
      state.plte_entries = entries < 0 ? 0 : (entries > 256 ? 256 : entries);
      std::memcpy(state.plte.data(), plte,
                  sizeof(png_color) * static_cast<size_t>(state.plte_entries));
    }
  } else {
    channels = 4;
    png_set_expand(png);  // low-depth grey to 8 bits, tRNS to alpha
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && png_get_valid(png, info, PNG_INFO_tRNS) == 0) {
      png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  const size_t row_bytes = static_cast<size_t>(state.width) * channels;
  if (png_get_rowbytes(png, info) != row_bytes) png_error(png, "unexpected row layout");
  // png_error longjmps, which must not leave a catch handler: note the failure, then report it.
  bool allocated = true;
  try {
    state.pixels->resize(row_bytes * state.height);
    state.rows->resize(state.height);
  } catch (const std::bad_alloc&) {
    allocated = false;
  }
  if (!allocated) png_error(png, "out of memory");
  for (png_uint_32 y = 0; y < state.height; ++y) {
    (*state.rows)[y] = state.pixels->data() + row_bytes * y;
  }
  png_read_image(png, state.rows->data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

// Decodes `bytes` into `pixels` (with `rows` pointing into it); InputError "<what>: <reason>".
void read_png_or_throw(std::span<const uint8_t> bytes, const std::string& source, const char* what,
                       PngReadState& state, std::vector<uint8_t>& pixels,
                       std::vector<png_bytep>& rows) {
  state.input = bytes;
  state.pixels = &pixels;
  state.rows = &rows;
  if (!run_png_read(state)) {
    throw InputError(
        source, fmt::format("{}: {}", what,
                            state.message.text[0] != '\0' ? state.message.text : "libpng failed"));
  }
}

}  // namespace

std::vector<uint8_t> encode_indexed_png(const Framebuffer& frame, const Palette& palette) {
  return encode_png_fast(static_cast<uint32_t>(frame.width()),
                         static_cast<uint32_t>(frame.height()), frame.pixels(), &palette);
}

void write_indexed_png(const std::filesystem::path& path, const Framebuffer& frame,
                       const Palette& palette) {
  write_file_atomic(path, encode_indexed_png(frame, palette));
}

IndexedImage decode_png(std::span<const uint8_t> bytes, const std::string& source,
                        const Palette* rgb_palette) {
  if (auto image = decode_png8(bytes, rgb_palette)) return std::move(*image);
  return decode_png_libpng(bytes, source, rgb_palette);
}

IndexedImage decode_png_libpng(std::span<const uint8_t> bytes, const std::string& source,
                               const Palette* rgb_palette) {
  std::vector<uint8_t> pixels;
  std::vector<png_bytep> rows;
  PngReadState state;
  read_png_or_throw(bytes, source, "not a readable PNG", state, pixels, rows);
  const int width = static_cast<int>(state.width);
  const int height = static_cast<int>(state.height);
  IndexedImage image{Framebuffer(width, height), Palette{}, 0};
  if (state.indexed) {
    std::copy(pixels.begin(), pixels.end(), image.frame.pixels().begin());
    image.palette_entries = state.plte_entries;
    for (int i = 0; i < state.plte_entries; ++i) {
      const png_color& c = state.plte[static_cast<size_t>(i)];
      image.palette.colors[static_cast<size_t>(i)] = {c.red, c.green, c.blue};
    }
    return image;
  }

  if (rgb_palette == nullptr) {
    throw InputError(source, "an RGB PNG needs a palette to map its colours to indices");
  }
  image.palette = *rgb_palette;
  image.palette_entries = 256;
  image.mapped_from_rgb = true;
  const ColourIndex index_of(*rgb_palette);  // the lowest index of each colour
  auto out = image.frame.pixels();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const size_t at =
          static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x);
      const uint8_t* rgba = pixels.data() + at * 4;
      if (rgba[3] != 255) {
        throw InputError(source, fmt::format("pixel ({}, {}) has alpha {}; captures must be opaque",
                                             x, y, rgba[3]));
      }
      const std::optional<uint8_t> found = index_of.find(rgba[0], rgba[1], rgba[2]);
      if (!found) {
        throw InputError(source,
                         fmt::format("pixel ({}, {}) has colour #{:02x}{:02x}{:02x}, which is not "
                                     "in the palette",
                                     x, y, rgba[0], rgba[1], rgba[2]));
      }
      out[at] = *found;
    }
  }
  return image;
}

std::vector<uint8_t> encode_rgb_png(const RgbImage& image) {
  const size_t expected = static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3;
  if (image.width < 1 || image.height < 1 || image.width > Framebuffer::kMaxDimension ||
      image.height > Framebuffer::kMaxDimension || image.rgb.size() != expected) {
    throw std::invalid_argument(
        fmt::format("RGB image {}x{} with {} bytes", image.width, image.height, image.rgb.size()));
  }
  return encode_png_fast(static_cast<uint32_t>(image.width), static_cast<uint32_t>(image.height),
                         image.rgb, nullptr);
}

void write_rgb_png(const std::filesystem::path& path, const RgbImage& image) {
  write_file_atomic(path, encode_rgb_png(image));
}

Framebuffer decode_mask_png(std::span<const uint8_t> bytes, const std::string& source) {
  // An 8-bit mask is read without libpng, as a capture is (png_fast_read.h): through libpng and
  // zlib a 640x480 mask took 0.65 ms indexed and 1.3 ms RGB, read again for every case that
  // names it.
  if (auto mask = decode_mask8_png(bytes)) return std::move(*mask);
  return decode_mask_png_libpng(bytes, source);
}

Framebuffer decode_mask_png_libpng(std::span<const uint8_t> bytes, const std::string& source) {
  std::vector<uint8_t> pixels;
  std::vector<png_bytep> rows;
  PngReadState state;
  read_png_or_throw(bytes, source, "not a readable PNG mask", state, pixels, rows);
  Framebuffer mask(static_cast<int>(state.width), static_cast<int>(state.height));
  auto out = mask.pixels();
  for (size_t i = 0; i < out.size(); ++i) {
    if (state.indexed) {
      out[i] = pixels[i] != 0 ? 1 : 0;
    } else {
      const uint8_t* rgba = pixels.data() + i * 4;
      out[i] = (rgba[0] | rgba[1] | rgba[2]) != 0 ? 1 : 0;
    }
  }
  return mask;
}

Framebuffer read_mask_png(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return decode_mask_png(bytes, path.string());
}

IndexedImage read_png(const std::filesystem::path& path, const Palette* rgb_palette) {
  const std::vector<uint8_t> bytes = read_file(path);
  return decode_png(bytes, path.string(), rgb_palette);
}

Framebuffer read_raw_indexed(const std::filesystem::path& path, int width, int height) {
  if (width < 1 || height < 1 || width > Framebuffer::kMaxDimension ||
      height > Framebuffer::kMaxDimension) {
    throw InputError(path.string(), fmt::format("raw frame size {}x{}: each side must be 1..{}",
                                                width, height, Framebuffer::kMaxDimension));
  }
  const std::vector<uint8_t> bytes = read_file(path);
  const size_t expected = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (bytes.size() != expected) {
    throw InputError(path.string(),
                     fmt::format("expected exactly {} bytes for a raw {}x{} 8-bit frame, got {}",
                                 expected, width, height, bytes.size()));
  }
  Framebuffer frame = Framebuffer::for_overwrite(width, height);
  std::copy(bytes.begin(), bytes.end(), frame.pixels().begin());
  return frame;
}

}  // namespace shapevm::raster
