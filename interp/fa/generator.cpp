#include "interp/fa/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "interp/fa/opcodes.h"

// How a generated shape is put together (all byte counts are tracked exactly as the text is
// written, so the generator knows every offset the assembler will assign):
//
//   .import lines (x86 shapes: the _PL* inputs their selectors read, then do_start_interp)
//   .header                      radius/extents from the vertices actually emitted
//   PtrToObjEnd @end, SourceName, render-state opcodes, TextureFile
//   [JumpToDamage @damaged]      ground targets mostly
//   [JumpToDetail @lod1]         low detail preference starts at the second LOD
//   lod0: JumpToLOD @lod1 ...    finest block: VertexBuffers, VertexInfo, faces, Unmask
//         ...                    fragments, draw-order selector nodes, a frame table, x86 chain
//         ShortEOF               (stress, and a few corpus files: Jump @lodjoin)
//   lod1..lodN-1                 coarser blocks of the same parts, fewer rings and segments
//                                (corpus: 14% of the files are one block without JumpToLOD)
//   [damaged: ...]               the wreck, after the intact chain
//   lodjoin: ShortEOF            the top-level return ends the object
//   end: EndObject, trailer bytes, one .stub per import
//
// Every ShortEOF except the last returns from a call (Unmask bodies, selector nodes and their
// chains, the x86 arms' sub-streams), so the shapes also run to a clean end in the interpreter.
// Every rel16 spans less than the whole CODE section, which is kept below kMaxEndObject bytes.

namespace shapevm::fa {
namespace {

constexpr uint32_t kHeaderBytes = 14;
constexpr uint32_t kMaxEndObject = 32000;  // keeps every rel16 displacement in range
constexpr double kPi = 3.14159265358979323846;

// ---- deterministic randomness ------------------------------------------------------------------

// splitmix64 with bounded draws written out here: std::uniform_int_distribution and friends
// produce different sequences on different standard libraries.
class Rng {
 public:
  explicit Rng(uint64_t state) : state_(state) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0, without modulo bias.
  uint64_t below(uint64_t n) {
    const uint64_t reject_under = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const uint64_t r = next();
      if (r >= reject_under) return r % n;
    }
  }
  int range(int lo, int hi) {
    return lo + static_cast<int>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  bool chance(double p) { return unit() < p; }
  size_t weighted(std::initializer_list<int> weights) {
    int total = 0;
    for (int w : weights) total += w;
    int r = static_cast<int>(below(static_cast<uint64_t>(total)));
    size_t i = 0;
    for (int w : weights) {
      if (r < w) return i;
      r -= w;
      ++i;
    }
    return weights.size() - 1;
  }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  uint64_t state_;
};

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
  return z ^ (z >> 33);
}

// ---- geometry ----------------------------------------------------------------------------------

// sin/cos from IEEE +, *, / and fmod only, so every platform computes the same bits (libm's
// sin and cos may differ in the last place, which could flip a rounded coordinate).
double portable_sin(double x) {
  x = std::fmod(x, 2 * kPi);
  if (x > kPi) x -= 2 * kPi;
  if (x < -kPi) x += 2 * kPi;
  const double x2 = x * x;
  double term = x;
  double sum = x;
  for (int n = 1; n < 15; ++n) {
    term *= -x2 / static_cast<double>((2 * n) * (2 * n + 1));
    sum += term;
  }
  return sum;
}
double portable_cos(double x) {
  return portable_sin(x + kPi / 2);
}

using V3 = std::array<int16_t, 3>;
using Corners = std::vector<uint16_t>;

int16_t coord(double v) {
  return static_cast<int16_t>(std::clamp<long>(std::lround(v), -30000, 30000));
}

// How a part's faces are encoded: the content/layout flags of seed 000's Face format.
struct FaceStyle {
  uint8_t content = 0;        // 0x40 normal+centre, 0x04 texcoords, 0x02 fill, others unknown bits
  uint8_t layout = 0;         // 0x01 byte texcoords, 0x08 unknown (0x02/0x04 are decided per face)
  bool byte_centre = false;   // use i8 centres where the centre fits
  bool wide_indices = false;  // u16 indices even where bytes would do
  uint8_t color = 0;
  uint8_t shadow = 0;
};

// One lofted component: rings of `segs` vertices along `axis`.
struct Part {
  int axis = 1;  // 0 x, 1 y, 2 z
  std::array<double, 3> centre{};
  double length = 100;
  double radius = 10;
  double squash_u = 1, squash_w = 1;  // cross-section scale on axes axis+1, axis+2
  int profile = 0;                    // 0 bulge, 1 taper, 2 straight
  double weight = 1;                  // share of the vertex budget
  int segs0 = 8;                      // segments in the finest LOD
  bool caps = true;
  FaceStyle style;
};

struct Mesh {
  std::vector<V3> verts;
  std::vector<Corners> faces;  // local indices
};

Mesh loft(const Part& p, int rings, int segs, double phase) {
  Mesh m;
  const int u = (p.axis + 1) % 3;
  const int w = (p.axis + 2) % 3;
  for (int i = 0; i < rings; ++i) {
    const double t = rings == 1 ? 0.5 : static_cast<double>(i) / (rings - 1);
    double profile = 1.0;
    if (p.profile == 0) profile = 0.25 + 0.75 * portable_sin(kPi * (0.06 + 0.88 * t));
    if (p.profile == 1) profile = 1.0 - 0.6 * t;
    const double r = p.radius * profile;
    for (int j = 0; j < segs; ++j) {
      const double a = phase + 2 * kPi * j / segs;
      std::array<double, 3> c = p.centre;
      c[p.axis] += p.length * (t - 0.5);
      c[u] += r * p.squash_u * portable_cos(a);
      c[w] += r * p.squash_w * portable_sin(a);
      m.verts.push_back({coord(c[0]), coord(c[1]), coord(c[2])});
    }
  }
  auto at = [segs](int ring, int seg) { return static_cast<uint16_t>(ring * segs + seg % segs); };
  for (int i = 0; i + 1 < rings; ++i)
    for (int j = 0; j < segs; ++j)
      m.faces.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
  if (p.caps && segs <= 12) {
    Corners front, back;
    for (int j = segs - 1; j >= 0; --j) front.push_back(at(0, j));
    for (int j = 0; j < segs; ++j) back.push_back(at(rings - 1, j));
    m.faces.push_back(front);
    m.faces.push_back(back);
  }
  return m;
}

enum class Kind { kAircraft, kGround, kProp };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kAircraft:
      return "aircraft";
    case Kind::kGround:
      return "ground object";
    case Kind::kProp:
      return "small prop";
  }
  return "?";
}

// One x86 guard: `cmp [input], imm8` + a conditional jump over the re-entry and its arm.
struct Guard {
  std::string input;
  std::string cmp;  // x86 text up to and including the immediate
  uint8_t jcc = 0x75;
  int arms = 1;  // Unmask calls in the arm
};

// ---- the text being written --------------------------------------------------------------------

class Code {
 public:
  explicit Code(uint32_t start) : offset_(start) {}
  void label(const std::string& name) {
    text_ += name;
    text_ += ":\n";
  }
  void op(const std::string& statement, uint32_t size) {
    text_ += "    ";
    text_ += statement;
    text_ += '\n';
    offset_ += size;
  }
  void vertex(const V3& v) {
    text_ += fmt::format("        v {}, {}, {}\n", v[0], v[1], v[2]);
    offset_ += 6;
  }
  uint32_t offset() const { return offset_; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  uint32_t offset_;
};

// ---- the generator -----------------------------------------------------------------------------

class Generator {
 public:
  Generator(Rng& rng, uint64_t seed, uint32_t index, double shrink, GeneratorProfile profile)
      : rng_(rng),
        seed_(seed),
        index_(index),
        shrink_(shrink),
        profile_(profile),
        code_(kHeaderBytes) {}

  std::string run() {
    choose_shape();
    build_parts();
    emit_body();
    return compose_text();
  }

  uint32_t end_offset() const { return end_offset_; }

 private:
  // -- choices ---------------------------------------------------------------------------------

  void choose_shape() {
    kind_ = static_cast<Kind>(rng_.weighted({60, 25, 15}));
    // SourceName / TextureFile stem: a few letters and digits, e.g. "kx27".
    static const char kLetters[] = "abcdefghjklmnprstuvwxyz";
    const int letters = rng_.range(1, 3);
    for (int i = 0; i < letters; ++i) name_.push_back(kLetters[rng_.below(sizeof kLetters - 1)]);
    name_ += std::to_string(rng_.range(1, 999));

    if (profile_ == GeneratorProfile::kStress) {
      choose_stress_features();
    } else {
      choose_corpus_features();
    }
    int threshold = rng_.range(40, 160);
    for (int k = 0; k < lods_; ++k) {
      thresholds_.push_back(threshold);
      threshold = std::max(
          1, std::min(threshold - 1, static_cast<int>(threshold * rng_.uniform(0.3, 0.6))));
    }
    double f = 1.0;
    for (int k = 0; k < lods_; ++k) {
      lod_factor_.push_back(f);
      f *= rng_.uniform(0.18, 0.4);
    }
    if (has_x86_) choose_guards();
  }

  // The mix before the corpus profile, draw for draw (so --stress gives the same files as
  // before): every shape has 2-4 LOD blocks, about 40% carry x86.
  void choose_stress_features() {
    switch (kind_) {
      case Kind::kAircraft: {
        const int s = static_cast<int>(rng_.weighted({92, 2, 2, 2, 2}));
        scale_ = std::array{8, 0, 7, 9, 10}[s];
        vertex_budget_ = rng_.range(160, 560);
        lods_ = 2 + static_cast<int>(rng_.weighted({25, 55, 20}));
        has_damage_ = rng_.chance(0.03);
        has_x86_ = rng_.chance(0.6);
        has_frames_ = rng_.chance(0.3);
        break;
      }
      case Kind::kGround: {
        scale_ = 8 + static_cast<int>(rng_.weighted({40, 30, 20, 10}));
        vertex_budget_ = rng_.range(60, 460);
        lods_ = 2 + static_cast<int>(rng_.weighted({45, 40, 15}));
        has_damage_ = rng_.chance(0.5);
        has_x86_ = rng_.chance(0.12);
        has_frames_ = rng_.chance(0.45);
        break;
      }
      case Kind::kProp: {
        const int s = static_cast<int>(rng_.weighted({85, 10, 5}));
        scale_ = std::array{8, 9, 0}[s];
        vertex_budget_ = rng_.range(12, 80);
        lods_ = 2 + static_cast<int>(rng_.weighted({60, 40}));
        has_damage_ = rng_.chance(0.1);
        has_x86_ = rng_.chance(0.05);
        has_frames_ = rng_.chance(0.25);
        break;
      }
    }
    vertex_budget_ = std::max(12, static_cast<int>(vertex_budget_ * shrink_));
    has_texture_ = rng_.chance(kind_ == Kind::kProp ? 0.6 : 0.8);
    has_detail_ = rng_.chance(0.85);
    cutoff_ = rng_.chance(0.5);
    has_unmask_ = true;
    has_xform_ = true;
  }

  // The corpus profile: each feature's share of files is the shipped corpus's (kCorpusCounts in
  // generator.h; docs/fa-generator.md). Per kind where the corpus says who carries a feature
  // (damage: ground targets; x86: mostly aircraft), chosen so the shares over all kinds match.
  void choose_corpus_features() {
    const double x86[] = {0.25, 0.0526, 0.0};     // aircraft, ground, prop: 16.3% overall
    const double damage[] = {0.005, 0.17, 0.02};  // 4.9% overall
    const double lod[] = {0.95, 0.8, 0.6};        // 86.1% overall
    const size_t k = static_cast<size_t>(kind_);
    switch (kind_) {
      case Kind::kAircraft:
        scale_ = std::array{8, 0, 7, 9, 10}[rng_.weighted({92, 2, 2, 2, 2})];
        vertex_budget_ = rng_.range(160, 560);
        break;
      case Kind::kGround:
        scale_ = 8 + static_cast<int>(rng_.weighted({40, 30, 20, 10}));
        vertex_budget_ = rng_.range(60, 460);
        break;
      case Kind::kProp:
        scale_ = std::array{8, 9, 0}[rng_.weighted({85, 10, 5})];
        vertex_budget_ = rng_.range(12, 80);
        break;
    }
    vertex_budget_ = std::max(12, static_cast<int>(vertex_budget_ * shrink_));
    const auto share = [](uint32_t files) { return files / double(kCorpusCounts.files); };
    has_x86_ = rng_.chance(x86[k]);
    has_damage_ = rng_.chance(damage[k]);
    has_frames_ = rng_.chance(share(kCorpusCounts.jump_to_frame));
    // LOD blocks chain (2-4 blocks, a final cut-off now and then): 1.88 JumpToLOD per file, as
    // the corpus's opcode count over its files. A file without them is one block.
    if (rng_.chance(lod[k])) {
      lods_ = 2 + static_cast<int>(rng_.weighted({70, 22, 8}));
      cutoff_ = rng_.chance(0.5);
      // Detail switches sit in LOD files: 1094 of the 1098.
      has_detail_ = rng_.chance(double(kCorpusCounts.jump_to_detail) / kCorpusCounts.jump_to_lod);
    } else {
      lods_ = 1;
    }
    // The x86 arms call their sub-streams with Unmask, so x86 files are Unmask files; the rest
    // of the Unmask files are drawn among the others. ShortJump follows Unmask (the call idiom).
    const uint32_t others = kCorpusCounts.files - kCorpusCounts.x86;
    has_unmask_ =
        has_x86_ || rng_.chance(double(kCorpusCounts.unmask - kCorpusCounts.x86) / others);
    has_xform_ = rng_.chance(share(kCorpusCounts.xform_unmask));
    has_unmask_ = has_unmask_ || has_xform_;
    // Jump (0x48) ends every frame of a frame table; a few other files end a LOD block with it.
    const uint32_t no_frames = kCorpusCounts.files - kCorpusCounts.jump_to_frame;
    lod_join_jump_ =
        !has_frames_ &&
        rng_.chance(double(kCorpusCounts.jump - kCorpusCounts.jump_to_frame) / no_frames);
    has_texture_ = rng_.chance(kind_ == Kind::kProp ? 0.6 : 0.8);
  }

  void choose_guards() {
    if (profile_ == GeneratorProfile::kStress) {
      choose_stress_guards();
    } else {
      choose_corpus_guards();
    }
    for (const auto& g : guards_)
      if (std::find(imports_.begin(), imports_.end(), g.input) == imports_.end())
        imports_.push_back(g.input);
    imports_.push_back("do_start_interp");
  }

  // The corpus's guard: `cmp word [trampoline], imm8` (the form the seed's input identification
  // reads) and a `jne` past the arm, one case of a switch on the input. Each input is read by as
  // many of the x86 files as the corpus's trampoline counts say; a file reads at least one.
  void choose_corpus_guards() {
    struct Input {
      const char* name;
      uint32_t files;  // of the corpus's 208 x86 files
      std::vector<int> cases;
    };
    static const Input kInputs[] = {
        {"_PLgearDown", 126, {1}},   {"_PLleftFlap", 104, {-1}}, {"_PLrightFlap", 104, {-1}},
        {"_PLafterBurner", 85, {1}}, {"_PLbrake", 75, {1}},      {"_PLrudder", 73, {1, -1}},
        {"_PLhook", 17, {1}},
    };
    // The corpus counts 104 files for each flap: assumed the same files, one draw for the pair.
    const bool flaps = rng_.chance(104.0 / kCorpusCounts.x86);
    for (const auto& in : kInputs) {
      const std::string name = in.name;
      const bool flap = name == "_PLleftFlap" || name == "_PLrightFlap";
      if (flap ? !flaps : !rng_.chance(double(in.files) / kCorpusCounts.x86)) continue;
      for (int value : in.cases) add_word_guard(name, value);
    }
    if (guards_.empty()) add_word_guard("_PLgearDown", 1);
  }

  void add_word_guard(const std::string& input, int value) {
    const int arms = rng_.chance(0.2) ? 2 : 1;
    guards_.push_back(
        {input, fmt::format("66 83 3d {{{}}} {:02x}", input, value & 0xFF), 0x75, arms});
  }

  void choose_stress_guards() {
    // Articulation inputs (seed 000, X86Unknown Region), each with the compare its selector makes.
    std::vector<int> pool = {0, 1, 2, 3, 4, 5, 6};
    const int count = rng_.range(1, 4);
    for (int n = 0; n < count && !pool.empty(); ++n) {
      const size_t at = rng_.below(pool.size());
      const int which = pool[at];
      pool.erase(pool.begin() + static_cast<long>(at));
      const int arms = rng_.chance(0.2) ? 2 : 1;
      switch (which) {
        case 0:  // _PLgearDown: 1 = extended
          guards_.push_back({"_PLgearDown", "66 83 3d {_PLgearDown} 01", 0x75, arms});
          break;
        case 1:  // flaps: 0 up, -1 down; skip the arm while up (signed >= 0)
        case 2: {
          const std::string in = which == 1 ? "_PLleftFlap" : "_PLrightFlap";
          if (rng_.chance(0.5)) {
            guards_.push_back({in, "83 3d {" + in + "} 00", 0x7D, arms});
          } else {
            guards_.push_back({in, "66 83 3d {" + in + "} ff", 0x75, arms});
          }
          break;
        }
        case 3:  // on/off inputs: skip the arm while 0
        case 4:
        case 5: {
          const std::string in = std::array{"_PLafterBurner", "_PLbrake", "_PLhook"}[which - 3];
          if (rng_.chance(0.3)) {
            guards_.push_back({in, "80 3d {" + in + "} 00", 0x74, arms});
          } else {
            guards_.push_back({in, "66 83 3d {" + in + "} 00", 0x74, arms});
          }
          break;
        }
        default:  // _PLrudder: 1 right, -1 left: one guard per side
          guards_.push_back({"_PLrudder", "66 83 3d {_PLrudder} 01", 0x75, 1});
          guards_.push_back({"_PLrudder", "66 83 3d {_PLrudder} ff", 0x75, 1});
          break;
      }
    }
  }

  FaceStyle draw_style() {
    FaceStyle s;
    const bool textured = has_texture_ && rng_.chance(0.6);
    if (textured) {
      s.content |= 0x04;
      if (rng_.chance(0.35)) s.content |= 0x10;
      if (rng_.chance(0.7)) s.layout |= 0x01;
    }
    if (rng_.chance(0.75)) s.content |= 0x40;
    if (rng_.chance(0.15)) s.content |= 0x02;
    if (rng_.chance(0.08)) s.content |= 0x20;
    if (rng_.chance(0.03)) s.content |= 0x01;
    if (rng_.chance(0.02)) s.content |= 0x08;
    if (rng_.chance(0.02)) s.content |= 0x80;
    if (rng_.chance(0.04)) s.layout |= 0x08;
    s.byte_centre = rng_.chance(0.35);
    s.wide_indices = rng_.chance(0.03);
    s.color = static_cast<uint8_t>(rng_.range(0x10, 0xEF));
    s.shadow = rng_.chance(0.02) ? 1 : 0;
    return s;
  }

  // -- parts -----------------------------------------------------------------------------------

  Part make_part(int axis, std::array<double, 3> centre, double length, double radius, double su,
                 double sw, int profile, double weight, int segs0) {
    Part p;
    p.axis = axis;
    p.centre = centre;
    p.length = length;
    p.radius = radius;
    p.squash_u = su;
    p.squash_w = sw;
    p.profile = profile;
    p.weight = weight;
    p.segs0 = segs0;
    p.caps = rng_.chance(0.7);
    p.style = draw_style();
    return p;
  }

  void build_parts() {
    switch (kind_) {
      case Kind::kAircraft: {
        const double len = rng_.uniform(300, 1400);
        const double fr = len * rng_.uniform(0.06, 0.1);
        parts_.push_back(
            make_part(1, {0, 0, 0}, len, fr, 1, rng_.uniform(0.8, 1.1), 0, 4.0, rng_.range(8, 12)));
        parts_.push_back(make_part(1, {0, len * 0.25, fr * 0.8}, len * 0.15, fr * 0.5, 0.8, 0.6, 0,
                                   1.0, rng_.range(6, 8)));
        const double half_span = len * rng_.uniform(0.3, 0.55);
        const double chord = len * rng_.uniform(0.1, 0.18);
        const double wing_y = len * rng_.uniform(-0.1, 0.05);
        const double wing_z = fr * rng_.uniform(-0.5, 0.3);
        const double thick = rng_.uniform(0.08, 0.15);
        const int wing_segs = rng_.range(6, 10);
        for (double side : {-1.0, 1.0})
          parts_.push_back(make_part(0, {side * (fr + half_span / 2), wing_y, wing_z}, half_span,
                                     chord, 1, thick, 1, 2.0, wing_segs));
        const double tail = len * rng_.uniform(0.12, 0.2);
        for (double side : {-1.0, 1.0})
          parts_.push_back(make_part(0, {side * (fr * 0.6 + tail / 2), -len * 0.42, fr * 0.2}, tail,
                                     chord * 0.5, 1, thick, 1, 0.8, 6));
        const int fins = rng_.chance(0.3) ? 2 : 1;
        const double fin = len * rng_.uniform(0.12, 0.2);
        for (int i = 0; i < fins; ++i) {
          const double x = fins == 1 ? 0.0 : (i ? fr * 0.6 : -fr * 0.6);
          parts_.push_back(make_part(2, {x, -len * 0.4, fr * 0.8 + fin / 2}, fin, chord * 0.6,
                                     thick, 1, 1, 0.8, 6));
        }
        const int stores = static_cast<int>(rng_.weighted({40, 40, 20}));
        for (int s = 0; s < stores; ++s) {
          const double x = (fr + half_span * rng_.uniform(0.2, 0.8));
          const double l = len * rng_.uniform(0.15, 0.3);
          const double r = len * rng_.uniform(0.02, 0.04);
          for (double side : {-1.0, 1.0})
            parts_.push_back(make_part(1, {side * x, wing_y, wing_z - chord * 0.3}, l, r, 1, 1,
                                       rng_.chance(0.5) ? 0 : 2, 0.7, 6));
        }
        size_ = len;
        break;
      }
      case Kind::kGround: {
        const double len = rng_.uniform(200, 6000);
        const int axis = rng_.chance(0.6) ? 1 : 0;
        const double r = len * rng_.uniform(0.1, 0.3);
        parts_.push_back(make_part(axis, {0, 0, 0}, len, r, 1, rng_.uniform(0.3, 1.0),
                                   rng_.chance(0.5) ? 2 : 0, 3.0, rng_.range(4, 8)));
        const int extras = rng_.range(1, 5);
        for (int i = 0; i < extras; ++i) {
          const double l = len * rng_.uniform(0.1, 0.4);
          const double er = len * rng_.uniform(0.03, 0.1);
          const int ax = rng_.chance(0.6) ? 2 : static_cast<int>(rng_.below(3));
          std::array<double, 3> c{0, 0, 0};
          c[axis] = len * rng_.uniform(-0.35, 0.35);
          c[2] = ax == 2 ? r * 0.5 + l / 2 : r * 0.6;
          parts_.push_back(make_part(ax, c, l, er, 1, 1, static_cast<int>(rng_.below(3)),
                                     rng_.uniform(0.5, 1.5), rng_.range(4, 8)));
        }
        size_ = len;
        break;
      }
      case Kind::kProp: {
        const double h = rng_.uniform(40, 400);
        parts_.push_back(
            make_part(2, {0, 0, h * 0.25}, h * 0.5, h * 0.06, 1, 1, 2, 1.0, rng_.range(4, 6)));
        if (rng_.chance(0.7))
          parts_.push_back(
              make_part(2, {0, 0, h * 0.7}, h * 0.6, h * 0.3, 1, 1, 0, 2.0, rng_.range(5, 8)));
        size_ = h;
        break;
      }
    }
  }

  // The meshes of LOD level k: the same parts with fewer rings and segments; the coarsest level
  // keeps only the heavier parts.
  std::vector<std::pair<const Part*, Mesh>> lod_meshes(int k) {
    double total = 0;
    for (const auto& p : parts_) total += p.weight;
    std::vector<std::pair<const Part*, Mesh>> out;
    const double f = lod_factor_[static_cast<size_t>(k)];
    for (size_t i = 0; i < parts_.size(); ++i) {
      const Part& p = parts_[i];
      if (k > 0 && i > 0 && p.weight < 1.0 && f < 0.2) continue;
      const int segs = std::max(3, static_cast<int>(std::lround(p.segs0 * std::sqrt(f))));
      const double share = vertex_budget_ * f * p.weight / total;
      const int rings = std::max(2, static_cast<int>(std::lround(share / segs)));
      out.emplace_back(&p, loft(p, rings, segs, 0.0));
    }
    return out;
  }

  // -- emission helpers ------------------------------------------------------------------------

  std::string label(const char* stem) { return fmt::format("{}{}", stem, ++labels_); }

  // `UnkXX raw=...` with the operand bytes the opcode table gives it.
  void untraced(uint8_t op, const std::vector<uint8_t>& preferred = {}) {
    const fa::OpcodeInfo* info = fa::find_opcode(op);
    const uint32_t operands = info->fixed_size - (info->word_magic ? 2u : 1u);
    std::string raw;
    for (uint32_t i = 0; i < operands; ++i) {
      const uint8_t b = i < preferred.size()
                            ? preferred[i]
                            : static_cast<uint8_t>(rng_.chance(0.6) ? 0 : rng_.below(256));
      raw += fmt::format("{:02x}", b);
    }
    code_.op(
        raw.empty() ? std::string(info->mnemonic) : fmt::format("{} raw={}", info->mnemonic, raw),
        info->fixed_size);
  }

  // A render-state opcode of the untraced family, now and then.
  void maybe_render_state(double p) {
    if (!rng_.chance(p)) return;
    switch (rng_.weighted({30, 25, 20, 10, 10, 5})) {
      case 0:
        untraced(0x44, {static_cast<uint8_t>(rng_.range(0, 2)), 0});
        break;  // do_setcoarse
      case 1:
        untraced(0xDA, {static_cast<uint8_t>(rng_.range(0, 0x20)), 0});
        break;  // do_setlight
      case 2:
        untraced(0xB8, {0, 0});
        break;  // do_no_overlap
      case 3:
        untraced(0x46);
        break;  // do_force_no_pmap
      case 4:
        untraced(0xB2);
        break;  // do_use_terrain_detail
      default:
        untraced(0xEE);
        break;  // do_brush_trans
    }
  }

  void vertex_buffer(uint32_t first_slot, const std::vector<V3>& verts, std::vector<V3>& pool) {
    code_.op(fmt::format("VertexBuffer at={}", first_slot * 8), 6);
    if (pool.size() < first_slot + verts.size()) pool.resize(first_slot + verts.size());
    for (size_t i = 0; i < verts.size(); ++i) {
      code_.vertex(verts[i]);
      pool[first_slot + i] = verts[i];
      for (int a = 0; a < 3; ++a) max_abs_[a] = std::max(max_abs_[a], std::abs(int{verts[i][a]}));
      const double norm =
          std::sqrt(double(verts[i][0]) * verts[i][0] + double(verts[i][1]) * verts[i][1] +
                    double(verts[i][2]) * verts[i][2]);
      max_norm_ = std::max(max_norm_, norm);
    }
    vertices_ += static_cast<uint32_t>(verts.size());
  }

  uint8_t texcoord(int16_t v, int axis) const {
    const double span = std::max(1.0, size_ * (axis == 1 ? 0.6 : 0.8));
    return static_cast<uint8_t>(std::clamp<long>(std::lround((v / span + 0.5) * 255), 0, 255));
  }

  void face(const FaceStyle& style, const Corners& slots, const std::vector<V3>& pool,
            uint8_t color) {
    uint8_t layout = style.layout;
    const bool wide = style.wide_indices ||
                      std::any_of(slots.begin(), slots.end(), [](uint16_t s) { return s > 255; });
    if (wide) layout |= 0x04;
    std::string text;
    uint32_t size = 5 + 1;
    std::string extra;
    if (style.content & 0x40) {
      const V3& a = pool[slots[0]];
      const V3& b = pool[slots[1]];
      const V3& c = pool[slots[2]];
      const double e1[3] = {double(b[0] - a[0]), double(b[1] - a[1]), double(b[2] - a[2])};
      const double e2[3] = {double(c[0] - a[0]), double(c[1] - a[1]), double(c[2] - a[2])};
      double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                     e1[0] * e2[1] - e1[1] * e2[0]};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (len > 0) {
        for (double& v : n) v = v / len * 32765.0;
      } else {
        n[0] = n[1] = 0;
        n[2] = 32765;
      }
      std::array<long, 3> centre{};
      for (uint16_t s : slots)
        for (int i = 0; i < 3; ++i) centre[i] += pool[s][i];
      for (auto& v : centre)
        v = std::lround(static_cast<double>(v) / static_cast<double>(slots.size()));
      const bool byte_centre =
          style.byte_centre &&
          std::all_of(centre.begin(), centre.end(), [](long v) { return v >= -128 && v <= 127; });
      if (byte_centre) layout |= 0x02;
      size += 6 + (byte_centre ? 3 : 6);
      extra = fmt::format(" normal={},{},{} center={},{},{}", std::lround(n[0]), std::lround(n[1]),
                          std::lround(n[2]), centre[0], centre[1], centre[2]);
    }
    std::string idx;
    for (size_t i = 0; i < slots.size(); ++i) idx += fmt::format("{}{}", i ? "," : "", slots[i]);
    size += static_cast<uint32_t>(slots.size()) * (wide ? 2 : 1);
    text = fmt::format("Face content=0x{:02x} layout=0x{:02x} color=0x{:02x} shadow={}{} idx={}",
                       style.content, layout, color, style.shadow, extra, idx);
    if (style.content & 0x04) {
      const bool byte_tc = layout & 0x01;
      std::string uv;
      for (size_t i = 0; i < slots.size(); ++i) {
        const V3& v = pool[slots[i]];
        uv += fmt::format("{}{},{}", i ? "," : "", texcoord(v[0], 0), texcoord(v[1], 1));
      }
      text += " uv=" + uv;
      size += static_cast<uint32_t>(slots.size()) * (byte_tc ? 2 : 4);
    }
    code_.op(text, size);
    ++faces_;
  }

  void faces(const FaceStyle& style, const Mesh& mesh, uint32_t base, const std::vector<V3>& pool,
             size_t first = 0, size_t count = SIZE_MAX) {
    const size_t end =
        std::min(mesh.faces.size(), first > SIZE_MAX - count ? SIZE_MAX : first + count);
    for (size_t f = first; f < end; ++f) {
      Corners slots;
      for (uint16_t i : mesh.faces[f]) slots.push_back(static_cast<uint16_t>(base + i));
      face(style, slots, pool, style.color);
    }
  }

  // -- structures ------------------------------------------------------------------------------

  // `Unmask @body` / `ShortJump @join` / body: ... ShortEOF / join: (seed 000's common idiom).
  template <typename Body>
  void unmask_fragment(Body&& body, bool xform) {
    const std::string b = label("body");
    const std::string j = label("past");
    ++(xform ? xforms_ : unmasks_);
    if (xform) {
      code_.op(fmt::format("XformUnmask t={},{},{} a=0,{},0 call=@{}", rng_.range(-40, 40),
                           rng_.range(-40, 40), rng_.range(-20, 20), rng_.range(-2048, 2048), b),
               16);
    } else {
      code_.op("Unmask @" + b, 4);
    }
    code_.op("ShortJump @" + j, 3);
    code_.label(b);
    maybe_render_state(0.2);
    body();
    code_.op("ShortEOF", 1);
    code_.label(j);
  }

  // A draw-order selector is the head of a called node: `Unmask @node` / `ShortJump @past`, and
  // in the node the selector calls one chain and continues at the other. Both chains end in
  // ShortEOF: the called one returns to the selector's continuation, the continued one returns
  // from the node. Which chain is drawn first is the only thing the condition changes.
  template <typename Head>
  void selector_node(Head&& head) {
    const std::string node = label("node");
    const std::string past = label("past");
    ++unmasks_;
    code_.op("Unmask @" + node, 4);
    code_.op("ShortJump @" + past, 3);
    code_.label(node);
    head();
    code_.label(past);
  }

  // OrderField: call=@near, continue=@far; the embedded ShortJump also leads to @far.
  template <typename A, typename B>
  void order_field(A&& first, B&& second) {
    selector_node([&] {
      const std::string a = label("near");
      const std::string b = label("far");
      static const std::vector<int> kFields = {0x0e, 0x10, 0x22, 0x2c, 0x3c, 0x48};
      code_.op(
          fmt::format("OrderField field=0x{:x} cmp=0x{:x} call=@{} continue=@{} then=ShortJump:@{}",
                      rng_.pick(kFields), rng_.range(0, 8), a, b, b),
          13);
      code_.label(a);
      first();
      code_.op("ShortEOF", 1);
      code_.label(b);
      second();
      code_.op("ShortEOF", 1);
    });
  }

  // OrderPlane / OrderPlaneYZ/XZ/XY: the continued chain is the next instruction; the called
  // chain follows it. With a tail, the embedded ShortJump leads to the next instruction too, so
  // the node behaves the same whether or not the engine executes it.
  template <typename A, typename B>
  void order_plane(A&& called, B&& continued) {
    selector_node([&] {
      const std::string a = label("side");
      const std::string c = label("front");
      const size_t kind = rng_.weighted({40, 20, 25, 15});
      const char* mnemonic =
          std::array{"OrderPlane", "OrderPlaneYZ", "OrderPlaneXZ", "OrderPlaneXY"}[kind];
      const int words = kind == 0 ? 6 : 4;
      std::string plane;
      for (int i = 0; i < words; ++i) {
        const int v = i < (words == 6 ? 3 : 2) ? rng_.range(-32767, 32767) : rng_.range(-600, 600);
        plane += fmt::format("{}{}", i ? "," : "", v);
      }
      const uint32_t base = kind == 0 ? 18 : 14;
      if (rng_.chance(0.6)) {
        code_.op(fmt::format("{} plane={} call=@{} then=ShortJump:@{}", mnemonic, plane, a, c),
                 base + 3);
      } else {
        code_.op(fmt::format("{} plane={} call=@{}", mnemonic, plane, a), base);
      }
      code_.label(c);
      continued();
      code_.op("ShortEOF", 1);
      code_.label(a);
      called();
      code_.op("ShortEOF", 1);
    });
  }

  // A frame table: every frame pushes its own variant of a small part (or recolours existing
  // faces) and jumps to the common join.
  void frame_table(uint32_t base, std::vector<V3>& pool, const Mesh& colour_source,
                   uint32_t colour_base, uint32_t& pool_end) {
    const int frames = rng_.range(2, 8);
    std::vector<std::string> names;
    for (int i = 0; i < frames; ++i) names.push_back(label("frame"));
    const std::string join = label("frames");
    std::string table = "JumpToFrame";
    for (int i = 0; i < frames; ++i) table += (i ? ", @" : " @") + names[static_cast<size_t>(i)];
    code_.op(table, 4 + 2 * static_cast<uint32_t>(frames));
    const bool animated = rng_.chance(0.6) || colour_source.faces.empty();
    Part blade;
    if (animated) {
      blade.axis = static_cast<int>(rng_.below(3));
      for (int a = 0; a < 3; ++a) blade.centre[a] = size_ * rng_.uniform(-0.3, 0.3);
      blade.length = size_ * rng_.uniform(0.02, 0.05);
      blade.radius = size_ * rng_.uniform(0.04, 0.1);
      blade.squash_w = rng_.uniform(0.1, 1.0);
      blade.profile = 2;
      blade.caps = true;
      blade.style = draw_style();
    }
    const int segs = rng_.range(3, 6);
    const size_t recolour =
        std::min<size_t>(colour_source.faces.size(), static_cast<size_t>(rng_.range(2, 10)));
    for (int i = 0; i < frames; ++i) {
      code_.label(names[static_cast<size_t>(i)]);
      if (animated) {
        const Mesh m = loft(blade, 2, segs, 2 * kPi * i / (segs * frames));
        vertex_buffer(base, m.verts, pool);
        pool_end = std::max<uint32_t>(pool_end, base + static_cast<uint32_t>(m.verts.size()));
        faces(blade.style, m, base, pool);
      } else {
        FaceStyle s = draw_style();
        s.color = static_cast<uint8_t>(0x10 + (s.color + i * 16) % 0xE0);
        faces(s, colour_source, colour_base, pool, 0, recolour);
      }
      code_.op("Jump @" + join, 4);
    }
    code_.label(join);
  }

  // The x86 selector chain: one block per guard, each `cmp [input], imm8` / jcc over the
  // re-entry and its arm to the next block's payload / `push arm; push do_start_interp; ret`,
  // then the arm (Unmask calls), then the next X86Code. The last block re-enters at the join.
  void x86_chain(std::vector<V3>& pool, uint32_t& pool_end) {
    struct Arm {
      std::string label;
      std::vector<std::string> fragments;
    };
    std::vector<Arm> arms;
    const std::string join = label("xjoin");
    const std::string after = label("xend");
    for (const auto& g : guards_) {
      Arm arm{label("arm"), {}};
      for (int i = 0; i < g.arms; ++i) arm.fragments.push_back(label("sub"));
      const uint32_t arm_bytes = 4 * static_cast<uint32_t>(g.arms);
      const uint32_t cmp_bytes = g.cmp.rfind("66", 0) == 0 ? 8 : 7;
      const uint32_t skip = 11 + arm_bytes + 2;  // re-entry, arm, the next block's F0 00
      code_.op("X86Code", 2);
      code_.op("x86 " + g.cmp, cmp_bytes);
      code_.op(fmt::format("x86 {:02x} {:02x}", g.jcc, skip), 2);
      code_.op(fmt::format("x86 68 {{{}}} 68 {{do_start_interp}} c3", arm.label), 11);
      code_.label(arm.label);
      for (const auto& f : arm.fragments) code_.op("Unmask @" + f, 4);
      arms.push_back(std::move(arm));
    }
    code_.op("X86Code", 2);
    code_.op(fmt::format("x86 68 {{{}}} 68 {{do_start_interp}} c3", join), 11);
    code_.label(join);
    code_.op("ShortJump @" + after, 3);
    // The guarded sub-streams: small moving parts pushed above the base pool.
    for (const auto& arm : arms) {
      for (const auto& f : arm.fragments) {
        code_.label(f);
        Part p;
        p.axis = rng_.chance(0.5) ? 2 : static_cast<int>(rng_.below(3));
        p.centre = {size_ * rng_.uniform(-0.25, 0.25), size_ * rng_.uniform(-0.3, 0.3),
                    -size_ * rng_.uniform(0, 0.1)};
        p.length = size_ * rng_.uniform(0.04, 0.12);
        p.radius = size_ * rng_.uniform(0.01, 0.03);
        p.profile = 2;
        p.caps = rng_.chance(0.6);
        p.style = draw_style();
        const Mesh m = loft(p, rng_.range(2, 3), rng_.range(3, 6), 0.0);
        vertex_buffer(pool_end, m.verts, pool);
        faces(p.style, m, pool_end, pool);
        pool_end += static_cast<uint32_t>(m.verts.size());
        code_.op("ShortEOF", 1);
      }
    }
    code_.label(after);
  }

  // One LOD block.
  void lod_block(int k) {
    code_.label(fmt::format("lod{}", k));
    const std::string next = k + 1 < lods_ ? fmt::format("lod{}", k + 1) : "lodjoin";
    const int size = std::clamp(static_cast<int>(radius_guess()), 1, 65535);
    if (k + 1 < lods_ || (cutoff_ && lods_ > 1))
      code_.op(fmt::format("JumpToLOD @{} size={} threshold={}", next, size,
                           thresholds_[static_cast<size_t>(k)]),
               8);
    maybe_render_state(0.25);
    if (k == 0 && rng_.chance(0.15)) untraced(0x78);  // BBoxCull, operands untraced

    auto meshes = lod_meshes(k);
    std::vector<V3> pool;
    std::vector<uint32_t> bases;
    uint32_t slot = 0;
    // Vertex buffers: consecutive parts share a buffer now and then.
    size_t i = 0;
    while (i < meshes.size()) {
      const size_t group =
          std::min(meshes.size() - i, static_cast<size_t>(rng_.weighted({60, 30, 10}) + 1));
      std::vector<V3> verts;
      for (size_t g = i; g < i + group; ++g) {
        bases.push_back(slot + static_cast<uint32_t>(verts.size()));
        verts.insert(verts.end(), meshes[g].second.verts.begin(), meshes[g].second.verts.end());
      }
      vertex_buffer(slot, verts, pool);
      slot += static_cast<uint32_t>(verts.size());
      i += group;
    }
    uint32_t pool_end = slot;
    if (k == 0 && rng_.chance(0.3)) {
      const int n = rng_.range(1, 6);
      for (int v = 0; v < n; ++v)
        code_.op(fmt::format("VertexInfo index={} color=0x{:02x} normal={},{},{}",
                             rng_.below(pool_end), rng_.range(0, 255), rng_.range(-127, 127),
                             rng_.range(-127, 127), rng_.range(-127, 127)),
                 7);
    }
    // Faces, part by part: directly, in an Unmask fragment, or behind a draw-order selector.
    for (size_t p = 0; p < meshes.size(); ++p) {
      const Part& part = *meshes[p].first;
      const Mesh& mesh = meshes[p].second;
      const uint32_t base = bases[p];
      const size_t choice = part_structure(k, p, meshes.size());
      auto draw = [&] { faces(part.style, mesh, base, pool); };
      switch (choice) {
        case 1:
          unmask_fragment(draw, false);
          break;
        case 4:
          unmask_fragment(draw, true);
          break;
        case 3:
          if (p + 1 < meshes.size()) {
            const Part& part2 = *meshes[p + 1].first;
            const Mesh& mesh2 = meshes[p + 1].second;
            const uint32_t base2 = bases[p + 1];
            order_plane(draw, [&] { faces(part2.style, mesh2, base2, pool); });
            ++p;
          } else {
            const size_t half = mesh.faces.size() / 2;
            order_plane([&] { faces(part.style, mesh, base, pool, 0, half); },
                        [&] { faces(part.style, mesh, base, pool, half); });
          }
          break;
        case 2:
          if (p + 1 < meshes.size()) {
            const Part& part2 = *meshes[p + 1].first;
            const Mesh& mesh2 = meshes[p + 1].second;
            const uint32_t base2 = bases[p + 1];
            order_field(draw, [&] { faces(part2.style, mesh2, base2, pool); });
            ++p;
            break;
          }
          draw();
          break;
        default:
          // A long part is split: half its faces, then the rest after a render-state switch.
          if (mesh.faces.size() > 40 && rng_.chance(0.3)) {
            const size_t half = mesh.faces.size() / 2;
            faces(part.style, mesh, base, pool, 0, half);
            maybe_render_state(0.8);
            faces(part.style, mesh, base, pool, half);
          } else {
            draw();
          }
          break;
      }
    }
    if (has_frames_ && (k == 0 || (k == 1 && rng_.chance(0.3))))
      frame_table(pool_end, pool, meshes.front().second, bases.front(), pool_end);
    if (k == 0 && has_x86_) x86_chain(pool, pool_end);
    if (profile_ == GeneratorProfile::kStress || lod_join_jump_) {
      code_.op("Jump @lodjoin", 4);
    } else {
      code_.op("ShortEOF", 1);  // the top-level return ends the object after this block
    }
  }

  // How part `p` of LOD block `k` is drawn: 0 directly, 1 in an Unmask fragment, 2 behind an
  // OrderField, 3 behind a plane selector, 4 in an XformUnmask fragment. The corpus profile
  // keeps the call structures to its Unmask files and XformUnmask to its XformUnmask files,
  // each of which gets at least one.
  size_t part_structure(int k, size_t p, size_t parts) {
    if (profile_ == GeneratorProfile::kStress)
      return p == 0   ? 0
             : k == 0 ? rng_.weighted({55, 18, 12, 12, 3})
                      : rng_.weighted({85, 15, 0, 0, 0});
    if (!has_unmask_) return 0;
    const bool last = k == 0 && p + 1 == parts;
    if (last && has_xform_ && xforms_ == 0) return 4;
    if (last && unmasks_ == 0 && !has_x86_) return 1;
    if (p == 0) return 0;
    if (k > 0) return rng_.weighted({85, 15, 0, 0, 0});
    return rng_.weighted({55, 18, 12, 12, 0});
  }

  void damaged_block() {
    code_.label("damaged");
    std::vector<V3> pool;
    // The wreck: the main part flattened and broken into fewer rings.
    Part wreck = parts_.front();
    wreck.squash_w *= 0.35;
    wreck.length *= 0.8;
    wreck.style = draw_style();
    wreck.style.color = static_cast<uint8_t>(rng_.range(0x10, 0x1F));  // dark
    const int segs = std::max(3, wreck.segs0 / 2);
    const Mesh m =
        loft(wreck, std::max(2, static_cast<int>(vertex_budget_ * 0.15 / segs)), segs, 0.3);
    vertex_buffer(0, m.verts, pool);
    faces(wreck.style, m, 0, pool);
  }

  double radius_guess() const { return size_ * (kind_ == Kind::kAircraft ? 0.6 : 0.55); }

  void emit_body() {
    code_.op("PtrToObjEnd @end", 4);
    code_.op(fmt::format("SourceName \"{}.asm\"", name_),
             3 + static_cast<uint32_t>(name_.size()) + 4);
    if (rng_.chance(0.5)) untraced(0xB8, {0, 0});
    if (has_texture_) {
      std::string tex = "_";
      for (char c : name_)
        tex.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      tex += ".PIC";
      code_.op(fmt::format("TextureFile \"{}\"", tex), 16);
      if (rng_.chance(0.05)) code_.op("TextureIndex 0", 4);
    }
    maybe_render_state(0.3);
    if (has_damage_) code_.op("JumpToDamage @damaged", 4);
    if (has_detail_) code_.op(fmt::format("JumpToDetail @lod1 threshold={}", rng_.range(1, 4)), 6);
    for (int k = 0; k < lods_; ++k) lod_block(k);
    if (has_damage_) damaged_block();
    code_.label("lodjoin");
    maybe_render_state(0.1);
    code_.op("ShortEOF", 1);  // the top-level return ends the object
    code_.label("end");
    code_.op("EndObject", 1);
    end_offset_ = code_.offset() - 1;
    code_.op(".db 01 02 03 02 01 00 00 00", 8);
    for (const auto& imp : imports_) code_.op(".stub " + imp, 6);
  }

  std::string compose_text() {
    std::array<int, 3> ext{};
    double ext_norm = 0;
    const double pad = rng_.uniform(1.0, 1.1);
    for (int a = 0; a < 3; ++a) {
      ext[a] = std::min(32767, static_cast<int>(std::lround(max_abs_[a] * pad)) + 1);
      ext_norm += double(ext[a]) * ext[a];
    }
    ext_norm = std::sqrt(ext_norm);
    const int radius = std::clamp(
        static_cast<int>(std::lround(max_norm_ + (ext_norm - max_norm_) * rng_.unit())), 10, 32767);
    int radius_world = 0;
    if (kind_ == Kind::kGround) {
      const double world =
          radius * std::ldexp(1.0, scale_ - 8) * (rng_.chance(0.7) ? 1.0 : rng_.uniform(1.4, 4.8));
      if (world <= 32767) radius_world = static_cast<int>(std::lround(world));
    }
    std::string out = fmt::format(
        "; shapevm gen fa: seed {} shape {} ({}, {}): {} LOD blocks, {} vertices, {} faces, {} x86 "
        "selectors, "
        "EndObject at 0x{:04x}\n",
        seed_, index_, generated_shape_stem(index_), kind_name(kind_), lods_, vertices_, faces_,
        guards_.size(), end_offset_);
    for (const auto& imp : imports_) out += ".import " + imp + "\n";
    out += fmt::format(".header radius_world={} radius={} scale={} extents={},{},{}\n",
                       radius_world, radius, scale_, ext[0], ext[1], ext[2]);
    out += code_.text();
    return out;
  }

  Rng& rng_;
  uint64_t seed_;
  uint32_t index_;
  double shrink_;
  GeneratorProfile profile_;
  Code code_;

  Kind kind_ = Kind::kAircraft;
  std::string name_;
  int scale_ = 8;
  int vertex_budget_ = 100;
  int lods_ = 2;
  bool has_damage_ = false;
  bool has_x86_ = false;
  bool has_frames_ = false;
  bool has_texture_ = false;
  bool has_detail_ = false;
  bool cutoff_ = false;
  bool has_unmask_ = true;      // Unmask fragments and draw-order selector nodes may occur
  bool has_xform_ = true;       // XformUnmask fragments may occur
  bool lod_join_jump_ = false;  // corpus: LOD blocks end with Jump @lodjoin, not ShortEOF
  std::vector<int> thresholds_;
  std::vector<double> lod_factor_;
  std::vector<Guard> guards_;
  std::vector<std::string> imports_;
  std::vector<Part> parts_;
  double size_ = 100;

  int labels_ = 0;
  std::array<int, 3> max_abs_{};
  double max_norm_ = 0;
  uint32_t vertices_ = 0;
  uint32_t faces_ = 0;
  uint32_t end_offset_ = 0;
  uint32_t unmasks_ = 0;  // Unmask calls written (fragments and selector nodes)
  uint32_t xforms_ = 0;   // XformUnmask calls written
};

}  // namespace

std::string generated_shape_stem(uint32_t index) {
  return fmt::format("GEN{:05}", uint64_t{index} + 1);
}

std::string generate_fa_shape(uint64_t seed, uint32_t index, GeneratorProfile profile) {
  Rng rng(mix64(seed) ^ mix64(0x5348415045564D00ull + index));
  // Shapes over the CODE budget are redrawn smaller (the stream continues, so this stays
  // deterministic).
  double shrink = 1.0;
  for (int attempt = 0; attempt < 16; ++attempt, shrink *= 0.75) {
    Generator g(rng, seed, index, shrink, profile);
    std::string text = g.run();
    if (g.end_offset() <= kMaxEndObject) return text;
  }
  throw std::logic_error("generate_fa_shape: no shape fitted the CODE budget");
}

}  // namespace shapevm::fa
