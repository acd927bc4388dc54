// Textures and palette (facts §10) and material lookup (SL-19): the tcache reader and its errors,
// palette.tga, the case-insensitive first-match lookup with the context prefix and the light-map
// name, RGB565 mapped to the palette, and a missing texture drawn untextured with one warning.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/shp/colour_tables.h"
#include "interp/shp/draw_assets.h"
#include "interp/shp/tcache.h"
#include "tests/shp/draw_fixture.h"

namespace shp_draw_textures_tests {

using namespace shapevm;
using namespace shapevm::shp;
using namespace shapevm::shp::testing;

namespace {

TextureSpec indexed(std::string name, uint8_t fill, uint32_t w = 4, uint32_t h = 4) {
  TextureSpec t;
  t.name = std::move(name);
  t.width = w;
  t.height = h;
  t.pixels.assign(size_t{w} * h, fill);
  return t;
}

std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("shapevm_draw_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

Level textured_level(std::string material, uint32_t mode = 3) {
  Level l = front_triangle(mode);
  Material m;
  m.texture = std::move(material);
  l.materials = {m};
  return l;
}

}  // namespace

TEST_CASE("tcache: entries, formats and mip levels read back; lookup is case-insensitive, first") {
  TextureSpec rgb;
  rgb.name = "Textures\\Hull.tga";
  rgb.width = 2;
  rgb.height = 1;
  rgb.format = TextureSpec::Format::kRgb565;
  rgb.pixels = {0x00, 0xF8, 0xFF, 0xFF};  // pure red, white
  TextureSpec alpha = indexed("glass", 7);
  alpha.format = TextureSpec::Format::kIndexAlpha;
  alpha.pixels.clear();
  for (int i = 0; i < 16; ++i) alpha.pixels.insert(alpha.pixels.end(), {9, 128});
  TextureSpec mip = indexed("mipped", 3, 8, 8);
  mip.mipmapped = true;
  const auto bytes = build_tcache({rgb, indexed("HULL", 5), alpha, mip, indexed("last", 11)});
  const TextureCache cache(bytes, "tcachehw.dat");
  REQUIRE(cache.entries().size() == 5);
  CHECK(cache.entries()[3].levels == 4);      // 8, 4, 2, 1
  CHECK(cache.entries()[4].level0[0] == 11);  // found after the mip levels
  const TcacheEntry* hull = cache.find("hull");
  REQUIRE(hull != nullptr);
  CHECK(hull == &cache.entries()[0]);  // the first match, by basename without the extension
  CHECK(cache.find("HuLl.tga") == nullptr);
  const raster::Palette pal = raster::default_palette();
  const raster::Texture red = to_indexed_texture(*hull, pal);
  CHECK(red.pixels[0] == nearest_index(pal, {255, 0, 0}));
  CHECK(red.pixels[1] == nearest_index(pal, {255, 255, 255}));
  CHECK(to_indexed_texture(*cache.find("glass"), pal).pixels[0] == 9);
}

TEST_CASE("tcache: malformed files are refused with the offset and what was expected") {
  auto bytes = build_tcache({indexed("a", 1)});
  auto bad_version = bytes;
  bad_version[0] = 101;
  try {
    TextureCache(bad_version, "t.dat");
    FAIL("accepted version 101");
  } catch (const InputError& e) {
    CHECK(e.offset() == 0);
    CHECK(std::string(e.what()).find("102") != std::string::npos);
  }
  auto too_many = bytes;
  too_many[4] = 0xE9;  // 1001
  too_many[5] = 0x03;
  CHECK_THROWS_AS(TextureCache(too_many, "t.dat"), InputError);
  auto truncated = bytes;
  truncated.resize(truncated.size() - 1);
  CHECK_THROWS_AS(TextureCache(truncated, "t.dat"), InputError);  // pixel end past the file
  auto bad_size = bytes;
  bad_size[kTcacheDirectory + 0x40] = 0;  // width 0
  try {
    TextureCache(bad_size, "t.dat");
    FAIL("accepted width 0");
  } catch (const InputError& e) {
    CHECK(e.offset() == kTcacheDirectory + 0x40);
  }
  CHECK_THROWS_AS(TextureCache(std::vector<uint8_t>(8, 0), "t.dat"), InputError);
}

TEST_CASE("palette.tga: 256 B,G,R map entries; other maps refused") {
  raster::Palette p = raster::default_palette();
  p.colors[3] = {10, 20, 30};
  const auto tga = build_palette_tga(p);
  CHECK(read_palette_tga(tga, "palette.tga") == p);
  auto no_map = tga;
  no_map[1] = 0;
  CHECK_THROWS_AS(read_palette_tga(no_map, "palette.tga"), InputError);
  auto short_map = tga;
  short_map.resize(100);
  CHECK_THROWS_AS(read_palette_tga(short_map, "palette.tga"), InputError);
}

TEST_CASE("SL-19: the material's name with the context prefix; l<name> for part flag 0x80") {
  CHECK(texture_key("", "hull") == "hull");
  CHECK(texture_key("g", "hull") == "ghull");
  CHECK(texture_key("r", "hull") == "rhull");
  CHECK(lightmap_key("hull") == "lhull");
  const auto dir = temp_dir("prefix");
  write_file_atomic(dir / "tcachehw.dat", build_tcache({indexed("GHULL", 40), indexed("hull", 41),
                                                        indexed("lhull", 42)}));
  OpenOptions options;
  options.textures = dir.string();
  for (const auto& [prefix, texture] :
       std::vector<std::pair<std::string, std::string>>{{"none", "hull"}, {"g", "ghull"}}) {
    KeepSink sink;
    draw(one_part(textured_level("Hull")), request({camera_front()}, {"prefix=" + prefix}), sink,
         &options);
    REQUIRE(sink.faces.size() == 1);
    CHECK(sink.faces[0].event.textured);
    CHECK(sink.faces[0].texture == texture_key(prefix == "none" ? "" : prefix, "Hull"));
    CHECK(sink.diagnostics.empty());
  }
  // Mode 6 on a part with flag 0x80 adds the l<name> pass, added over the first.
  Model lit = one_part(textured_level("hull", 6));
  lit.parts[0].flags = kPartLightMap;
  KeepSink sink;
  draw(lit, request({camera_front()}), sink, &options);
  REQUIRE(sink.faces.size() == 2);
  CHECK(sink.faces[1].texture == "lhull");
  CHECK(sink.faces[1].blend ==
        blend_bytes(colour_tables(raster::default_palette())->blend(Blend::kAdd)));
  KeepSink off;
  draw(lit, request({camera_front()}, {"lightmaps=0"}), off, &options);
  CHECK(off.faces.size() == 1);
}

TEST_CASE("SL-19: a missing texture draws untextured, with one warning per name") {
  const auto dir = temp_dir("missing");
  write_file_atomic(dir / "tcachehw.dat", build_tcache({indexed("other", 1)}));
  OpenOptions options;
  options.textures = (dir / "tcachehw.dat").string();
  Level l = textured_level("nothere");
  l.faces.push_back(l.faces[0]);
  l.faces.push_back(l.faces[0]);
  KeepSink sink;
  draw(one_part(l), request({camera_front()}), sink, &options);
  CHECK(sink.faces.size() == 3);
  for (const auto& f : sink.faces) CHECK_FALSE(f.event.textured);
  REQUIRE(sink.diagnostics.size() == 1);
  CHECK(sink.diagnostics[0].level == DiagnosticLevel::kWarning);
  CHECK(sink.diagnostics[0].message.find("\"nothere\"") != std::string::npos);
}

TEST_CASE("textures: the texel coordinates come from the record's u, v times the image size") {
  const auto dir = temp_dir("uv");
  write_file_atomic(dir / "tcachehw.dat", build_tcache({indexed("skin", 60, 64, 32)}));
  write_file_atomic(dir / "palette.tga", build_palette_tga(raster::default_palette()));
  OpenOptions options;
  options.textures = dir.string();
  options.palette = (dir / "palette.tga").string();
  KeepSink sink;
  draw(one_part(textured_level("skin")), request({camera_front()}), sink, &options);
  REQUIRE(sink.faces.size() == 1);
  CHECK(sink.faces[0].event.fine_texcoords);
  // The record's corner 1 has (u, v) = (1, 0), corner 2 (0, 1): u and v belong to the record's
  // corners, whichever vertices they name.
  CHECK(sink.faces[0].corners[1].texcoord_fine == std::array<int32_t, 2>{64 << 16, 0});
  CHECK(sink.faces[0].corners[2].texcoord_fine == std::array<int32_t, 2>{0, 32 << 16});
  // A malformed palette given is an error, not a silent default.
  write_file_atomic(dir / "bad.tga", std::vector<uint8_t>(10, 0));
  options.palette = (dir / "bad.tga").string();
  KeepSink none;
  CHECK_THROWS_AS(draw(one_part(textured_level("skin")), request(), none, &options), InputError);
}

TEST_CASE("blending in an 8-bit frame: added and alpha colours map to the nearest entry") {
  raster::Palette p{};
  p.colors[1] = {100, 0, 0};
  p.colors[2] = {0, 100, 0};
  p.colors[3] = {100, 100, 0};
  p.colors[4] = {50, 50, 0};
  const auto t = colour_tables(p);
  CHECK(t->blend(Blend::kAdd)[1 * 256 + 2] == 3);
  CHECK(t->blend(Blend::kAlpha)[1 * 256 + 2] == 4);
  CHECK(blend_rgb({200, 10, 0}, {100, 10, 0}, Blend::kAdd) == raster::Rgb{255, 20, 0});
  // Shade rows: the top row is the colour itself, lower rows darker entries.
  CHECK(t->shade_rows[31 * 256 + 3] == 3);
  CHECK(t->shade_rows[15 * 256 + 3] == 4);
}

TEST_CASE("SL-18: textured modes with their texture: 3-5 unlit (4 added, 5 alpha), 6-8 lit") {
  const auto dir = temp_dir("modes");
  write_file_atomic(dir / "tcachehw.dat",
                    build_tcache({indexed("skin", 70), indexed("highlight3", 71)}));
  OpenOptions options;
  options.textures = dir.string();
  const auto tables = colour_tables(raster::default_palette());
  struct Expect {
    uint32_t mode;
    bool lit;
    std::vector<uint8_t> blend;
    size_t faces;
  };
  const std::vector<Expect> expected = {{3, false, {}, 1},
                                        {4, false, blend_bytes(tables->blend(Blend::kAdd)), 1},
                                        {5, false, blend_bytes(tables->blend(Blend::kAlpha)), 1},
                                        {6, true, {}, 1},
                                        {7, true, {}, 2},
                                        {8, true, blend_bytes(tables->blend(Blend::kAdd)), 1}};
  for (const Expect& e : expected) {
    CAPTURE(e.mode);
    Level l = textured_level("skin", e.mode);
    l.faces[0].mode = e.mode | (3u << 4);  // sub-mode 3: mode 7's highlight
    KeepSink sink;
    draw(one_part(l), request({camera_front()}), sink, &options);
    REQUIRE(sink.faces.size() == e.faces);
    CHECK(sink.faces[0].event.textured);
    CHECK(sink.faces[0].texture == "skin");
    CHECK(sink.faces[0].has_shade_rows == e.lit);
    CHECK(sink.faces[0].blend == e.blend);
    CHECK(sink.faces[0].event.depth_write == e.blend.empty());
    CHECK(sink.diagnostics.empty());
  }
  // Mode 7's second pass: the highlight texture, added, UV from the normal in view axes (the
  // normal (0,0,1) faces the camera: u = v = 0.5, the middle of the 4x4 image).
  Level l = textured_level("skin", 7);
  l.faces[0].mode = 7 | (3u << 4);
  KeepSink sink;
  draw(one_part(l), request({camera_front()}), sink, &options);
  REQUIRE(sink.faces.size() == 2);
  CHECK(sink.faces[1].texture == "highlight3");
  CHECK(sink.faces[1].blend == blend_bytes(tables->blend(Blend::kAdd)));
  CHECK_FALSE(sink.faces[1].event.depth_write);
  CHECK(sink.faces[1].corners[0].texcoord_fine == std::array<int32_t, 2>{2 << 16, 2 << 16});
}

}  // namespace shp_draw_textures_tests
