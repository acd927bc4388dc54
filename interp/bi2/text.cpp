#include "interp/bi2/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/input_error.h"
#include "core/text_statements.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {
namespace {

// --- Writing ---------------------------------------------------------------------------------

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) out += fmt::format("{}{:02x}", i ? " " : "", bytes[i]);
  return out;
}

template <size_t N>
bool any_set(const std::array<uint8_t, N>& a) {
  return std::any_of(a.begin(), a.end(), [](uint8_t b) { return b != 0; });
}

void hex_lines(std::string& out, const char* word, std::span<const uint8_t> bytes) {
  constexpr size_t kPerLine = 32;
  for (size_t at = 0; at < bytes.size(); at += kPerLine)
    out += fmt::format("  {} {}\n", word,
                       hex_bytes(bytes.subspan(at, std::min(kPerLine, bytes.size() - at))));
}

std::string id_text(uint16_t id) {
  return id >= 0xFFF0 ? fmt::format("0x{:04x}", id) : fmt::to_string(id);
}

bool plain_name(const std::string& name, const std::string& raw) {
  if (name.empty() || name[0] == '#' || name[0] == ';') return false;
  for (char c : name)
    if (c == ' ' || c == '\t') return false;
  std::string padded = name;
  padded.resize(kLibNameBytes, '\0');
  return padded == raw;
}

// A LIB member's text: its bytes as a mesh or layer when they read as one (packed with literal
// TPWM when that reproduces the stored bytes), else as data.
std::string member_text(const LibArchive& lib, const LibMember& m) {
  std::string head = "member ";
  head += plain_name(m.name, m.raw_name)
              ? m.name
              : "- raw " + hex_bytes({reinterpret_cast<const uint8_t*>(m.raw_name.data()),
                                      m.raw_name.size()});
  const auto stored = lib.stored(m);
  std::vector<uint8_t> body(stored.begin(), stored.end());
  bool packed = false;
  if (is_tpwm(stored)) {
    try {
      std::vector<uint8_t> unpacked = tpwm_unpack(stored, lib.member_source(m));
      if (tpwm_pack_literal(unpacked) == body) {
        body = std::move(unpacked);
        packed = true;
      }
    } catch (const InputError&) {
    }
  }
  if (packed) head += " tpwm";
  head += "\n";
  try {
    if (is_mesh(body)) {
      const Mesh mesh = read_mesh(body, lib.member_source(m));
      if (write_mesh(mesh) == body) return head + mesh_text(mesh);
    } else if (is_layer(body)) {
      const Layer layer = read_layer(body, lib.member_source(m));
      if (write_layer(layer) == body) return head + layer_text(layer);
    }
  } catch (const InputError&) {
    // A member that does not read as what its tag says is kept as data, byte for byte.
  }
  if (packed) {  // the data form of a packed member is its stored bytes
    head.erase(head.size() - 6);
    head += "\n";
    body.assign(stored.begin(), stored.end());
  }
  std::string out = head + "data\n";
  hex_lines(out, "hex", body);
  return out + "end\n";
}

// --- Reading ---------------------------------------------------------------------------------

struct Line {
  size_t number = 0;
  std::vector<std::string> words;
};

class Parser {
 public:
  Parser(std::string_view text, std::string source) : source_(std::move(source)) {
    size_t start = 0, number = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      ++number;
      std::string_view line = text.substr(start, end - start);
      line = line.substr(0, line.find(';'));
      std::istringstream in{std::string(line)};
      Line l{number, {}};
      std::string w;
      while (in >> w) l.words.push_back(w);
      if (!l.words.empty()) lines_.push_back(std::move(l));
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  bool done() const { return at_ >= lines_.size(); }
  const Line& next() {
    if (done()) fail_end("more text (the file ends here)");
    return lines_[at_++];
  }
  [[noreturn]] void fail(const Line& l, const std::string& expected) const {
    throw InputError(source_, fmt::format("line {}: expected {}", l.number, expected));
  }
  [[noreturn]] void fail_end(const std::string& expected) const {
    throw InputError(source_, fmt::format("end of text: expected {}", expected));
  }
  int64_t number(const Line& l, size_t i, int64_t lo, int64_t hi, const char* what) const {
    if (i >= l.words.size()) fail(l, fmt::format("{} after \"{}\"", what, l.words[i - 1]));
    const std::string& w = l.words[i];
    int64_t value = 0;
    try {
      size_t used = 0;
      const bool neg = !w.empty() && w[0] == '-';
      const std::string digits = neg ? w.substr(1) : w;
      const bool hex =
          digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
      if (digits.empty() || digits[0] == '+' || digits[0] == '-') throw std::invalid_argument(w);
      const long long v = std::stoll(hex ? digits.substr(2) : digits, &used, hex ? 16 : 10);
      if (used != (hex ? digits.size() - 2 : digits.size())) throw std::invalid_argument(w);
      value = neg ? -v : v;
    } catch (const std::exception&) {
      fail(l, fmt::format("{} as an integer, not \"{}\"", what, w));
    }
    if (value < lo || value > hi) fail(l, fmt::format("{} in {}..{}, not {}", what, lo, hi, value));
    return value;
  }
  Vec3i16 vec(const Line& l, size_t i, const char* what) const {
    return {static_cast<int16_t>(number(l, i, -32768, 32767, what)),
            static_cast<int16_t>(number(l, i + 1, -32768, 32767, what)),
            static_cast<int16_t>(number(l, i + 2, -32768, 32767, what))};
  }
  // A byte as two hex digits ("0a", "ff"), as the text form prints them.
  uint8_t byte(const Line& l, size_t i) const {
    if (i >= l.words.size()) fail(l, fmt::format("a hex byte after \"{}\"", l.words[i - 1]));
    const std::string& w = l.words[i];
    const auto digit = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (w.size() != 2 || !digit(w[0]) || !digit(w[1]))
      fail(l, fmt::format("a byte as two hex digits, not \"{}\"", w));
    return static_cast<uint8_t>(std::stoul(w, nullptr, 16));
  }
  std::vector<uint8_t> hex(const Line& l, size_t from) const {
    std::vector<uint8_t> out;
    for (size_t i = from; i < l.words.size(); ++i) out.push_back(byte(l, i));
    return out;
  }
  template <size_t N>
  std::array<uint8_t, N> fixed_hex(const Line& l, size_t from, const char* what) const {
    const auto bytes = hex(l, from);
    if (bytes.size() != N) fail(l, fmt::format("{} bytes for {}", N, what));
    std::array<uint8_t, N> out{};
    std::copy(bytes.begin(), bytes.end(), out.begin());
    return out;
  }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::vector<Line> lines_;
  size_t at_ = 0;
};

Mesh parse_mesh(Parser& p) {
  Mesh m;
  m.source = p.source();
  std::vector<bool> has_normal;
  std::vector<size_t> polygon_lines;
  for (;;) {
    const Line& l = p.next();
    const std::string& w = l.words[0];
    if (w == "end") break;
    if (w == "vertex") {
      if (l.words.size() != 4) p.fail(l, "vertex X Y Z");
      m.vertices.push_back(p.vec(l, 1, "a coordinate"));
    } else if (w == "polygon") {
      Polygon poly;
      bool normal = false, corners = false;
      for (size_t i = 1; i < l.words.size();) {
        const std::string& key = l.words[i];
        if (key == "shade") {
          poly.shade = static_cast<uint16_t>(p.number(l, i + 1, 0, 0xFFFF, "a shade")), i += 2;
        } else if (key == "bias") {
          poly.bias = static_cast<int16_t>(p.number(l, i + 1, -32768, 32767, "a bias")), i += 2;
        } else if (key == "normal") {
          poly.normal = p.vec(l, i + 1, "a normal component"), i += 4, normal = true;
        } else if (key == "u10" || key == "u12" || key == "u18" || key == "r16") {
          const auto v = static_cast<uint16_t>(p.number(l, i + 1, 0, 0xFFFF, "a word"));
          (key == "u10"   ? poly.unknown_10
           : key == "u12" ? poly.unknown_12
           : key == "u18" ? poly.unknown_18
                          : poly.reserved_16) = v;
          i += 2;
        } else if (key == "r04") {
          if (i + 9 > l.words.size()) p.fail(l, "8 bytes after r04");
          for (size_t k = 0; k < 8; ++k) poly.reserved_04[k] = p.byte(l, i + 1 + k);
          i += 9;
        } else if (key == "vertices") {
          for (size_t k = i + 1; k < l.words.size(); ++k)
            poly.vertices.push_back(
                static_cast<uint32_t>(p.number(l, k, 0, 0xFFFF, "a vertex index")));
          i = l.words.size();
          corners = true;
        } else {
          p.fail(l, fmt::format("shade, bias, normal, u10, u12, u18, r16, r04 or vertices, not "
                                "\"{}\"",
                                key));
        }
      }
      if (!corners || poly.vertices.empty()) p.fail(l, "\"vertices I J ...\" last on a polygon");
      m.polygons.push_back(std::move(poly));
      has_normal.push_back(normal);
      polygon_lines.push_back(l.number);
    } else if (w == "part") {
      Part part;
      bool polygons = false, corners = false;
      for (size_t i = 1; i < l.words.size();) {
        const std::string& key = l.words[i];
        if (key == "polygons") {
          part.first_polygon =
              static_cast<uint32_t>(p.number(l, i + 1, 0, 0xFFFF, "a polygon index"));
          part.polygon_count =
              static_cast<uint32_t>(p.number(l, i + 2, 1, 0x10000, "a polygon count"));
          i += 3, polygons = true;
        } else if (key == "pivot") {
          part.pivot = p.vec(l, i + 1, "a pivot coordinate"), i += 4;
        } else if (key == "translation") {
          part.translation = p.vec(l, i + 1, "a translation"), i += 4;
        } else if (key == "angles") {
          part.angles = p.vec(l, i + 1, "an angle"), i += 4;
        } else if (key == "r1a") {
          if (i + 7 > l.words.size()) p.fail(l, "6 bytes after r1a");
          for (size_t k = 0; k < 6; ++k) part.reserved_1a[k] = p.byte(l, i + 1 + k);
          i += 7;
        } else if (key == "vertices") {
          for (size_t k = i + 1; k < l.words.size(); ++k)
            part.vertices.push_back(
                static_cast<uint16_t>(p.number(l, k, 0, 0xFFFF, "a vertex index")));
          i = l.words.size(), corners = true;
        } else {
          p.fail(l, fmt::format("polygons, pivot, translation, angles, r1a or vertices, not \"{}\"",
                                key));
        }
      }
      if (!polygons) p.fail(l, "\"polygons FIRST COUNT\" on a part");
      if (!corners || part.vertices.empty()) p.fail(l, "\"vertices I J ...\" last on a part");
      m.parts.push_back(std::move(part));
    } else if (w == "reserved_0c") {
      if (l.words.size() != 6) p.fail(l, "reserved_0c and five words");
      for (size_t k = 0; k < 5; ++k)
        m.reserved_0c[k] = static_cast<uint16_t>(p.number(l, 1 + k, 0, 0xFFFF, "a word"));
    } else if (w == "reserved_lead") {
      m.reserved_lead = p.fixed_hex<38>(l, 1, "reserved_lead");
    } else if (w == "slots") {
      const auto bytes = p.hex(l, 1);
      m.slots.insert(m.slots.end(), bytes.begin(), bytes.end());
    } else {
      p.fail(l, fmt::format("vertex, polygon, part, reserved_0c, reserved_lead, slots or end, not "
                            "\"{}\"",
                            w));
    }
  }
  for (size_t f = 0; f < m.polygons.size(); ++f) {
    for (uint32_t v : m.polygons[f].vertices)
      if (v >= m.vertices.size())
        throw InputError(p.source(),
                         fmt::format("line {}: expected vertex indices below {}, not {}",
                                     polygon_lines[f], m.vertices.size(), v));
    if (!has_normal[f]) m.polygons[f].normal = computed_normal(m.vertices, m.polygons[f].vertices);
  }
  if (!m.slots.empty() && m.slots.size() != m.vertices.size() * kSlotBytes)
    throw InputError(p.source(), fmt::format("slots: {} bytes, expected 10 x {} vertices",
                                             m.slots.size(), m.vertices.size()));
  return m;
}

Layer parse_layer(Parser& p) {
  Layer layer;
  layer.source = p.source();
  layer.object_ids.fill(0xFFFF);
  for (;;) {
    const Line& l = p.next();
    const std::string& w = l.words[0];
    if (w == "end") break;
    if (w == "objects") {
      if (l.words.size() != 7) p.fail(l, "objects and six ids (0xffff: unused)");
      for (size_t k = 0; k < kLayerSlots; ++k)
        layer.object_ids[k] = static_cast<uint16_t>(p.number(l, 1 + k, 0, 0xFFFF, "an object id"));
    } else if (w == "padding") {
      layer.padding = p.fixed_hex<16>(l, 1, "padding");
    } else if (w == "place") {
      Placement pl;
      pl.slot = static_cast<uint16_t>(p.number(l, 1, 0, kLayerSlots - 1, "a slot 0..5"));
      pl.x = static_cast<int16_t>(p.number(l, 2, -32768, 32767, "x"));
      pl.z = static_cast<int16_t>(p.number(l, 3, -32768, 32767, "z"));
      for (size_t i = 4; i < l.words.size();) {
        if (l.words[i] == "unknown") {
          pl.unknown_02 = static_cast<uint16_t>(p.number(l, i + 1, 0, 0xFFFF, "a word")), i += 2;
        } else if (l.words[i] == "reserved" && i + 9 <= l.words.size()) {
          for (size_t k = 0; k < 8; ++k) pl.reserved_08[k] = p.byte(l, i + 1 + k);
          i += 9;
        } else {
          p.fail(l, "\"unknown N\" or \"reserved\" and 8 bytes after place SLOT X Z");
        }
      }
      layer.placements.push_back(pl);
    } else if (w == "trailing") {
      const auto bytes = p.hex(l, 1);
      layer.trailing.insert(layer.trailing.end(), bytes.begin(), bytes.end());
    } else {
      p.fail(l, fmt::format("objects, padding, place, trailing or end, not \"{}\"", w));
    }
  }
  return layer;
}

std::vector<uint8_t> parse_data(Parser& p) {
  std::vector<uint8_t> out;
  for (;;) {
    const Line& l = p.next();
    if (l.words[0] == "end") return out;
    if (l.words[0] != "hex") p.fail(l, fmt::format("hex BYTES or end, not \"{}\"", l.words[0]));
    const auto bytes = p.hex(l, 1);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
}

bool packed_flag(Parser& p, const Line& l, size_t from) {
  if (l.words.size() == from) return false;
  if (l.words.size() == from + 1 && l.words[from] == "tpwm") return true;
  p.fail(l, fmt::format("\"{}\" or \"{} tpwm\"", l.words[0], l.words[0]));
}

std::vector<uint8_t> parse_body(Parser& p, const Line& head) {
  const std::string& w = head.words[0];
  if (w == "3dob") return write_mesh(parse_mesh(p));
  if (w == "3dld") return write_layer(parse_layer(p));
  if (w == "data") return parse_data(p);
  p.fail(head, fmt::format("3dob, 3dld or data, not \"{}\"", w));
}

}  // namespace

bool looks_like_bi2_text(std::string_view text) {
  const std::string_view head = first_statement_word(text);
  return head == "3dob" || head == "3dld" || head == "lib";
}

Vec3i16 computed_normal(const std::vector<Vec3i16>& v, const std::vector<uint32_t>& c) {
  if (c.size() < 3) return {0, 0, 0};
  const auto& a = v[c[0]];
  const auto& b = v[c[1]];
  const auto& d = v[c[2]];
  const int64_t ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  const int64_t wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  const int64_t n[3] = {uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx};
  const __int128 len2 = static_cast<__int128>(n[0]) * n[0] + static_cast<__int128>(n[1]) * n[1] +
                        static_cast<__int128>(n[2]) * n[2];
  if (len2 == 0) return {0, 0, 0};
  // Integer square root of len2 (fits 64 bits: each component < 2^34).
  uint64_t lo = 0, hi = uint64_t{1} << 40;
  while (lo < hi) {
    const uint64_t mid = (lo + hi + 1) / 2;
    if (static_cast<__int128>(mid) * mid <= len2)
      lo = mid;
    else
      hi = mid - 1;
  }
  const auto len = static_cast<int64_t>(lo);
  Vec3i16 out{};
  for (size_t k = 0; k < 3; ++k) {
    const int64_t scaled = n[k] * kUnitNormal;
    out[k] =
        static_cast<int16_t>(scaled >= 0 ? (scaled + len / 2) / len : -((-scaled + len / 2) / len));
  }
  return out;
}

std::string mesh_text(const Mesh& m) {
  std::string out = "3dob\n";
  if (std::any_of(m.reserved_0c.begin(), m.reserved_0c.end(), [](uint16_t w) { return w != 0; }))
    out += fmt::format("  reserved_0c {} {} {} {} {}\n", m.reserved_0c[0], m.reserved_0c[1],
                       m.reserved_0c[2], m.reserved_0c[3], m.reserved_0c[4]);
  if (any_set(m.reserved_lead)) out += "  reserved_lead " + hex_bytes(m.reserved_lead) + "\n";
  for (size_t i = 0; i < m.vertices.size(); ++i)
    out += fmt::format("  vertex {} {} {}  ; {}\n", m.vertices[i][0], m.vertices[i][1],
                       m.vertices[i][2], i);
  for (size_t f = 0; f < m.polygons.size(); ++f) {
    const Polygon& p = m.polygons[f];
    out += fmt::format("  polygon shade {} bias {} normal {} {} {}", p.shade, p.bias, p.normal[0],
                       p.normal[1], p.normal[2]);
    if (p.unknown_10) out += fmt::format(" u10 0x{:04x}", p.unknown_10);
    if (p.unknown_12) out += fmt::format(" u12 0x{:04x}", p.unknown_12);
    if (p.unknown_18) out += fmt::format(" u18 0x{:04x}", p.unknown_18);
    if (p.reserved_16) out += fmt::format(" r16 0x{:04x}", p.reserved_16);
    if (any_set(p.reserved_04)) out += " r04 " + hex_bytes(p.reserved_04);
    out += " vertices";
    for (uint32_t v : p.vertices) out += fmt::format(" {}", v);
    out += fmt::format("  ; {}\n", f);
  }
  for (size_t i = 0; i < m.parts.size(); ++i) {
    const Part& part = m.parts[i];
    out += fmt::format("  part polygons {} {} pivot {} {} {}", part.first_polygon,
                       part.polygon_count, part.pivot[0], part.pivot[1], part.pivot[2]);
    if (part.translation != Vec3i16{})
      out += fmt::format(" translation {} {} {}", part.translation[0], part.translation[1],
                         part.translation[2]);
    if (part.angles != Vec3i16{})
      out += fmt::format(" angles {} {} {}", part.angles[0], part.angles[1], part.angles[2]);
    if (any_set(part.reserved_1a)) out += " r1a " + hex_bytes(part.reserved_1a);
    out += " vertices";
    for (uint16_t v : part.vertices) out += fmt::format(" {}", v);
    out += fmt::format("  ; part{}\n", i);
  }
  if (std::any_of(m.slots.begin(), m.slots.end(), [](uint8_t b) { return b != 0; }))
    hex_lines(out, "slots", m.slots);
  return out + "end\n";
}

std::string layer_text(const Layer& l) {
  std::string out = "3dld\n  objects";
  for (uint16_t id : l.object_ids) out += " " + id_text(id);
  out += "\n";
  if (any_set(l.padding)) out += "  padding " + hex_bytes(l.padding) + "\n";
  for (const Placement& p : l.placements) {
    out += fmt::format("  place {} {} {}", p.slot, p.x, p.z);
    if (p.unknown_02) out += fmt::format(" unknown 0x{:04x}", p.unknown_02);
    if (any_set(p.reserved_08)) out += " reserved " + hex_bytes(p.reserved_08);
    out += "\n";
  }
  hex_lines(out, "trailing", l.trailing);
  return out + "end\n";
}

std::string disassemble_file(std::span<const uint8_t> bytes, const std::string& source) {
  std::string head;
  std::vector<uint8_t> body(bytes.begin(), bytes.end());
  if (is_tpwm(bytes)) {
    body = tpwm_unpack(bytes, source);
    if (tpwm_pack_literal(body) != std::vector<uint8_t>(bytes.begin(), bytes.end()))
      throw InputError(source,
                       "a TPWM stream with back references: the text form writes literal "
                       "TPWM only (extract the unpacked file first)");
    head = " tpwm";
  }
  std::string out = fmt::format("; {} (shapevm bi2 text; docs/bi2.md)\n", source);
  if (is_mesh(body)) {
    std::string t = mesh_text(read_mesh(body, source));
    return out + "3dob" + head + t.substr(4);
  }
  if (is_layer(body)) {
    std::string t = layer_text(read_layer(body, source));
    return out + "3dld" + head + t.substr(4);
  }
  const LibArchive lib(body, source);
  out += "lib" + head + "\n";
  for (const auto& m : lib.members()) out += member_text(lib, m);
  return out;
}

std::vector<uint8_t> assemble_text(std::string_view text, const std::string& source) {
  Parser p(text, source);
  if (p.done()) p.fail_end("3dob, 3dld or lib");
  const Line& head = p.next();
  const std::string& w = head.words[0];
  const bool packed = packed_flag(p, head, 1);
  std::vector<uint8_t> out;
  if (w == "lib") {
    std::vector<LibEntry> entries;
    while (!p.done()) {
      const Line& l = p.next();
      if (l.words[0] != "member" || l.words.size() < 2)
        p.fail(l, "member NAME [tpwm] (or member - raw BYTES [tpwm])");
      LibEntry e;
      size_t next = 2;
      if (l.words[1] == "-" && l.words.size() >= 11 && l.words[2] == "raw") {
        const auto raw = p.hex(Line{l.number, {l.words.begin(), l.words.begin() + 11}}, 3);
        if (raw.size() != kLibNameBytes) p.fail(l, "8 name bytes after raw");
        e.raw_name.assign(raw.begin(), raw.end());
        next = 11;
      } else {
        if (l.words[1].size() > kLibNameBytes) p.fail(l, "a member name of at most 8 characters");
        e.raw_name = l.words[1];
      }
      const bool member_packed = packed_flag(p, l, next);
      const Line& body_head = p.next();
      if (body_head.words.size() != 1) p.fail(body_head, "3dob, 3dld or data alone on its line");
      e.bytes = parse_body(p, body_head);
      if (member_packed) e.bytes = tpwm_pack_literal(e.bytes);
      entries.push_back(std::move(e));
    }
    if (entries.empty()) p.fail(head, "at least one member after lib");
    out = write_lib(entries);
  } else if (w == "3dob" || w == "3dld") {
    out = parse_body(p, Line{head.number, {w}});
    if (!p.done()) p.fail(p.next(), "nothing after end");
  } else {
    p.fail(head, fmt::format("3dob, 3dld or lib first, not \"{}\"", w));
  }
  return packed ? tpwm_pack_literal(out) : out;
}

}  // namespace shapevm::bi2
