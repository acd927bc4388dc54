#include "interp/shp/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "interp/shp/writer.h"

namespace shapevm::shp {
namespace {

// splitmix64: small, fast and the same everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }
  float unit() { return static_cast<float>(next() >> 40) / static_cast<float>(1 << 24); }

 private:
  uint64_t s_;
};

Vec3 vec(float x, float y, float z) {
  return {F32::of(x), F32::of(y), F32::of(z)};
}

// A closed ellipsoid of `rings` x `segments` quads (two triangles each) around the part origin.
Level ellipsoid(float rx, float ry, float rz, uint32_t rings, uint32_t segments, uint32_t materials,
                float distance, Rng& rng) {
  Level level;
  level.distance = F32::of(distance);
  const float pi = 3.14159265f;
  for (uint32_t r = 0; r <= rings; ++r) {
    const float theta = pi * static_cast<float>(r) / static_cast<float>(rings);
    for (uint32_t s = 0; s < segments; ++s) {
      const float phi = 2 * pi * static_cast<float>(s) / static_cast<float>(segments);
      Vertex v;
      const float nx = std::sin(theta) * std::cos(phi), ny = std::cos(theta),
                  nz = std::sin(theta) * std::sin(phi);
      v.position = vec(rx * nx, ry * ny, rz * nz);
      v.normal = vec(nx, ny, nz);
      v.unread_18 = 1;
      v.counterpart = -1;
      level.vertices.push_back(v);
    }
  }
  auto at = [&](uint32_t r, uint32_t s) { return r * segments + (s % segments); };
  for (uint32_t r = 0; r < rings; ++r) {
    for (uint32_t s = 0; s < segments; ++s) {
      const uint32_t quad[4] = {at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r + 1, s)};
      for (int t = 0; t < 2; ++t) {
        Face f;
        f.material = rng.below(materials);
        f.mode = 6;  // lit
        f.vertices = t == 0 ? std::array<uint32_t, 3>{quad[0], quad[1], quad[2]}
                            : std::array<uint32_t, 3>{quad[0], quad[2], quad[3]};
        for (int c = 0; c < 3; ++c) {
          f.u[c] = F32::of(static_cast<float>(s + (c == 1)) / static_cast<float>(segments));
          f.v[c] = F32::of(static_cast<float>(r + (c == 2)) / static_cast<float>(rings));
        }
        f.normal = level.vertices[quad[0]].normal;
        level.faces.push_back(f);
      }
    }
  }
  for (uint32_t m = 0; m < materials; ++m) {
    Material mat;
    mat.texture = fmt::format("tex{:03}", rng.below(200));
    level.materials.push_back(mat);
  }
  return level;
}

Part make_part(const std::string& name, int32_t parent, uint32_t faces, uint32_t levels, float size,
               Rng& rng) {
  Part p;
  p.name = name;
  p.part_class = parent < 0 ? 1 : rng.range(1, 6);
  p.parent = parent;
  p.origin = parent < 0 ? vec(0, 0, 0)
                        : vec(size * (rng.unit() - 0.5f), size * (rng.unit() - 0.5f) * 0.3f,
                              size * (rng.unit() - 0.5f));
  for (int i = 0; i < 9; ++i) p.orientation[i] = F32::of(i % 4 == 0 ? 1.0f : 0.0f);
  p.density = F32::of(1.0f);
  const float rx = size * (0.2f + rng.unit() * 0.2f), ry = size * (0.05f + rng.unit() * 0.1f),
              rz = size * (0.3f + rng.unit() * 0.3f);
  for (uint32_t l = 0; l < levels; ++l) {
    // Each coarser level has about a third of the faces of the one before.
    uint32_t budget = std::max<uint32_t>(8, faces / (1u << (l * 3 / 2)));
    const uint32_t segments = std::max<uint32_t>(4, static_cast<uint32_t>(std::sqrt(budget)));
    const uint32_t rings = std::max<uint32_t>(2, budget / (2 * segments));
    const float distance = levels == 1 ? 0.0f : 5000.0f * static_cast<float>(l + 1);
    p.levels.push_back(ellipsoid(rx, ry, rz, rings, segments, rng.range(1, 3), distance, rng));
  }
  // Counterparts in the next coarser level (the nearest by index proportion).
  for (uint32_t l = 0; l + 1 < p.levels.size(); ++l) {
    const size_t fine = p.levels[l].vertices.size(), coarse = p.levels[l + 1].vertices.size();
    for (size_t i = 0; i < fine; ++i)
      p.levels[l].vertices[i].counterpart = static_cast<int32_t>(i * coarse / fine);
  }
  for (int a = 0; a < 3; ++a) {
    float lo = 0, hi = 0;
    for (const Vertex& v : p.levels[0].vertices) {
      lo = std::min(lo, v.position[a].value());
      hi = std::max(hi, v.position[a].value());
    }
    p.bbox_min[a] = F32::of(lo);
    p.bbox_max[a] = F32::of(hi);
  }
  p.volume = F32::of(4.18879f * rx * ry * rz);
  return p;
}

void add_tree(Part& p, Rng& rng) {
  const uint32_t faces = static_cast<uint32_t>(p.levels[0].faces.size());
  const uint32_t leaves = rng.range(2, 6);
  Node root;
  root.children = {1, 2};
  for (int i = 0; i < 9; ++i) root.axes[i] = F32::of(i % 4 == 0 ? 1.0f : 0.0f);
  p.nodes.push_back(root);
  for (uint32_t n = 0; n < leaves; ++n) {
    Node leaf = root;
    leaf.children = {-1, -1};
    for (uint32_t f = n * faces / leaves; f < (n + 1) * faces / leaves; ++f)
      leaf.faces.push_back(f);
    p.nodes.push_back(leaf);
  }
}

void add_clip(Part& p, Rng& rng) {
  static const char* kNames[] = {"startup", "fire", "deploy", "idle"};
  Clip c;
  c.name = kNames[rng.below(4)];
  c.mode = static_cast<int16_t>(rng.range(1, 3));
  c.length = static_cast<int32_t>(rng.range(10, 100));
  const uint32_t keys = rng.range(2, 5);
  for (uint32_t k = 0; k < keys; ++k) {
    Keyframe key;
    key.time = static_cast<int32_t>(k * static_cast<uint32_t>(c.length) / (keys - 1));
    key.angles = vec(0, rng.unit() * 0.5f, 0);
    c.keyframes.push_back(key);
  }
  if (rng.below(2) == 0) {
    ClipEvent e;
    e.time = c.length / 2;
    c.events.push_back(e);
  }
  p.clips.push_back(c);
}

}  // namespace

RecordSizes shipped_record_sizes() {
  RecordSizes s;
  s.size[0x00] = 88;
  s.size[0x01] = 312;
  s.size[0x02] = 4;
  s.size[0x03] = 80;
  s.size[0x04] = 32;
  s.size[0x06] = 64;
  s.size[0x07] = 72;
  s.size[0x08] = 4;
  s.size[0x09] = 100;
  s.size[0x0A] = 24;
  s.size[0x0B] = 28;
  s.size[0x0C] = 12;
  s.size[0x0D] = 4;
  s.size[0x0E] = 20;
  s.size[0x10] = 76;
  return s;
}

std::string generated_model_name(uint32_t index) {
  return fmt::format("gen{:04}.SHP", index);
}

Model generate_model(uint64_t seed, uint32_t index) {
  Rng rng(seed * 0x100000001B3ull + index);
  Model m;
  m.record_sizes = shipped_record_sizes();
  Header h;
  h.version = 107;
  m.header = h;
  const uint32_t kind = rng.below(100);
  const bool capital = kind < 15, debris = kind >= 90;
  const uint32_t parts = debris ? 1 : capital ? rng.range(5, 10) : rng.range(2, 5);
  const uint32_t faces_total = debris    ? rng.range(20, 100)
                               : capital ? rng.range(2000, 6000)
                                         : rng.range(250, 600);
  const float size = debris ? 100.0f : capital ? 20000.0f : 1100.0f;
  for (uint32_t p = 0; p < parts; ++p) {
    const int32_t parent = p == 0 ? -1 : static_cast<int32_t>(rng.below(p));
    const uint32_t share = p == 0 ? faces_total / 2 : faces_total / (2 * (parts - 1));
    const uint32_t levels = debris ? 1 : rng.range(1, 4);
    Part part = make_part(p == 0 ? "Hull" : fmt::format("part{}", p), parent,
                          std::max<uint32_t>(8, share), levels, size, rng);
    if (capital) {
      add_tree(part, rng);
      part.flags |= kPartComponent;
    }
    const uint32_t attachments = rng.below(4);
    for (uint32_t a = 0; a < attachments; ++a) {
      Attachment at;
      at.kind = rng.below(10);
      at.position = vec(size * (rng.unit() - 0.5f) * 0.2f, 0, size * (rng.unit() - 0.5f) * 0.5f);
      for (int i = 0; i < 9; ++i) at.orientation[i] = F32::of(i % 4 == 0 ? 1.0f : 0.0f);
      part.attachments.push_back(at);
    }
    if (rng.below(4) == 0) add_clip(part, rng);
    m.parts.push_back(std::move(part));
  }
  if (capital) {
    for (const Part& p : m.parts) {
      if (!(p.flags & kPartComponent)) continue;
      FiringArc arc;
      for (auto& row : arc.mask) row = static_cast<uint16_t>(rng.next());
      m.arcs.push_back(arc);
    }
  }
  return m;
}

std::vector<uint8_t> generate_resource_hog(uint64_t seed, uint32_t count) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> members;
  members.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const std::vector<uint8_t> image = write_model(generate_model(seed, i));
    members.emplace_back(generated_model_name(i), refpack_compress_literal(image));
  }
  return write_hog(members);
}

}  // namespace shapevm::shp
