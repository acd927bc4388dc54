#include "interp/apache/assembler.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/apache/archive.h"
#include "interp/apache/assumptions.h"
#include "interp/apache/geometry.h"
#include "interp/apache/opcodes.h"
#include "interp/apache/packets.h"
#include "interp/apache/palette.h"
#include "interp/apache/textures.h"

namespace shapevm::apache {
namespace {

using namespace shapevm::apache;

struct Model {
  uint32_t index = 0;
  int line = 0;
  std::string name, description;
  int32_t encoding = 0;
  int32_t lod_distance = 0, next_record = -1;
  std::optional<std::array<int32_t, 6>> bounds;
  std::optional<int32_t> radius, height;
  uint32_t properties = 0;
  int32_t target = 0, meta_a0 = 0, meta_a4 = 0, damage = 0, explosion = 0, aux = 0, radar = 0;
  uint32_t gameplay = 0;
  std::vector<std::array<int32_t, 6>> vertices;  // short: 3 values; grid: 6 bytes
  std::vector<std::array<int32_t, 3>> normals;
  std::optional<uint32_t> flat_normals;
  struct Attach {
    uint32_t id;
    std::array<int32_t, 3> t;
    std::array<int32_t, 9> r;
  };
  std::vector<Attach> attachments;
  bool bbox = false;
  std::vector<uint8_t> shadow_data, grid_lighting;
  // Program bytes, labels (program-relative) and displacement fixups.
  std::vector<uint8_t> program;
  std::map<std::string, uint32_t> labels;
  struct Fixup {
    size_t at;
    std::string label;
    int line;
  };
  std::vector<Fixup> fixups;
};

struct TextureDef {
  uint32_t slot = 0;
  uint32_t type = 2;
  std::vector<uint8_t> pixels;
};

class Assembler {
 public:
  Assembler(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  AssembledArchive run() {
    std::istringstream in{std::string(text_)};
    std::string raw;
    while (std::getline(in, raw)) {
      ++line_;
      const size_t semicolon = raw.find(';');
      std::string text = raw.substr(0, semicolon);
      tokens_ = tokenize(text);
      if (tokens_.empty()) continue;
      statement();
    }
    if (model_)
      fail("the model starting on line " + std::to_string(model_->line) + " has no 'end'");
    return emit();
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(source_, fmt::format("line {}: {}", line_, message));
  }

  std::vector<std::string> tokenize(const std::string& text) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
      if (std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
      } else if (text[i] == '"') {
        const size_t close = text.find('"', i + 1);
        if (close == std::string::npos) fail("unterminated string");
        out.push_back(text.substr(i, close - i + 1));
        i = close + 1;
      } else {
        size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        out.push_back(text.substr(i, j - i));
        i = j;
      }
    }
    return out;
  }

  int64_t number(const std::string& token, int64_t lo, int64_t hi) const {
    try {
      size_t used = 0;
      const long long v = std::stoll(token, &used, 0);
      if (used != token.size()) throw std::invalid_argument(token);
      if (v < lo || v > hi) fail(fmt::format("{} is outside {}..{}", token, lo, hi));
      return v;
    } catch (const InputError&) {
      throw;
    } catch (const std::exception&) {
      fail(fmt::format("expected a number, found \"{}\"", token));
    }
  }

  int64_t arg(size_t i, int64_t lo, int64_t hi) const {
    if (i >= tokens_.size()) fail(fmt::format("{} needs more operands", tokens_[0]));
    return number(tokens_[i], lo, hi);
  }

  void expect_count(size_t n) const {
    if (tokens_.size() != n)
      fail(fmt::format("{} takes {} operand(s), found {}", tokens_[0], n - 1, tokens_.size() - 1));
  }

  void statement() {
    const std::string& head = tokens_[0];
    if (model_ && in_program_) {
      if (head == "end") return end_model();
      return program_statement();
    }
    if (model_) return model_statement();
    if (head == "model") return begin_model();
    if (head == "color" || head == "colour") {
      expect_count(5);
      const auto i = static_cast<size_t>(arg(1, 0, 223));
      palette_[i] = {static_cast<uint8_t>(arg(2, 0, 255)), static_cast<uint8_t>(arg(3, 0, 255)),
                     static_cast<uint8_t>(arg(4, 0, 255))};
      return;
    }
    if (head == "texture") return texture_statement();
    if (head == "slots") {
      expect_count(2);
      slots_ = static_cast<uint32_t>(arg(1, 1, 100000));
      return;
    }
    if (head == "textureslots") {
      expect_count(2);
      texture_slots_ = static_cast<uint32_t>(arg(1, 1, 100000));
      return;
    }
    fail(fmt::format("unknown directive \"{}\" outside a model", head));
  }

  // texture SLOT type T checker C0 C1 CELL | stripes C0 C1 WIDTH | solid C | gradient BASE |
  // border INNER EDGE
  void texture_statement() {
    if (tokens_.size() < 5 || tokens_[2] != "type")
      fail("expected: texture SLOT type T PATTERN ...");
    TextureDef t;
    t.slot = static_cast<uint32_t>(arg(1, 0, 65535));
    t.type = static_cast<uint32_t>(arg(3, 0, 2));
    const int stride = static_cast<int>(texture_stride(t.type));
    const std::string& kind = tokens_[4];
    t.pixels.resize(assumed::kTexturePixels);
    for (int i = 0; i < static_cast<int>(assumed::kTexturePixels); ++i) {
      const int x = i % stride, y = i / stride;
      uint8_t c = 0;
      if (kind == "checker") {
        expect_count(8);
        const int cell = static_cast<int>(arg(7, 1, 64));
        c = static_cast<uint8_t>(((x / cell + y / cell) & 1) ? arg(6, 0, 255) : arg(5, 0, 255));
      } else if (kind == "stripes") {
        expect_count(8);
        const int width = static_cast<int>(arg(7, 1, 64));
        c = static_cast<uint8_t>(((x / width) & 1) ? arg(6, 0, 255) : arg(5, 0, 255));
      } else if (kind == "solid") {
        expect_count(6);
        c = static_cast<uint8_t>(arg(5, 0, 255));
      } else if (kind == "gradient") {
        expect_count(6);
        c = static_cast<uint8_t>(arg(5, 0, 224) + x * 31 / (stride - 1));
      } else if (kind == "border") {
        expect_count(7);
        const bool edge = x == 0 || y == 0 || x == stride - 1 || y == stride - 1;
        c = static_cast<uint8_t>(edge ? arg(6, 0, 255) : arg(5, 0, 255));
      } else {
        fail("unknown texture pattern \"" + kind +
             "\" (checker, stripes, solid, gradient, border)");
      }
      t.pixels[static_cast<size_t>(i)] = c;
    }
    for (const auto& other : textures_)
      if (other.slot == t.slot) fail(fmt::format("texture slot {} defined twice", t.slot));
    textures_.push_back(std::move(t));
  }

  void begin_model() {
    if (tokens_.size() < 3 || tokens_.size() > 4)
      fail("expected: model INDEX NAME [\"description\"]");
    Model m;
    m.index = static_cast<uint32_t>(arg(1, 0, 99999));
    m.line = line_;
    m.name = tokens_[2];
    if (m.name.size() > 15) fail("a model name has at most 15 characters");
    if (tokens_.size() == 4) {
      const std::string& d = tokens_[3];
      if (d.size() < 2 || d.front() != '"') fail("expected the description in double quotes");
      m.description = d.substr(1, d.size() - 2);
      if (m.description.size() > 63) fail("a description has at most 63 characters");
    }
    for (const auto& other : models_)
      if (other.index == m.index) fail(fmt::format("record {} defined twice", m.index));
    model_ = std::move(m);
  }

  void model_statement() {
    Model& m = *model_;
    const std::string& head = tokens_[0];
    if (head == "encoding") {
      expect_count(2);
      if (tokens_[1] == "short") {
        m.encoding = 0;
      } else if (tokens_[1] == "grid") {
        m.encoding = 1;
      } else {
        fail("encoding is short or grid");
      }
    } else if (head == "lod") {
      expect_count(4);
      if (tokens_[2] != "next") fail("expected: lod DISTANCE next RECORD");
      m.lod_distance = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
      m.next_record = static_cast<int32_t>(arg(3, -1, INT32_MAX));
    } else if (head == "bounds") {
      expect_count(7);
      std::array<int32_t, 6> b{};
      for (size_t i = 0; i < 6; ++i) b[i] = static_cast<int32_t>(arg(i + 1, INT32_MIN, INT32_MAX));
      m.bounds = b;
    } else if (head == "radius") {
      expect_count(2);
      m.radius = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "height") {
      expect_count(2);
      m.height = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "properties") {
      expect_count(2);
      m.properties = static_cast<uint32_t>(arg(1, 0, UINT32_MAX));
    } else if (head == "target") {
      expect_count(2);
      m.target = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "meta") {
      expect_count(3);
      m.meta_a0 = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
      m.meta_a4 = static_cast<int32_t>(arg(2, INT32_MIN, INT32_MAX));
    } else if (head == "damage") {
      expect_count(2);
      m.damage = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "explosion") {
      expect_count(2);
      m.explosion = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "aux") {
      expect_count(2);
      m.aux = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "radar") {
      expect_count(2);
      m.radar = static_cast<int32_t>(arg(1, INT32_MIN, INT32_MAX));
    } else if (head == "gameplay") {
      expect_count(2);
      m.gameplay = static_cast<uint32_t>(arg(1, 0, UINT32_MAX));
    } else if (head == "vertex" || head == "v") {
      std::array<int32_t, 6> v{};
      if (m.encoding == 0) {
        expect_count(4);
        for (size_t i = 0; i < 3; ++i) v[i] = static_cast<int32_t>(arg(i + 1, -32768, 32767));
      } else {
        expect_count(7);
        for (size_t i = 0; i < 6; ++i) v[i] = static_cast<int32_t>(arg(i + 1, 0, 255));
      }
      if (m.vertices.size() >= 65535) fail("at most 65535 vertices");
      m.vertices.push_back(v);
    } else if (head == "normal" || head == "n") {
      expect_count(4);
      m.normals.push_back({static_cast<int32_t>(arg(1, -128, 127)),
                           static_cast<int32_t>(arg(2, -128, 127)),
                           static_cast<int32_t>(arg(3, -128, 127))});
    } else if (head == "flatnormals") {
      expect_count(2);
      m.flat_normals = static_cast<uint32_t>(arg(1, 0, 65535));
    } else if (head == "attach") {
      if (tokens_.size() != 5 && tokens_.size() != 14)
        fail("expected: attach ID TX TY TZ [nine Q31 rotation coefficients]");
      Model::Attach a{};
      a.id = static_cast<uint32_t>(arg(1, 0, UINT32_MAX));
      for (size_t i = 0; i < 3; ++i)
        a.t[i] = static_cast<int32_t>(arg(i + 2, INT32_MIN, INT32_MAX));
      a.r = {INT32_MAX, 0, 0, 0, INT32_MAX, 0, 0, 0, INT32_MAX};
      if (tokens_.size() == 14)
        for (size_t i = 0; i < 9; ++i)
          a.r[i] = static_cast<int32_t>(arg(i + 5, INT32_MIN, INT32_MAX));
      m.attachments.push_back(a);
    } else if (head == "bbox") {
      expect_count(1);
      m.bbox = true;
    } else if (head == "shadowdata" || head == "gridlight") {
      auto& out = head == "shadowdata" ? m.shadow_data : m.grid_lighting;
      for (size_t i = 1; i < tokens_.size(); ++i)
        out.push_back(static_cast<uint8_t>(arg(i, 0, 255)));
    } else if (head == "program") {
      expect_count(1);
      in_program_ = true;
    } else if (head == "end") {
      fail("a model needs a 'program' section before 'end'");
    } else {
      fail(fmt::format("unknown model directive \"{}\"", head));
    }
  }

  // ---- Program -----------------------------------------------------------------------------

  // key=value operands and positional ones.
  struct Operands {
    std::vector<std::string> positional;
    std::map<std::string, std::string> keyed;
  };
  Operands split(size_t from, size_t to) const {
    Operands o;
    for (size_t i = from; i < to; ++i) {
      const size_t eq = tokens_[i].find('=');
      if (eq == std::string::npos) {
        o.positional.push_back(tokens_[i]);
      } else {
        o.keyed[tokens_[i].substr(0, eq)] = tokens_[i].substr(eq + 1);
      }
    }
    return o;
  }

  std::string take(Operands& o, const std::string& key) const {
    auto it = o.keyed.find(key);
    if (it == o.keyed.end()) fail(fmt::format("{} needs {}=", tokens_[0], key));
    std::string v = it->second;
    o.keyed.erase(it);
    return v;
  }

  void displacement(const std::string& label) {
    Model& m = *model_;
    m.fixups.push_back({m.program.size(), label, line_});
    append_u16(m.program, 0);
  }

  void packet(Operands& o, bool secondary) {
    Model& m = *model_;
    if (o.positional.empty()) fail("expected a primitive type name");
    const PacketType* type = packet_type_by_name(o.positional[0]);
    if (type == nullptr) fail(fmt::format("unknown primitive type \"{}\"", o.positional[0]));
    std::vector<uint8_t> p;
    p.push_back(type->type);
    p.push_back(0);  // count, patched below
    auto byte_key = [&](const char* key) {
      return static_cast<uint8_t>(number(take(o, key), 0, 255));
    };
    switch (type->material) {
      case Material::kColour:
      case Material::kMesh:
        p.push_back(byte_key("colour"));
        break;
      case Material::kTwoColour:
        p.push_back(byte_key("colour"));
        p.push_back(byte_key("colour2"));
        break;
      case Material::kTexture:
        append_u16(p, static_cast<uint32_t>(number(take(o, "texture"), 0, 65535)));
        p.push_back(byte_key("colour"));
        break;
      case Material::kRemap:
        break;
    }
    if (type->shading != Shading::kNone) p.push_back(byte_key("normal"));
    // face2 length=N writes the length byte as given (another reading, or a deliberate mismatch).
    std::optional<uint8_t> length;
    if (secondary && o.keyed.contains("length")) length = byte_key("length");
    if (!o.keyed.empty()) fail(fmt::format("unexpected operand {}=", o.keyed.begin()->first));
    if (p.size() != type->header_bytes) fail("internal: header size disagrees with the table");
    size_t count = 0;
    for (size_t i = 1; i < o.positional.size(); ++i) {
      // i, i/u/v, i/nN, i/u/v/nN
      std::vector<std::string> parts;
      std::stringstream ss(o.positional[i]);
      std::string part;
      while (std::getline(ss, part, '/')) parts.push_back(part);
      const bool textured = type->material == Material::kTexture;
      const bool gouraud = type->shading == Shading::kGouraud;
      const size_t want = 1 + (textured ? 2 : 0) + (gouraud ? 1 : 0);
      if (parts.size() != want) {
        fail(fmt::format("a {} vertex is written {}", type->name,
                         textured ? (gouraud ? "INDEX/U/V/nNORMAL" : "INDEX/U/V")
                                  : (gouraud ? "INDEX/nNORMAL" : "INDEX")));
      }
      p.push_back(static_cast<uint8_t>(number(parts[0], 0, 255)));
      if (textured) {
        p.push_back(static_cast<uint8_t>(number(parts[1], 0, 255)));
        p.push_back(static_cast<uint8_t>(number(parts[2], 0, 255)));
      }
      if (gouraud) {
        const std::string& n = parts.back();
        if (n.empty() || n[0] != 'n') fail("a Gouraud vertex's normal is written nNORMAL");
        p.push_back(static_cast<uint8_t>(number(n.substr(1), 0, 255)));
      }
      ++count;
    }
    if (count > 255) fail("at most 255 vertices per packet");
    p[1] = static_cast<uint8_t>(count);
    if (secondary) {
      // The seed's reading: the byte gives the complete packet length, itself included (AP-21).
      const uint32_t whole =
          expected_secondary_length(static_cast<uint32_t>(p.size()), kSeedSecondaryLength);
      if (!length && whole > 255)
        fail("a secondary packet is at most 255 bytes, its length byte included");
      m.program.push_back(length ? *length : static_cast<uint8_t>(whole));
    }
    m.program.insert(m.program.end(), p.begin(), p.end());
  }

  void program_statement() {
    Model& m = *model_;
    const std::string& head = tokens_[0];
    if (head.back() == ':' && tokens_.size() == 1) {
      const std::string label = head.substr(0, head.size() - 1);
      if (!m.labels.emplace(label, static_cast<uint32_t>(m.program.size())).second)
        fail("label " + label + " defined twice");
      return;
    }
    if (head == "bytes") {
      for (size_t i = 1; i < tokens_.size(); ++i)
        m.program.push_back(static_cast<uint8_t>(arg(i, 0, 255)));
      return;
    }
    const OpcodeInfo* info = opcode_by_name(head);
    if (info == nullptr) fail(fmt::format("unknown instruction \"{}\"", head));
    m.program.push_back(info->op);
    // Packets: everything up to ':' is the header, after it the vertices.
    auto colon = std::find(tokens_.begin(), tokens_.end(), ":");
    Operands o;
    if (info->op <= 1) {
      o = split(1, static_cast<size_t>(colon - tokens_.begin()));
      if (colon == tokens_.end()) fail("expected ':' before the packet's vertices");
      Operands verts = split(static_cast<size_t>(colon - tokens_.begin()) + 1, tokens_.size());
      o.positional.insert(o.positional.end(), verts.positional.begin(), verts.positional.end());
    } else {
      o = split(1, tokens_.size());
    }
    size_t next_positional = 0;
    auto positional = [&]() -> std::string {
      if (next_positional >= o.positional.size()) fail(fmt::format("{} needs more operands", head));
      return o.positional[next_positional++];
    };
    for (uint8_t k = 0; k < info->operand_count; ++k) {
      const Operand& operand = info->operands[k];
      switch (operand.kind) {
        case OperandKind::kPacket:
        case OperandKind::kSecondaryPacket:
          packet(o, operand.kind == OperandKind::kSecondaryPacket);
          next_positional = o.positional.size();
          break;
        case OperandKind::kPolygon: {
          std::vector<uint8_t> indices;
          while (next_positional < o.positional.size())
            indices.push_back(static_cast<uint8_t>(number(positional(), 0, 255)));
          if (indices.size() < 3) fail("a decision polygon has at least 3 vertices");
          m.program.push_back(static_cast<uint8_t>(indices.size()));
          m.program.insert(m.program.end(), indices.begin(), indices.end());
          break;
        }
        case OperandKind::kMask32: {
          const std::string v = o.keyed.contains("mask") ? take(o, "mask") : positional();
          append_u32(m.program, static_cast<uint32_t>(number(v, 0, UINT32_MAX)));
          break;
        }
        case OperandKind::kShift8:
          m.program.push_back(static_cast<uint8_t>(number(take(o, "shift"), 0, 31)));
          break;
        case OperandKind::kCases: {
          const std::string list = take(o, "cases");
          std::vector<std::string> labels;
          if (list != "-") {
            std::stringstream ss(list);
            std::string l;
            while (std::getline(ss, l, ',')) labels.push_back(l);
          }
          if (labels.size() > 255) fail("at most 255 cases");
          m.program.push_back(static_cast<uint8_t>(labels.size()));
          for (const auto& l : labels) displacement(l);
          break;
        }
        case OperandKind::kDisplacement:
          displacement(take(o, operand.role));
          break;
        case OperandKind::kSlot8:
          m.program.push_back(static_cast<uint8_t>(number(positional(), 0, 255)));
          break;
      }
    }
    if (next_positional < o.positional.size())
      fail(fmt::format("unexpected operand \"{}\"", o.positional[next_positional]));
    if (!o.keyed.empty()) fail(fmt::format("unexpected operand {}=", o.keyed.begin()->first));
  }

  void end_model() {
    Model& m = *model_;
    for (const auto& f : m.fixups) {
      auto it = m.labels.find(f.label);
      if (it == m.labels.end()) {
        throw InputError(source_, fmt::format("line {}: undefined label {}", f.line, f.label));
      }
      const int64_t d = int64_t{it->second} - int64_t(f.at + 2);
      if (d < INT16_MIN || d > INT16_MAX) {
        throw InputError(source_,
                         fmt::format("line {}: label {} is out of 16-bit reach", f.line, f.label));
      }
      put_u16(m.program, f.at, static_cast<uint16_t>(d));
    }
    if (m.flat_normals && *m.flat_normals > m.normals.size())
      fail("flatnormals exceeds the normal count");
    models_.push_back(std::move(m));
    model_.reset();
    in_program_ = false;
  }

  // ---- Output ------------------------------------------------------------------------------

  static Vec3 local_of(const Model& m, const std::array<int32_t, 6>& v) {
    if (m.encoding == 0) {
      return decode_short_vertex(
          {static_cast<int16_t>(v[0]), static_cast<int16_t>(v[1]), static_cast<int16_t>(v[2])});
    }
    std::array<uint8_t, 6> g{};
    for (size_t i = 0; i < 6; ++i) g[i] = static_cast<uint8_t>(v[i]);
    return decode_grid_vertex(g);
  }

  void put_vertex(std::vector<uint8_t>& out, const Model& m, const std::array<int32_t, 6>& v) {
    if (m.encoding == 0) {
      for (size_t i = 0; i < 3; ++i) append_u16(out, static_cast<uint16_t>(v[i]));
    } else {
      for (size_t i = 0; i < 6; ++i) out.push_back(static_cast<uint8_t>(v[i]));
    }
  }

  std::vector<uint8_t> model_bytes(const Model& m, uint32_t address,
                                   std::map<std::string, uint32_t>& labels) {
    std::vector<uint8_t> out(kHeaderSize, 0);
    std::array<uint32_t, kSectionCount> sections{};
    auto section = [&](int s) {
      sections[static_cast<size_t>(s)] = static_cast<uint32_t>(out.size());
    };
    // Vertex list.
    section(kVertices);
    append_u16(out, static_cast<uint32_t>(m.vertices.size()));
    for (const auto& v : m.vertices) put_vertex(out, m, v);
    // Bounds from the decoded vertices unless authored.
    std::array<int32_t, 6> b{};
    int64_t radius = 0;
    if (!m.vertices.empty()) {
      b = {INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN};
      for (const auto& v : m.vertices) {
        const Vec3 l = local_of(m, v);
        for (size_t axis = 0; axis < 3; ++axis) {
          b[axis * 2] = std::min(b[axis * 2], l[axis]);
          b[axis * 2 + 1] = std::max(b[axis * 2 + 1], l[axis]);
        }
        radius = std::max<int64_t>(
            radius,
            static_cast<int64_t>(std::ceil(std::sqrt(double(l[0]) * l[0] + double(l[2]) * l[2]))));
      }
    }
    if (m.bounds) b = *m.bounds;
    if (m.bbox) {
      // The eight corners in the model's encoding: the stored components of the extreme vertices.
      section(kBoundingBox);
      std::array<std::array<int32_t, 6>, 6> extreme{};  // min x, max x, min y, ...
      std::array<int32_t, 6> best{INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN};
      for (const auto& v : m.vertices) {
        const Vec3 l = local_of(m, v);
        for (size_t axis = 0; axis < 3; ++axis) {
          if (l[axis] < best[axis * 2]) best[axis * 2] = l[axis], extreme[axis * 2] = v;
          if (l[axis] > best[axis * 2 + 1]) best[axis * 2 + 1] = l[axis], extreme[axis * 2 + 1] = v;
        }
      }
      for (int corner = 0; corner < 8; ++corner) {
        std::array<int32_t, 6> v{};
        for (size_t axis = 0; axis < 3; ++axis) {
          const auto& src = extreme[axis * 2 + ((corner >> axis) & 1)];
          v[axis] = src[axis];
          v[axis + 3] = src[axis + 3];
        }
        put_vertex(out, m, v);
      }
    }
    if (!m.normals.empty()) {
      section(kNormals);
      append_u16(out, static_cast<uint32_t>(m.normals.size()));
      append_u16(out, m.flat_normals.value_or(static_cast<uint32_t>(m.normals.size())));
      for (const auto& n : m.normals)
        for (int32_t c : n) out.push_back(static_cast<uint8_t>(static_cast<int8_t>(c)));
    }
    if (!m.attachments.empty()) {
      section(kAttached);
      append_u32(out, static_cast<uint32_t>(m.attachments.size()));
      for (const auto& a : m.attachments) {
        append_u32(out, a.id);
        for (int32_t t : a.t) append_u32(out, static_cast<uint32_t>(t));
        for (int32_t r : a.r) append_u32(out, static_cast<uint32_t>(r));
      }
    }
    if (!m.shadow_data.empty()) {
      section(kShadow);
      out.insert(out.end(), m.shadow_data.begin(), m.shadow_data.end());
    }
    if (!m.grid_lighting.empty()) {
      section(kGridLighting);
      out.insert(out.end(), m.grid_lighting.begin(), m.grid_lighting.end());
    }
    section(kProgram);
    const uint32_t program_at = static_cast<uint32_t>(out.size());
    out.insert(out.end(), m.program.begin(), m.program.end());
    for (const auto& [label, at] : m.labels)
      labels[fmt::format("{}:{}", m.index, label)] = address + program_at + at;

    put_u32(out, 0x00, static_cast<uint32_t>(m.encoding));
    put_u32(out, 0x04, static_cast<uint32_t>(m.lod_distance));
    put_u32(out, 0x08, static_cast<uint32_t>(m.next_record));
    for (size_t i = 0; i < 6; ++i) put_u32(out, 0x0c + 4 * i, static_cast<uint32_t>(b[i]));
    put_u32(out, 0x24, static_cast<uint32_t>(m.radius.value_or(static_cast<int32_t>(radius))));
    // Top minus bottom in 32 bits, wrapping as the field does: a box spanning the whole int32
    // range (a test of the camera's bounds) must not overflow an int.
    put_u32(out, 0x28,
            m.height ? static_cast<uint32_t>(*m.height)
                     : static_cast<uint32_t>(b[3]) - static_cast<uint32_t>(b[2]));
    for (int s = 0; s < kSectionCount; ++s)
      put_u32(out, 0x2c + 4 * static_cast<size_t>(s), sections[static_cast<size_t>(s)]);
    std::copy(m.name.begin(), m.name.end(), out.begin() + 0x48);
    std::copy(m.description.begin(), m.description.end(), out.begin() + 0x58);
    put_u32(out, 0x98, m.properties);
    put_u32(out, 0x9c, static_cast<uint32_t>(m.target));
    put_u32(out, 0xa0, static_cast<uint32_t>(m.meta_a0));
    put_u32(out, 0xa4, static_cast<uint32_t>(m.meta_a4));
    put_u32(out, 0xa8, static_cast<uint32_t>(m.damage));
    put_u32(out, 0xac, static_cast<uint32_t>(m.explosion));
    put_u32(out, 0xb0, static_cast<uint32_t>(m.aux));
    put_u32(out, 0xb4, static_cast<uint32_t>(m.radar));
    put_u32(out, 0xb8, m.gameplay);
    return out;
  }

  AssembledArchive emit() {
    AssembledArchive out;
    if (models_.empty()) throw InputError(source_, "no model defined");
    uint32_t count = slots_;
    for (const auto& m : models_) count = std::max(count, m.index + 1);
    append_u32(out.archive, count);
    out.archive.resize(4 + 4 * size_t{count}, 0);
    std::sort(models_.begin(), models_.end(),
              [](const Model& a, const Model& b) { return a.index < b.index; });
    for (const auto& m : models_) {
      const auto address = static_cast<uint32_t>(out.archive.size());
      put_u32(out.archive, 4 + 4 * size_t{m.index}, address);
      auto bytes = model_bytes(m, address, out.labels);
      out.archive.insert(out.archive.end(), bytes.begin(), bytes.end());
    }
    for (const auto& m : models_) {
      if (m.next_record >= static_cast<int32_t>(count))
        throw InputError(
            source_, fmt::format("line {}: next record {} is beyond the archive's {} slots", m.line,
                                 m.next_record, count));
    }
    if (!textures_.empty()) {
      uint32_t slots = texture_slots_;
      for (const auto& t : textures_) slots = std::max(slots, t.slot + 1);
      append_u32(out.textures, slots);
      out.textures.resize(4 + 4 * size_t{slots}, 0);
      std::sort(textures_.begin(), textures_.end(),
                [](const TextureDef& a, const TextureDef& b) { return a.slot < b.slot; });
      for (const auto& t : textures_) {
        const auto address = static_cast<uint32_t>(out.textures.size());
        put_u32(out.textures, 4 + 4 * size_t{t.slot}, address);
        append_u32(out.textures, t.type);
        append_u32(out.textures, 0);
        append_u32(out.textures, 0);  // the loader points this word at the pixels
        out.textures.insert(out.textures.end(), t.pixels.begin(), t.pixels.end());
      }
    }
    out.palette = encode_3dpal(palette_);
    return out;
  }

  std::string_view text_;
  std::string source_;
  int line_ = 0;
  std::vector<std::string> tokens_;
  std::optional<Model> model_;
  bool in_program_ = false;
  std::vector<Model> models_;
  std::vector<TextureDef> textures_;
  uint32_t slots_ = 0;
  uint32_t texture_slots_ = 0;
  std::array<raster::Rgb, 224> palette_ = default_3dpal();
};

}  // namespace

AssembledArchive assemble_apache(std::string_view text, const std::string& source) {
  return Assembler(text, source).run();
}

}  // namespace shapevm::apache
