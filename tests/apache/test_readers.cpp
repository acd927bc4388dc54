// The OBJTEXT.BIN and 3DPAL.RGB readers (AP-26, AP-27) on files written byte by byte here, with
// every expected value worked out by hand from the seed's layout (the golden frames only guard
// against change; these state what the values must be).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/apache/palette.h"
#include "interp/apache/textures.h"

namespace apache_readers_tests {

using namespace shapevm;

namespace {

// A counted table of `types.size()` slots; slot i holds a texture of type types[i] (negative =
// empty) whose pixel p is (p * 7 + i) & 0xFF. Header words 1 and 2 are stored as 0xAAAA and 0.
std::vector<uint8_t> objtext(const std::vector<int>& types) {
  std::vector<uint8_t> out;
  append_u32(out, static_cast<uint32_t>(types.size()));
  out.resize(4 + 4 * types.size(), 0);
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] < 0) continue;
    const auto at = static_cast<uint32_t>(out.size());
    put_u32(out, 4 + 4 * i, at);
    append_u32(out, static_cast<uint32_t>(types[i]));
    append_u32(out, 0xAAAA);
    append_u32(out, 0);
    for (uint32_t p = 0; p < 4096; ++p) out.push_back(static_cast<uint8_t>((p * 7 + i) & 0xFF));
  }
  return out;
}

}  // namespace

TEST_CASE("AP-26 OBJTEXT.BIN: type 0/1/2 gives row stride 16/32/64 and word 2 points at pixels") {
  // Slots: 0 empty, 1 type 0, 2 type 1, 3 type 2. The table is 4 + 4 * 4 = 20 bytes, and each
  // texture 12 + 4096 = 4108 bytes: headers at 20, 4128 and 8236, pixels 12 bytes later.
  const std::vector<uint8_t> bytes = objtext({-1, 0, 1, 2});
  REQUIRE(bytes.size() == 20 + 3 * 4108);
  const apache::TextureArchive archive(bytes, "OBJTEXT.BIN");
  CHECK(archive.slots() == 4);
  CHECK(archive.find(0) == nullptr);
  CHECK(archive.find(4) == nullptr);
  const apache::ApacheTexture* t16 = archive.find(1);
  const apache::ApacheTexture* t32 = archive.find(2);
  const apache::ApacheTexture* t64 = archive.find(3);
  REQUIRE(t16 != nullptr);
  REQUIRE(t32 != nullptr);
  REQUIRE(t64 != nullptr);
  CHECK(t16->type == 0);
  CHECK(t16->stride == 16);
  CHECK(t32->type == 1);
  CHECK(t32->stride == 32);
  CHECK(t64->type == 2);
  CHECK(t64->stride == 64);
  // The header as stored, and the word the loader rewrites to the pixels' address.
  CHECK(t16->offset == 20);
  CHECK(t16->header == std::array<uint32_t, 3>{0, 0xAAAA, 0});
  CHECK(t16->pixel_address == 32);
  CHECK(t32->offset == 4128);
  CHECK(t32->pixel_address == 4140);
  CHECK(t64->offset == 8236);
  CHECK(t64->pixel_address == 8248);
  CHECK(bytes[t64->pixel_address] == 3);  // pixel 0 of slot 3: (0 * 7 + 3)
  REQUIRE(t64->pixels.size() == 4096);
  CHECK(t64->pixels[100] == ((100 * 7 + 3) & 0xFF));

  // The image as sampled: stride pixels wide over the whole allocation, so texel (u, v) is pixel
  // v * stride + u: (1, 1) is pixel 17 at stride 16, 33 at 32 and 65 at 64.
  const raster::Texture r16 = apache::to_raster_texture(*t16, false);
  const raster::Texture r32 = apache::to_raster_texture(*t32, false);
  const raster::Texture r64 = apache::to_raster_texture(*t64, true);
  CHECK(r16.width == 16);
  CHECK(r16.height == 256);
  CHECK(r32.width == 32);
  CHECK(r32.height == 128);
  CHECK(r64.width == 64);
  CHECK(r64.height == 64);
  CHECK(r16.pixels[1 * 16 + 1] == ((17 * 7 + 1) & 0xFF));
  CHECK(r32.pixels[1 * 32 + 1] == ((33 * 7 + 2) & 0xFF));
  CHECK(r64.pixels[1 * 64 + 1] == ((65 * 7 + 3) & 0xFF));
  CHECK(r64.transparent_index == 0);
  CHECK(r16.transparent_index == raster::Texture::kNoTransparency);

  CHECK(apache::texture_stride(0) == 16);
  CHECK(apache::texture_stride(1) == 32);
  CHECK(apache::texture_stride(2) == 64);
  CHECK(apache::texture_stride(3) == 0);
}

TEST_CASE("AP-26 OBJTEXT.BIN: an unknown type and truncated pixels are errors at their offset") {
  CHECK_THROWS_WITH_AS(apache::TextureArchive(objtext({3}), "OBJTEXT.BIN"),
                       doctest::Contains("offset 0x8: expected texture slot 0's type to be 0, 1 "
                                         "or 2 (row stride 16, 32, 64), found 3"),
                       InputError);
  std::vector<uint8_t> cut = objtext({2});
  cut.pop_back();
  CHECK_THROWS_WITH_AS(apache::TextureArchive(cut, "OBJTEXT.BIN"),
                       doctest::Contains("texture slot 0: a 12-byte header and 4096 pixels"),
                       InputError);
}

TEST_CASE("AP-27 3DPAL.RGB: exactly 224 RGB colours become frame entries 0..223") {
  // Colour i = (i, 255 - i, i / 2), three bytes each.
  std::vector<uint8_t> bytes;
  for (int i = 0; i < 224; ++i) {
    bytes.push_back(static_cast<uint8_t>(i));
    bytes.push_back(static_cast<uint8_t>(255 - i));
    bytes.push_back(static_cast<uint8_t>(i / 2));
  }
  REQUIRE(bytes.size() == 672);
  const auto colours = apache::read_3dpal(bytes, "3DPAL.RGB");
  CHECK(colours[0].r == 0);
  CHECK(colours[0].g == 255);
  CHECK(colours[0].b == 0);
  CHECK(colours[223].r == 223);
  CHECK(colours[223].g == 32);
  CHECK(colours[223].b == 111);
  const apache::ShadingTables tables = apache::build_shading_tables(colours);
  CHECK(tables.frame.colors[100].r == 100);
  CHECK(tables.frame.colors[100].g == 155);
  CHECK(tables.frame.colors[100].b == 50);
  CHECK(tables.frame.colors[223].g == 32);
  // Entries past the 224 keep the built-in palette (sky, fog and terrain stand-ins).
  CHECK(tables.frame.colors[224] == raster::default_palette().colors[224]);
  CHECK(apache::encode_3dpal(colours) == bytes);

  for (size_t size : {0u, 671u, 673u, 768u}) {
    const std::string expected =
        "expected 224 RGB colours (672 bytes), the file is " + std::to_string(size) + " bytes";
    CHECK_THROWS_WITH_AS(apache::read_3dpal(std::vector<uint8_t>(size, 1), "3DPAL.RGB"),
                         doctest::Contains(expected.c_str()), InputError);
  }
}

TEST_CASE("AP-27 AP-25 the shading ramps over a grey 3DPAL.RGB, worked by hand") {
  // Colour i = (i, i, i). Row L scales by (64 + 192 * L / 15) / 256 (assumptions.h) and takes
  // the nearest colour: colour 200 is 50 in row 0 (x 64/256), 100 in row 5 (x 128/256), 150 in
  // row 10 (x 192/256) and itself in row 15.
  std::array<raster::Rgb, 224> greys{};
  for (size_t i = 0; i < greys.size(); ++i)
    greys[i] = {static_cast<uint8_t>(i), static_cast<uint8_t>(i), static_cast<uint8_t>(i)};
  const apache::ShadingTables t = apache::build_shading_tables(greys);
  CHECK(t.shade(0, 200) == 50);
  CHECK(t.shade(5, 200) == 100);
  CHECK(t.shade(10, 200) == 150);
  CHECK(t.shade(15, 200) == 200);
  CHECK(t.shade(0, 4) == 1);
  CHECK(t.shade(0, 240) == 240);  // past the 224 model colours: unchanged
}

}  // namespace apache_readers_tests
