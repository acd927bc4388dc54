#include "interp/bi2/generator.h"

#include <fmt/format.h>

#include "interp/bi2/layer.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/text.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int32_t range(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t s_;
};

// Appends a box (+y down: y0 is its top) and its six faces; returns the first polygon index.
uint32_t add_box(Mesh& m, int32_t x0, int32_t y0, int32_t z0, int32_t x1, int32_t y1, int32_t z1,
                 uint16_t shade) {
  const auto base = static_cast<uint32_t>(m.vertices.size());
  for (int i = 0; i < 8; ++i)
    m.vertices.push_back({static_cast<int16_t>(i & 1 ? x1 : x0),
                          static_cast<int16_t>(i & 2 ? y1 : y0),
                          static_cast<int16_t>(i & 4 ? z1 : z0)});
  static constexpr uint32_t kFaces[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                                            {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  static constexpr int16_t kBias[6] = {-2, -2, 4, -6, 0, 2};
  const auto first = static_cast<uint32_t>(m.polygons.size());
  for (int f = 0; f < 6; ++f) {
    Polygon p;
    p.shade = shade;
    p.bias = kBias[f];
    for (uint32_t c : kFaces[f]) p.vertices.push_back(base + c);
    p.normal = computed_normal(m.vertices, p.vertices);
    m.polygons.push_back(std::move(p));
  }
  return first;
}

std::vector<uint8_t> palette_bytes(uint32_t index) {
  // Six 32-entry ramps (steel, olive, gold, sky, earth, red) in 6-bit VGA values, tinted per
  // palette (the 41 fight palettes differ by time of day and climate in the game).
  static constexpr int kHues[6][3] = {{40, 44, 48}, {30, 38, 16}, {63, 50, 10},
                                      {20, 40, 63}, {40, 28, 14}, {63, 16, 10}};
  std::vector<uint8_t> out(768, 0);
  const int tint = static_cast<int>(index % 8);
  for (int i = 0; i < 256; ++i) {
    const int ramp = i / 32, k = i % 32;
    for (int c = 0; c < 3; ++c) {
      const int hue = ramp < 6 ? kHues[ramp][c] : 32;
      const int v = hue * (k + 8) / 40 - (c == 2 ? 0 : tint);
      out[static_cast<size_t>(3 * i + c)] = static_cast<uint8_t>(std::clamp(v, 0, 63));
    }
  }
  return out;
}

LibEntry entry(std::string name, std::vector<uint8_t> bytes, uint32_t index) {
  if (index % 3 == 2) bytes = tpwm_pack_literal(bytes);
  return {std::move(name), std::move(bytes)};
}

}  // namespace

Mesh generate_unit(uint64_t seed, uint32_t index) {
  Rng rng(seed * 1000003 + index);
  Mesh m;
  const int32_t hw = rng.range(60, 160), hl = rng.range(120, 300), hh = rng.range(40, 90);
  add_box(m, -hw, -hh, -hl, hw, 0, hl, static_cast<uint16_t>(32 * rng.range(0, 5)));
  const int32_t tw = hw * 2 / 3, th = rng.range(25, 60);
  const int32_t tz = rng.range(-hl / 3, hl / 3);
  const uint32_t turret = add_box(m, -tw, -hh - th, tz - tw, tw, -hh, tz + tw,
                                  static_cast<uint16_t>(32 * rng.range(0, 5)));
  const auto gun = static_cast<uint32_t>(m.vertices.size());
  const int32_t gy = -hh - th / 2;
  m.vertices.push_back({0, static_cast<int16_t>(gy), static_cast<int16_t>(tz + tw)});
  m.vertices.push_back(
      {0, static_cast<int16_t>(gy), static_cast<int16_t>(tz + tw + rng.range(150, 320))});
  Polygon line;
  line.shade = 0;
  line.bias = 4;
  line.vertices = {gun, gun + 1};
  line.normal = {0, -kUnitNormal, 0};
  m.polygons.push_back(line);
  Part part;
  part.first_polygon = turret;
  part.polygon_count = 7;
  for (uint16_t v = 8; v < m.vertices.size(); ++v) part.vertices.push_back(v);
  part.pivot = {0, static_cast<int16_t>(-hh), static_cast<int16_t>(tz)};
  m.parts.push_back(part);
  return m;
}

Mesh generate_terrain(uint64_t seed, uint32_t index) {
  Rng rng(seed * 7919 + index + 17);
  Mesh m;
  m.vertices = {{-500, 0, -500}, {500, 0, -500}, {500, 0, 500}, {-500, 0, 500}};
  Polygon ground;
  ground.shade = 32;
  ground.bias = static_cast<int16_t>(rng.range(-4, 0));
  ground.vertices = {0, 1, 2, 3};
  ground.normal = {0, -kUnitNormal, 0};
  m.polygons.push_back(ground);
  const int kind = static_cast<int>(index % 3);
  if (kind == 0) {  // a hill: a four-sided pyramid
    const int16_t h = static_cast<int16_t>(-rng.range(100, 400));
    const int16_t r = static_cast<int16_t>(rng.range(200, 450));
    m.vertices.push_back({static_cast<int16_t>(-r), 0, static_cast<int16_t>(-r)});
    m.vertices.push_back({r, 0, static_cast<int16_t>(-r)});
    m.vertices.push_back({r, 0, r});
    m.vertices.push_back({static_cast<int16_t>(-r), 0, r});
    m.vertices.push_back({0, h, 0});
    for (uint32_t k = 0; k < 4; ++k) {
      Polygon p;
      p.shade = 128;
      p.bias = static_cast<int16_t>(k * 3 - 4);
      p.vertices = {4 + k, 4 + (k + 1) % 4, 8};
      p.normal = computed_normal(m.vertices, p.vertices);
      m.polygons.push_back(std::move(p));
    }
  } else if (kind == 1) {  // rocks
    for (int i = 0; i < 2; ++i) {
      const int32_t x = rng.range(-350, 250), z = rng.range(-350, 250), s = rng.range(40, 110);
      add_box(m, x, -s, z, x + s, 0, z + s, 160);
    }
  } else {  // a tree: a trunk and a crown
    add_box(m, -20, -160, -20, 20, 0, 20, 128);
    add_box(m, -110, -380, -110, 110, -160, 110, 32);
  }
  return m;
}

std::vector<GeneratedFile> generate_archives(uint64_t seed, uint32_t units) {
  std::vector<GeneratedFile> out;
  std::vector<LibEntry> entries;
  for (uint32_t i = 0; i < units; ++i)
    entries.push_back(entry(fmt::format("UNIT{:03}", i), write_mesh(generate_unit(seed, i)), i));
  out.push_back({"UN3D000.LIB", write_lib(entries)});
  entries.clear();
  for (uint32_t i = 0; i < kGeneratedTerrain; ++i)
    entries.push_back(entry(fmt::format("LAND{:03}", i), write_mesh(generate_terrain(seed, i)), i));
  out.push_back({"LAND000.LIB", write_lib(entries)});
  entries.clear();
  for (uint32_t i = 0; i < kGeneratedPalettes; ++i)
    entries.push_back(entry(fmt::format("PAL{:03}", i), palette_bytes(i), i));
  out.push_back({"PAL000.LIB", write_lib(entries)});
  entries.clear();
  Rng rng(seed + 99);
  for (uint32_t i = 0; i < kGeneratedLayers; ++i) {
    Layer layer;
    const int used = rng.range(1, 6);
    for (int s = 0; s < 6; ++s)
      layer.object_ids[static_cast<size_t>(s)] =
          s < used ? static_cast<uint16_t>(rng.range(0, kGeneratedTerrain - 1))
                   : (s % 2 ? 0xFFFE : 0xFFFF);
    const int count = rng.range(3, 12);
    for (int k = 0; k < count; ++k) {
      Placement p;
      p.slot = static_cast<uint16_t>(rng.range(0, 5));
      p.unknown_02 = k % 4 == 3 ? 0xFFFF : 0;
      p.x = static_cast<int16_t>(1000 * rng.range(-4, 4));
      p.z = static_cast<int16_t>(1000 * rng.range(0, 8));
      layer.placements.push_back(p);
    }
    entries.push_back(entry(fmt::format("LAYR{:03}", i), write_layer(layer), i));
  }
  out.push_back({"LAYR000.LIB", write_lib(entries)});
  return out;
}

}  // namespace shapevm::bi2
