// Apache, Starlancer and Battle Isle 2 targets: each engine's container and program run to a
// frame, and the files it reads besides the program (textures, palettes, decompressors).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "fuzz/target_support.h"
#include "fuzz/targets_by_engine.h"
#include "interp/apache/palette.h"
#include "interp/apache/textures.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/palette.h"
#include "interp/bi2/tpwm.h"
#include "interp/common/registry.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "interp/shp/tcache.h"

namespace shapevm::fuzzing {

// The first byte picks the record (and, with 0x80, a traced run); the rest is 3DOBJS.BIN: the
// archive, the record's program listed, described, run and drawn.
bool fuzz_apache_run(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  open_describe_run(engine_named("apache"), data.subspan(1), data[0], true);
  return true;
}

// The first byte picks the reader: OBJTEXT.BIN (every texture converted, masked and not) or
// 3DPAL.RGB (with the shading tables built from it).
bool fuzz_apache_assets(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  if (data[0] % 2 == 0) {
    const apache::TextureArchive textures(rest, kFuzzSource);
    size_t n = 0;
    for (const auto& t : textures.textures()) {
      if (++n > 8) break;
      (void)apache::to_raster_texture(t, false);
      (void)apache::to_raster_texture(t, true);
    }
  } else {
    (void)apache::build_shading_tables(apache::read_3dpal(rest, kFuzzSource));
  }
  return true;
}

// The first byte picks the member of a resource.hog (and a traced run); the rest is a .SHP model
// or a HOG holding models: loaded, described, run and drawn.
bool fuzz_shp_run(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  open_describe_run(engine_named("shp"), data.subspan(1), data[0], true);
  return true;
}

// The first byte picks the reader: a HOG directory with its first members decompressed, a raw
// RefPack stream (decompressed whole and walked for its head only, which must agree), palette.tga,
// or a tcache texture file with its first textures converted.
bool fuzz_shp_files(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  switch (data[0] % 4) {
    case 0: {
      const shp::Hog hog = shp::read_hog(rest, kFuzzSource);
      size_t n = 0;
      for (const auto& entry : hog.entries) {
        if (++n > 4) break;
        (void)shp::member_image(rest, entry, kFuzzSource);
      }
      break;
    }
    case 1: {
      // The head-only walk recognition uses must agree with the whole decoder on what it walks:
      // a refusal is the decoder's own; otherwise the decoder gives the same size and first
      // bytes, or refuses something after the commands the walk read (which are all it read).
      constexpr size_t kKeep = 64;
      std::optional<shp::RefPackHead> head;
      std::string head_refusal;
      try {
        head = shp::refpack_head(rest, kFuzzSource, kKeep);
      } catch (const InputError& e) {
        head_refusal = e.what();
      }
      std::optional<std::vector<uint8_t>> whole;
      std::string whole_refusal;
      uint64_t whole_refused_at = 0;
      try {
        whole = shp::refpack_decompress(rest, kFuzzSource);
      } catch (const InputError& e) {
        whole_refusal = e.what();
        whole_refused_at = e.has_offset() ? e.offset() : 0;
      }
      bool agree = true;
      if (!head) {
        agree = head_refusal == whole_refusal;
      } else if (head->input_read > rest.size()) {
        agree = false;
      } else if (whole) {
        agree = head->size == whole->size() &&
                std::equal(head->head.begin(), head->head.end(), whole->begin(),
                           whole->begin() + std::min<ptrdiff_t>(kKeep, std::ssize(*whole)));
      } else {
        agree = head->size > kKeep && whole_refused_at >= head->input_read;
      }
      if (agree && head) {
        // Nothing past input_read was read: the walk of just those bytes gives the same.
        const auto again = shp::refpack_head(rest.first(head->input_read), kFuzzSource, kKeep);
        agree = again.size == head->size && again.head == head->head &&
                again.input_read == head->input_read;
      }
      if (!agree) {
        std::fprintf(stderr, "whole: %s\nhead: %s\n",
                     whole ? fmt::format("{} bytes", whole->size()).c_str() : whole_refusal.c_str(),
                     head ? fmt::format("{} bytes, {} read", head->size, head->input_read).c_str()
                          : head_refusal.c_str());
        std::abort();
      }
      break;
    }
    case 2:
      (void)shp::read_palette_tga(rest, kFuzzSource);
      break;
    case 3: {
      const shp::TextureCache cache(rest, kFuzzSource);
      size_t n = 0;
      for (const auto& entry : cache.entries()) {
        if (++n > 4) break;
        (void)shp::to_indexed_texture(entry, raster::default_palette());
      }
      break;
    }
  }
  return true;
}

// The first byte picks the member (and a traced run); the rest is a Battle Isle 2 .LIB of 3DOB
// meshes or 3DLD scenery lists (TPWM-packed or not): opened, described, run and drawn.
bool fuzz_bi2_run(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  open_describe_run(engine_named("bi2"), data.subspan(1), data[0], true);
  return true;
}

// The first byte picks the reader: the LIB directory with its first members decoded, a raw TPWM
// stream, or a fight palette.
bool fuzz_bi2_lib(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  switch (data[0] % 3) {
    case 0: {
      const bi2::LibArchive lib(rest, kFuzzSource);
      size_t n = 0;
      for (const auto& m : lib.members()) {
        if (++n > 4) break;
        (void)lib.decoded(m);
      }
      break;
    }
    case 1:
      (void)bi2::tpwm_decode(rest, kFuzzSource);
      break;
    case 2:
      (void)bi2::read_fight_palette(bi2::tpwm_decode(rest, kFuzzSource), kFuzzSource);
      break;
  }
  return true;
}

}  // namespace shapevm::fuzzing
