#include "interp/apache/generator.h"

#include <fmt/format.h>

#include <array>
#include <vector>

namespace shapevm::apache {
namespace {

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return range(0, 99) < percent; }

 private:
  uint64_t state_;
};

// The box faces (front, back, right, left, top) over vertices 0..7, each with its normal index.
constexpr std::array<std::array<int, 5>, 5> kBoxFaces{
    {{3, 2, 1, 0, 0}, {6, 7, 4, 5, 1}, {2, 6, 5, 1, 2}, {7, 3, 0, 4, 3}, {7, 6, 2, 3, 4}}};

std::string packet(Random& rng, const std::array<int, 5>& face, bool allow_texture) {
  const int colour = static_cast<int>(rng.range(1, 223));
  const int colour2 = static_cast<int>(rng.range(1, 223));
  const int normal = face[4];
  const int texture = static_cast<int>(rng.range(1, 4));
  auto indices = [&](bool uv, bool gouraud) {
    static constexpr int kU[4] = {0, 63, 63, 0};
    static constexpr int kV[4] = {0, 0, 63, 63};
    std::string s;
    for (int i = 0; i < 4; ++i) {
      s += fmt::format(" {}", face[static_cast<size_t>(i)]);
      if (uv) s += fmt::format("/{}/{}", kU[i], kV[i]);
      if (gouraud) s += fmt::format("/n{}", normal);
    }
    return s;
  };
  int type = static_cast<int>(rng.range(0, 21));
  if (!allow_texture &&
      (type == 7 || type == 8 || type == 15 || type == 16 || type == 19 || type == 20))
    type = 11;
  switch (type) {
    case 0:
    case 1:
    case 2:
      return fmt::format("{} colour={} :{}",
                         type == 0   ? "points"
                         : type == 1 ? "polyline"
                                     : "polygon",
                         colour, indices(false, false));
    case 3:
      return fmt::format("twocolour colour={} colour2={} :{}", colour, colour2,
                         indices(false, false));
    case 4:
    case 5:
      return fmt::format("{} colour={} :{}", type == 4 ? "mesh" : "coarsemesh", colour,
                         indices(false, false));
    case 6:
      return "glass :" + indices(false, false);
    case 21:
      return "heathaze :" + indices(false, false);
    case 7:
    case 8:
      return fmt::format("{} texture={} colour={} :{}", type == 7 ? "texture" : "masktexture",
                         texture, colour, indices(true, false));
    case 9:
    case 10:
    case 11:
      return fmt::format("{} colour={} normal={} :{}",
                         type == 9    ? "shadedpoints"
                         : type == 10 ? "shadedpolyline"
                                      : "shadedpolygon",
                         colour, normal, indices(false, false));
    case 12:
      return fmt::format("shadedtwocolour colour={} colour2={} normal={} :{}", colour, colour2,
                         normal, indices(false, false));
    case 13:
    case 14:
      return fmt::format("{} colour={} normal={} :{}",
                         type == 13 ? "shadedmesh" : "shadedcoarsemesh", colour, normal,
                         indices(false, false));
    case 15:
    case 16:
      return fmt::format("{} texture={} colour={} normal={} :{}",
                         type == 15 ? "shadedtexture" : "shadedmasktexture", texture, colour,
                         normal, indices(true, false));
    case 17:
      return fmt::format("gouraud colour={} normal={} :{}", colour, normal, indices(false, true));
    case 18:
      return fmt::format("gouraudtwocolour colour={} colour2={} normal={} :{}", colour, colour2,
                         normal, indices(false, true));
    default:
      return fmt::format("{} texture={} colour={} normal={} :{}",
                         type == 19 ? "gouraudtexture" : "gouraudmasktexture", texture, colour,
                         normal, indices(true, true));
  }
}

}  // namespace

std::string generate_apache_archive(uint64_t seed, uint32_t count) {
  Random rng(seed * 0x2545F4914F6CDD1Dull + count);
  std::string out = fmt::format("; shapevm gen apache: {} records, seed {}\n", count, seed);
  for (uint32_t t = 1; t <= 4; ++t) {
    static constexpr const char* kPatterns[4] = {"checker 36 100 8", "border 0 127",
                                                 "stripes 140 150 4", "gradient 160"};
    out += fmt::format("texture {} type 2 {}\n", t, kPatterns[t - 1]);
  }
  for (uint32_t index = 0; index < count; ++index) {
    const bool grid = rng.chance(35);
    out += fmt::format("model {} gen{:05} \"generated record {}\"\n", index, index, index);
    out += fmt::format("  encoding {}\n", grid ? "grid" : "short");
    if (index + 1 < count && rng.chance(15))
      out += fmt::format("  lod {} next {}\n", rng.range(20000, 90000), index + 1);
    out += fmt::format("  properties {}\n", rng.range(0, 7));
    out +=
        fmt::format("  target {}\n", std::array<int, 4>{0, 10000, 30000, 50000}[rng.range(0, 3)]);
    // The box and two details on its front plane.
    const int64_t w = rng.range(10, 120), h = rng.range(10, 120), d = rng.range(10, 120);
    auto vertex = [&](int64_t x, int64_t y, int64_t z) {
      if (!grid) return fmt::format("  vertex {} {} {}\n", x, y, z);
      // Grid: x16 short units expressed as coarse/fine entries (fine steps of 64 = 4 short units).
      auto split = [](int64_t v) {
        const int64_t local = v * 16;
        int64_t coarse = local >= 0 ? local / 4096 : -((-local + 4095) / 4096);
        const int64_t fine = (local - coarse * 4096) / 64;
        return std::array<int64_t, 2>{coarse + 32, fine + 32};
      };
      const auto a = split(x), b = split(y), c = split(z);
      return fmt::format("  vertex {} {} {} {} {} {}\n", a[0], b[0], c[0], a[1], b[1], c[1]);
    };
    for (const auto& v : std::array<std::array<int64_t, 3>, 8>{{{-w, 0, -d},
                                                                {w, 0, -d},
                                                                {w, h, -d},
                                                                {-w, h, -d},
                                                                {-w, 0, d},
                                                                {w, 0, d},
                                                                {w, h, d},
                                                                {-w, h, d}}})
      out += vertex(v[0], v[1], v[2]);
    for (int k = 0; k < 2; ++k) {
      const int64_t x0 = -w + (k + 1) * w * 2 / 5, x1 = x0 + w / 3 + 1;
      out += vertex(x0, h * 3 / 4, -d) + vertex(x1, h * 3 / 4, -d) + vertex(x1, h / 4, -d) +
             vertex(x0, h / 4, -d);
    }
    out +=
        "  normal 0 0 -127\n  normal 0 0 127\n  normal 127 0 0\n  normal -127 0 0\n  normal 0 127 "
        "0\n";
    int attachments = 0;
    if (index > 0 && rng.chance(20)) {
      attachments = static_cast<int>(rng.range(1, 3));
      for (int a = 0; a < attachments; ++a) {
        // Model ID 0 is a gameplay slot (AP-08); real attachments name earlier records from 1 up.
        const bool slot = index < 2 || (a == attachments - 1 && rng.chance(30));
        const int64_t id = slot ? 0 : rng.range(1, index - 1);
        out += fmt::format("  attach {} {} {} {}\n", id, rng.range(-2000, 2000), h * 16,
                           rng.range(-2000, 2000));
      }
    }
    out += "program\n";
    // Front face with its coplanar secondary details, then the rest, with decisions mixed in.
    out += "  face " + packet(rng, kBoxFaces[0], true) + "\n";
    out += "  face2 " + packet(rng, {8, 9, 10, 11, 0}, true) + "\n";
    out += "  face2 " + packet(rng, {12, 13, 14, 15, 0}, true) + "\n";
    out += "  winding 2 6 5 front=right back=left continue=rest\nright:\n";
    out += "  face " + packet(rng, kBoxFaces[2], true) + "\n  ret\nleft:\n";
    out += "  face " + packet(rng, kBoxFaces[3], true) + "\n  ret\nrest:\n";
    out += "  face " + packet(rng, kBoxFaces[1], true) + "\n";
    out += "  choose 0x1 set=on clear=off continue=masked\non:\n";
    out += "  face " + packet(rng, kBoxFaces[4], true) + "\n  ret\noff:\n";
    out += "  face " + packet(rng, kBoxFaces[4], true) + "\n  ret\nmasked:\n";
    out += "  ifmask 0x2 branch=extra continue=sel\nextra:\n";
    out += "  face2 " + packet(rng, kBoxFaces[1], true) + "\n  ret\nsel:\n";
    out += "  select shift=4 mask=3 cases=c0,c1 continue=attach\nc0:\n  ret\nc1:\n";
    out += "  face " + packet(rng, kBoxFaces[0], false) + "\n  ret\nattach:\n";
    for (int a = 0; a < attachments; ++a) out += fmt::format("  attached {}\n", a);
    out += "  ret\nend\n";
  }
  return out;
}

}  // namespace shapevm::apache
