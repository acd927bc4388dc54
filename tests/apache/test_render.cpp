// Every packet type drawn through the engine-neutral frame renderer (AP-22, AP-28, AP-30), and
// the raster's styled fill that the Apache surfaces use.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "harness/frame_renderer.h"
#include "interp/apache/textures.h"
#include "raster/polygon_fill.h"
#include "tests/apache/apache_fixture.h"

namespace apache_render_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;
using shapevm::testing::box_vertices;

namespace {

// The front face of the box as a packet of `type` with every operand it needs.
std::string front_packet(const apache::PacketType& t) {
  std::string s = t.name;
  switch (t.material) {
    case apache::Material::kColour:
    case apache::Material::kMesh:
      s += " colour=150";
      break;
    case apache::Material::kTwoColour:
      s += " colour=150 colour2=40";
      break;
    case apache::Material::kTexture:
      s += " texture=1 colour=150";
      break;
    case apache::Material::kRemap:
      break;
  }
  if (t.shading != apache::Shading::kNone) s += " normal=0";
  s += " :";
  const int u[4] = {0, 63, 63, 0}, v[4] = {0, 0, 63, 63};
  const int order[4] = {3, 2, 1, 0};
  for (int i = 0; i < 4; ++i) {
    s += fmt::format(" {}", order[i]);
    if (t.material == apache::Material::kTexture) s += fmt::format("/{}/{}", u[i], v[i]);
    if (t.shading == apache::Shading::kGouraud) s += "/n0";
  }
  return s;
}

struct Rendered {
  raster::Framebuffer frame{160, 120, 7};
  apache::RunResult result;
};

Rendered render(const ApacheFixture& f, uint32_t record) {
  Rendered out;
  apache::RunState s;
  s.shadows = false;
  s.camera = {5000, 0, 0};
  s.width = 160;
  s.height = 120;
  s.focal_pixels = 120;
  s.light = {0, 0, -1};
  std::map<std::string, raster::Texture, std::less<>> cache;
  harness::FrameSettings settings;
  settings.focal_pixels = s.focal_pixels;
  settings.near_z = s.near_z;
  harness::FrameRenderer renderer(
      out.frame, settings, [&](std::string_view name) -> const raster::Texture* {
        if (!f.textures) return nullptr;
        const bool masked = name.back() == 'm';
        const auto* t = f.textures->find(1);
        auto [it, _] = cache.emplace(std::string(name), apache::to_raster_texture(*t, masked));
        return &it->second;
      });
  apache::Interpreter interp(f.archive, f.tables, f.textures ? &*f.textures : nullptr);
  out.result = interp.run(record, s, renderer);
  return out;
}

size_t count(const raster::Framebuffer& frame, uint8_t index) {
  return static_cast<size_t>(std::count(frame.pixels().begin(), frame.pixels().end(), index));
}

}  // namespace

TEST_CASE("AP-22 every one of the 22 packet types draws into the frame") {
  std::string text = "texture 1 type 2 checker 0 100 4\n";
  for (uint8_t type = 0; type < apache::kPacketTypeCount; ++type) {
    text += fmt::format("model {} t{}\n", type, type) + box_vertices() +
            "  normal 0 0 -127\nprogram\n  face " + front_packet(*apache::packet_type(type)) +
            "\n  ret\nend\n";
  }
  ApacheFixture f(text);
  for (uint8_t type = 0; type < apache::kPacketTypeCount; ++type) {
    const apache::PacketType& t = *apache::packet_type(type);
    INFO(t.name);
    Rendered r = render(f, type);
    CHECK(r.result.clean);
    CHECK(r.result.faces == 1);
    const size_t untouched = count(r.frame, 7);
    const size_t total = r.frame.pixels().size();
    REQUIRE(untouched < total);
    if (t.primitive == apache::Primitive::kPoints) {
      CHECK(total - untouched <= 4);
    } else if (t.primitive == apache::Primitive::kPolyline) {
      CHECK(total - untouched < 400);
    } else if (t.material == apache::Material::kMesh) {
      // A mesh leaves about half (fine) of the face's pixels alone.
      CHECK(count(r.frame, 150) > 100);
      CHECK(untouched > total / 2);
    } else if (t.material == apache::Material::kRemap) {
      // Glass and haze replace the background by its remap.
      const auto& table = t.remap == apache::Remap::kGlass ? f.tables.glass : f.tables.haze;
      CHECK(table[7] != 7);
      CHECK(count(r.frame, table[7]) > 500);
    } else if (t.material == apache::Material::kTwoColour) {
      CHECK(count(r.frame, 150) > 200);
      CHECK(count(r.frame, 40) > 200);
    } else if (t.material == apache::Material::kTexture) {
      CHECK(count(r.frame, 100) > 200);
      // Masked types leave texel 0 out, unmasked draw it.
      if (t.masked) {
        CHECK(count(r.frame, 0) == 0);
      } else {
        CHECK(count(r.frame, 0) > 200);
      }
    } else {
      CHECK(count(r.frame, 150) > 500);  // lit along the normal: the authored colour
    }
  }
}

TEST_CASE("styled fill: stipple, alternate colour, shade rows, remap and linear texel addressing") {
  const std::array<raster::ScreenVertex, 4> quad{
      {{0, 0, 0, 0, 0, raster::kInvWOne},
       {raster::to_fixed(8), 0, 0, 0, 0, raster::kInvWOne},
       {raster::to_fixed(8), raster::to_fixed(4), 0, 0, 0, raster::kInvWOne},
       {0, raster::to_fixed(4), 0, 0, 0, raster::kInvWOne}}};
  raster::Framebuffer frame(8, 4, 9);
  raster::SurfaceStyle mesh;
  mesh.color = 1;
  mesh.pattern = 0xA5A5;  // checkerboard
  raster::fill_styled(frame, quad, mesh, {true, std::nullopt});
  CHECK(frame.at(0, 0) == 1);
  CHECK(frame.at(1, 0) == 9);
  CHECK(frame.at(1, 1) == 1);
  raster::SurfaceStyle two = mesh;
  two.pattern_alternates = true;
  two.color2 = 2;
  raster::fill_styled(frame, quad, two, {true, std::nullopt});
  CHECK(frame.at(1, 0) == 2);
  // Remap: every pixel becomes table[pixel].
  std::array<uint8_t, 256> remap{};
  for (int i = 0; i < 256; ++i) remap[static_cast<size_t>(i)] = static_cast<uint8_t>(i + 10);
  raster::SurfaceStyle glass;
  glass.remap = remap;
  raster::fill_styled(frame, quad, glass, {true, std::nullopt});
  CHECK(frame.at(0, 0) == 11);
  CHECK(frame.at(1, 0) == 12);
  // Shade rows: the row chosen by the interpolated shade.
  std::vector<uint8_t> rows(2 * 256, 0);
  rows[256 + 5] = 77;
  raster::SurfaceStyle shaded;
  shaded.color = 5;
  shaded.shade_rows = rows;
  auto lit = quad;
  for (auto& v : lit) v.shade = raster::to_fixed(1);
  raster::fill_styled(frame, lit, shaded, {true, std::nullopt});
  CHECK(frame.at(3, 2) == 77);
  // AP-30: with linear addressing u = width reads the next row's first texel; beyond the image
  // nothing is drawn.
  raster::Texture t;
  t.width = 4;
  t.height = 2;
  t.pixels = {1, 2, 3, 4, 5, 6, 7, 8};
  t.transparent_index = raster::Texture::kNoTransparency;
  raster::Framebuffer one(1, 1, 0);
  const std::array<raster::ScreenVertex, 3> dot{
      {{0, 0, raster::to_fixed(4), 0, 0, raster::kInvWOne},
       {raster::to_fixed(1), 0, raster::to_fixed(4), 0, 0, raster::kInvWOne},
       {0, raster::to_fixed(1), raster::to_fixed(4), 0, 0, raster::kInvWOne}}};
  raster::SurfaceStyle linear;
  linear.texture = &t;
  linear.linear_addressing = true;
  raster::fill_styled(one, dot, linear);
  CHECK(one.at(0, 0) == 5);
  raster::SurfaceStyle clamped = linear;
  clamped.linear_addressing = false;
  raster::fill_styled(one, dot, clamped);
  CHECK(one.at(0, 0) == 4);
  one.set(0, 0, 0);
  auto far = dot;
  for (auto& v : far) v.v = raster::to_fixed(2);  // address 2 * 4 + 4 = 12: beyond the 8 pixels
  raster::fill_styled(one, far, linear);
  CHECK(one.at(0, 0) == 0);
  CHECK_THROWS_AS(raster::fill_styled(one, dot,
                                      [] {
                                        raster::SurfaceStyle bad;
                                        static const std::array<uint8_t, 3> short_table{};
                                        bad.remap = short_table;
                                        return bad;
                                      }()),
                  std::invalid_argument);
}

}  // namespace apache_render_tests
