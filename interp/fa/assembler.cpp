#include "interp/fa/assembler.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/fa/instruction.h"
#include "interp/fa/opcodes.h"
#include "interp/fa/shape.h"

namespace shapevm::fa {
namespace {

struct Statement {
  int line = 0;
  std::string mnemonic;
  std::vector<std::string> positional;           // bare tokens, in order
  std::map<std::string, std::string> keys;       // key=value tokens
  std::vector<std::array<int16_t, 3>> vertices;  // VertexBuffer's `v` lines
  uint32_t offset = 0;
  uint32_t size = 0;
};

class Assembler {
 public:
  Assembler(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  AssembledShape run() {
    parse();
    layout();
    encode();
    AssembledShape out;
    out.image.code_body = std::move(code_);
    out.image.imports = imports_;
    out.image.stubs = stubs_;
    out.image.fixups = fixups_;
    out.image.layout = layout_;
    try {
      out.file = fa::build_pharlap(out.image);
    } catch (const std::invalid_argument& e) {
      throw InputError(source_, std::string("cannot lay out the image: ") + e.what());
    }
    out.labels = labels_;
    return out;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(source_, fmt::format("line {}: {}", line, message));
  }

  // ---- parsing -------------------------------------------------------------------------------

  static std::string strip_comment(std::string_view line) {
    bool quoted = false;
    std::string out;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ';' && !quoted) break;
      out.push_back(c);
    }
    while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
    size_t start = 0;
    while (start < out.size() && std::isspace(static_cast<unsigned char>(out[start]))) ++start;
    return out.substr(start);
  }

  std::vector<std::string> tokenize(const std::string& s, int line) const {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
      if (std::isspace(static_cast<unsigned char>(s[i]))) {
        ++i;
        continue;
      }
      std::string tok;
      bool quoted = false;
      while (i < s.size() && (quoted || !std::isspace(static_cast<unsigned char>(s[i])))) {
        if (s[i] == '"') quoted = !quoted;
        tok.push_back(s[i++]);
      }
      if (quoted) fail(line, "unterminated string");
      out.push_back(tok);
    }
    return out;
  }

  static bool is_label_name(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
    return true;
  }

  void parse() {
    int line_no = 0;
    size_t pos = 0;
    while (pos <= text_.size()) {
      size_t nl = text_.find('\n', pos);
      if (nl == std::string_view::npos) nl = text_.size();
      ++line_no;
      std::string line = strip_comment(text_.substr(pos, nl - pos));
      pos = nl + 1;
      if (line.empty()) continue;
      // "name:" defines a label (optionally followed by a statement).
      if (auto colon = line.find(':'); colon != std::string::npos &&
                                       is_label_name(line.substr(0, colon)) &&
                                       line.find('"') > colon && line.find('=') > colon) {
        pending_labels_.push_back({line.substr(0, colon), line_no});
        line = strip_comment(line.substr(colon + 1));
        if (line.empty()) continue;
      }
      auto tokens = tokenize(line, line_no);
      if (tokens[0] == "v") {
        if (statements_.empty() || statements_.back().mnemonic != "VertexBuffer" ||
            !pending_labels_.empty())
          fail(line_no, "a `v x, y, z` line must follow a VertexBuffer");
        std::string rest = line.substr(1);
        auto nums = split_numbers(rest, line_no);
        if (nums.size() != 3) fail(line_no, "expected `v x, y, z` with three coordinates");
        std::array<int16_t, 3> v{};
        for (int i = 0; i < 3; ++i) v[i] = checked<int16_t>(nums[i], line_no, "vertex coordinate");
        statements_.back().vertices.push_back(v);
        continue;
      }
      Statement st;
      st.line = line_no;
      st.mnemonic = tokens[0];
      for (size_t i = 1; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        auto eq = t.find('=');
        if (eq != std::string::npos && t[0] != '"' && t[0] != '{') {
          st.keys[t.substr(0, eq)] = t.substr(eq + 1);
        } else {
          st.positional.push_back(t);
        }
      }
      if (st.mnemonic == ".image") {
        apply_image(st);
        continue;
      }
      if (st.mnemonic == ".import") {
        if (st.positional.size() != 1) fail(line_no, "expected `.import NAME`");
        if (std::find(imports_.begin(), imports_.end(), st.positional[0]) != imports_.end())
          fail(line_no, "import " + st.positional[0] + " declared twice");
        imports_.push_back(st.positional[0]);
        continue;
      }
      for (auto& [name, at] : pending_labels_)
        label_lines_.push_back({name, at, statements_.size()});
      pending_labels_.clear();
      statements_.push_back(std::move(st));
    }
    for (auto& [name, at] : pending_labels_) label_lines_.push_back({name, at, statements_.size()});
    if (statements_.empty() || statements_.front().mnemonic != ".header")
      fail(statements_.empty() ? line_no : statements_.front().line,
           "expected `.header ...` as the first statement (the 14-byte shape header)");
  }

  void apply_image(const Statement& st) {
    for (const auto& [k, v] : st.keys) {
      if (k == "base") {
        layout_.image_base = checked<uint32_t>(number(v, st.line), st.line, "image base");
      } else if (k == "code_va") {
        layout_.code_va = checked<uint32_t>(number(v, st.line), st.line, "code_va");
      } else if (k == "section") {
        layout_.code_section_name = v;
      } else if (k == "stub_relocs") {
        layout_.relocate_stub_operands = number(v, st.line) != 0;
      } else {
        fail(st.line, "unknown .image setting " + k + " (base, code_va, section, stub_relocs)");
      }
    }
  }

  int64_t number(std::string_view s, int line) const {
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
      negative = s[0] == '-';
      s.remove_prefix(1);
    }
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      s.remove_prefix(2);
    }
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
      fail(line, fmt::format("expected a number, found '{}'", s));
    return negative ? -value : value;
  }

  template <typename T>
  T checked(int64_t v, int line, std::string_view what) const {
    if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        v > static_cast<int64_t>(std::numeric_limits<T>::max()))
      fail(line, fmt::format("{} {} does not fit its field", what, v));
    return static_cast<T>(v);
  }

  std::vector<int64_t> split_numbers(std::string_view s, int line) const {
    std::vector<int64_t> out;
    std::string cur;
    auto flush = [&] {
      if (!cur.empty()) out.push_back(number(cur, line));
      cur.clear();
    };
    for (char c : s) {
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
        flush();
      } else {
        cur.push_back(c);
      }
    }
    flush();
    return out;
  }

  std::vector<int64_t> list(const Statement& st, const std::string& key, size_t count) const {
    auto it = st.keys.find(key);
    if (it == st.keys.end()) fail(st.line, fmt::format("{} needs {}=", st.mnemonic, key));
    if (it->second == "-") return {};
    auto v = split_numbers(it->second, st.line);
    if (count && v.size() != count)
      fail(st.line, fmt::format("{}= expects {} values, found {}", key, count, v.size()));
    return v;
  }

  int64_t key_number(const Statement& st, const std::string& key) const {
    auto it = st.keys.find(key);
    if (it == st.keys.end()) fail(st.line, fmt::format("{} needs {}=", st.mnemonic, key));
    return number(it->second, st.line);
  }

  std::string string_arg(const Statement& st) const {
    if (st.positional.size() != 1 || st.positional[0].size() < 2 ||
        st.positional[0].front() != '"' || st.positional[0].back() != '"')
      fail(st.line, st.mnemonic + " expects one quoted string");
    std::string_view s(st.positional[0]);
    s = s.substr(1, s.size() - 2);
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\\') {
        if (i + 3 >= s.size() + 0 || s[i + 1] != 'x') fail(st.line, "string escapes are \\xNN");
        out.push_back(static_cast<char>(number("0x" + std::string(s.substr(i + 2, 2)), st.line)));
        i += 3;
      } else {
        out.push_back(s[i]);
      }
    }
    return out;
  }

  // A byte list: hex bytes and {symbol[+-N]} dwords.
  struct ByteItem {
    bool is_ref = false;
    uint8_t byte = 0;
    std::string ref;
  };
  std::vector<ByteItem> byte_items(const Statement& st) const {
    std::vector<ByteItem> out;
    for (const auto& t : st.positional) {
      if (t.size() > 2 && t.front() == '{' && t.back() == '}') {
        out.push_back({true, 0, t.substr(1, t.size() - 2)});
      } else if (t.size() == 2 && std::isxdigit(static_cast<unsigned char>(t[0])) &&
                 std::isxdigit(static_cast<unsigned char>(t[1]))) {
        out.push_back({false, static_cast<uint8_t>(number("0x" + t, st.line)), ""});
      } else {
        fail(st.line, fmt::format("expected a hex byte or {{symbol}}, found '{}'", t));
      }
    }
    if (!st.keys.empty()) fail(st.line, st.mnemonic + " takes only bytes");
    return out;
  }

  // ---- sizes ---------------------------------------------------------------------------------

  const fa::OpcodeInfo* opcode_for(const std::string& mnemonic) const {
    for (const auto& info : fa::all_opcodes())
      if (info.mnemonic == mnemonic) return &info;
    return nullptr;
  }

  uint32_t tail_size(const Statement& st) const {
    if (auto it = st.keys.find("then"); it != st.keys.end()) {
      auto kind = it->second.substr(0, it->second.find(':'));
      if (kind == "ShortJump") return 3;
      if (kind == "Jump") return 4;
      if (kind == "LongJump") return 6;
      fail(st.line, "then= takes ShortJump:@L, Jump:@L or LongJump:@L");
    }
    if (auto it = st.keys.find("tail"); it != st.keys.end()) {
      if (it->second.size() % 2) fail(st.line, "tail= needs whole hex bytes");
      return static_cast<uint32_t>(it->second.size() / 2);
    }
    return 0;
  }

  uint32_t size_of(const Statement& st) const {
    const std::string& m = st.mnemonic;
    if (m == ".header") return fa::kHeaderSize;
    if (m == "x86" || m == ".db") {
      uint32_t n = 0;
      for (const auto& b : byte_items(st)) n += b.is_ref ? 4 : 1;
      return n;
    }
    if (m == ".stub") return 6;
    const fa::OpcodeInfo* info = opcode_for(m);
    if (!info) fail(st.line, "unknown instruction or directive '" + m + "'");
    switch (info->rule) {
      case fa::SizeRule::kToEnd:
      case fa::SizeRule::kShortEof:
        return 1;
      case fa::SizeRule::kX86:
        return 2;
      case fa::SizeRule::kPlane06:
        return 18 + tail_size(st);
      case fa::SizeRule::kPlaneShort:
        return 14 + tail_size(st);
      case fa::SizeRule::kFrameTable:
        return 4 + 2 * static_cast<uint32_t>(st.positional.size());
      case fa::SizeRule::kSourceName:
        return 3 + static_cast<uint32_t>(string_arg(st).size());
      case fa::SizeRule::kVertexBuffer:
        return 6 + 6 * static_cast<uint32_t>(st.vertices.size());
      case fa::SizeRule::kOrderField:
        return 10 + tail_size(st);
      case fa::SizeRule::kFace:
        return face_bytes(st, 0).size();
      case fa::SizeRule::kUnknown:
        fail(st.line, m + " has no known size; write its bytes with .db");
      case fa::SizeRule::kFixed:
      case fa::SizeRule::kHeader:
        return info->fixed_size;
    }
    return 0;
  }

  void layout() {
    uint32_t off = 0;
    bool in_stubs = false;
    for (auto& st : statements_) {
      if (st.mnemonic == ".header" && off != 0) fail(st.line, ".header must come first, once");
      if (st.mnemonic == ".stub") {
        in_stubs = true;
      } else if (in_stubs) {
        fail(st.line, "the trampolines (.stub) must be the last thing in CODE");
      }
      st.offset = off;
      st.size = size_of(st);
      off += st.size;
    }
    end_ = off;
    for (const auto& [name, line, index] : label_lines_) {
      const uint32_t at = index < statements_.size() ? statements_[index].offset : end_;
      if (!labels_.emplace(name, at).second) fail(line, "label " + name + " defined twice");
      if (std::find(imports_.begin(), imports_.end(), name) != imports_.end())
        fail(line, "label " + name + " has the name of an import");
    }
  }

  // ---- encoding ------------------------------------------------------------------------------

  int64_t resolve(const std::string& expr, int line, bool allow_imports) const {
    std::string name = expr;
    int64_t delta = 0;
    auto sign = expr.find_first_of("+-", 1);
    if (sign != std::string::npos) {
      name = expr.substr(0, sign);
      delta = number(expr.substr(sign), line);
    }
    if (allow_imports) {
      for (size_t k = 0; k < stubs_.size(); ++k)
        if (stubs_[k] == name) return int64_t{stub_base_} + 6 * int64_t(k) + delta;
      if (std::find(imports_.begin(), imports_.end(), name) != imports_.end())
        fail(line, "import " + name + " has no .stub trampoline to point at");
    }
    auto it = labels_.find(name);
    if (it == labels_.end()) fail(line, "undefined label " + name);
    return int64_t{it->second} + delta;
  }

  int64_t target(const Statement& st, const std::string& token) const {
    if (token.size() < 2 || token[0] != '@')
      fail(st.line, fmt::format("expected a @label target, found '{}'", token));
    return resolve(token.substr(1), st.line, false);
  }

  int64_t key_target(const Statement& st, const std::string& key) const {
    auto it = st.keys.find(key);
    if (it == st.keys.end()) fail(st.line, fmt::format("{} needs {}=@label", st.mnemonic, key));
    return target(st, it->second);
  }

  int64_t only_target(const Statement& st) const {
    if (st.positional.size() != 1) fail(st.line, st.mnemonic + " expects one @label target");
    return target(st, st.positional[0]);
  }

  void put8(int64_t v) { code_.push_back(static_cast<uint8_t>(v)); }
  void put16(int64_t v) { append_u16(code_, static_cast<uint32_t>(v)); }
  void put32(int64_t v) { append_u32(code_, static_cast<uint32_t>(v)); }
  void rel16(const Statement& st, int64_t target, int64_t from) {
    put16(checked<int16_t>(target - from, st.line, "16-bit displacement"));
  }
  void rel32(const Statement& st, int64_t target, int64_t from) {
    put32(checked<int32_t>(target - from, st.line, "32-bit displacement"));
  }

  void opcode(const Statement& st, const fa::OpcodeInfo& info) {
    put8(info.op);
    if (info.word_magic || info.rule == fa::SizeRule::kX86) {
      auto it = st.keys.find("pad");
      put8(it == st.keys.end() ? 0 : checked<uint8_t>(number(it->second, st.line), st.line, "pad"));
    } else if (st.keys.count("pad")) {
      fail(st.line, st.mnemonic + " has no pad byte");
    }
  }

  void embedded(const Statement& st, uint32_t at) {
    if (auto it = st.keys.find("then"); it != st.keys.end()) {
      auto colon = it->second.find(':');
      if (colon == std::string::npos) fail(st.line, "then= takes KIND:@label");
      const std::string kind = it->second.substr(0, colon);
      const int64_t t = target(st, it->second.substr(colon + 1));
      if (kind == "ShortJump") {
        put8(0x38);
        rel16(st, t, at + 3);
      } else if (kind == "Jump") {
        put8(0x48);
        put8(0);
        rel16(st, t, at + 4);
      } else {
        put8(0x50);
        put8(0);
        rel32(st, t, at + 6);
      }
    } else if (auto tail = st.keys.find("tail"); tail != st.keys.end()) {
      for (size_t i = 0; i < tail->second.size(); i += 2)
        put8(number("0x" + tail->second.substr(i, 2), st.line));
    }
  }

  std::vector<uint8_t> face_bytes(const Statement& st, int) const {
    std::vector<uint8_t> out;
    auto byte = [&](const std::string& key) {
      return checked<uint8_t>(key_number(st, key), st.line, key);
    };
    const uint8_t content = byte("content");
    const uint8_t layout = byte("layout");
    out = {0xFC, content, layout, byte("color"), byte("shadow")};
    auto push16 = [&](int64_t v) {
      out.push_back(static_cast<uint8_t>(v & 0xFF));
      out.push_back(static_cast<uint8_t>((v >> 8) & 0xFF));
    };
    const bool has_normal = content & fa::kFaceHaveNormal;
    if (has_normal != (st.keys.count("normal") == 1) ||
        has_normal != (st.keys.count("center") == 1))
      fail(st.line, "normal= and center= are present exactly when content has 0x40");
    if (has_normal) {
      for (auto v : list(st, "normal", 3)) push16(checked<int16_t>(v, st.line, "normal"));
      for (auto v : list(st, "center", 3)) {
        if (layout & fa::kLayoutByteCenter) {
          out.push_back(static_cast<uint8_t>(checked<int8_t>(v, st.line, "byte centre")));
        } else {
          push16(checked<int16_t>(v, st.line, "centre"));
        }
      }
    }
    auto idx = list(st, "idx", 0);
    out.push_back(checked<uint8_t>(static_cast<int64_t>(idx.size()), st.line, "corner count"));
    for (auto v : idx) {
      if (layout & fa::kLayoutShortIndices) {
        push16(checked<uint16_t>(v, st.line, "index"));
      } else {
        out.push_back(checked<uint8_t>(v, st.line, "byte index (set layout 0x04 for u16)"));
      }
    }
    const bool has_uv = content & fa::kFaceHaveTexcoords;
    if (has_uv != (st.keys.count("uv") == 1))
      fail(st.line, "uv= is present exactly when content has 0x04");
    if (has_uv) {
      auto uv = list(st, "uv", 0);
      if (uv.size() != 2 * idx.size()) fail(st.line, "uv= needs one s,t pair per corner");
      for (auto v : uv) {
        if (layout & fa::kLayoutByteTexcoords) {
          out.push_back(checked<uint8_t>(v, st.line, "byte texcoord"));
        } else {
          push16(checked<uint16_t>(v, st.line, "texcoord"));
        }
      }
    }
    return out;
  }

  void encode_statement(const Statement& st) {
    const std::string& m = st.mnemonic;
    const uint32_t off = st.offset;
    if (m == ".header") {
      put16(0xFFFF);
      put16(checked<int16_t>(key_number(st, "radius_world"), st.line, "radius_world"));
      put16(checked<int16_t>(key_number(st, "radius"), st.line, "radius"));
      put16(checked<int16_t>(key_number(st, "scale"), st.line, "scale"));
      for (auto v : list(st, "extents", 3)) put16(checked<int16_t>(v, st.line, "extent"));
      return;
    }
    if (m == "x86" || m == ".db") {
      for (const auto& item : byte_items(st)) {
        if (!item.is_ref) {
          put8(item.byte);
          continue;
        }
        if (!item.ref.empty() && item.ref[0] == '=') {
          // {=0xVALUE}: a relocated dword whose value points outside CODE, kept as it is.
          const int64_t v = number(item.ref.substr(1), st.line);
          fixups_.push_back({static_cast<uint32_t>(code_.size()), 0, true});
          put32(checked<uint32_t>(v, st.line, "relocated value"));
          continue;
        }
        const int64_t t = resolve(item.ref, st.line, true);
        if (t < 0 || t >= end_) fail(st.line, "{" + item.ref + "} points outside CODE");
        fixups_.push_back({static_cast<uint32_t>(code_.size()), static_cast<uint32_t>(t), false});
        put32(0);  // the writer stores image_base + code_va + target
      }
      return;
    }
    if (m == ".stub") return;  // the writer emits the trampolines
    const fa::OpcodeInfo& info = *opcode_for(m);
    opcode(st, info);
    switch (info.op) {
      case 0x00:
      case 0x01:
      case 0x1E:
      case 0xF0:
        return;
      case 0x48:
        rel16(st, only_target(st), off + 4);
        return;
      case 0x38:
        rel16(st, only_target(st), off + 3);
        return;
      case 0x50:
        rel32(st, only_target(st), off + 6);
        return;
      case 0x12:
        rel16(st, only_target(st), off + 4);
        return;
      case 0x6E:
        rel32(st, only_target(st), off + 6);
        return;
      case 0xAC:
        rel16(st, only_target(st), off + 4);
        return;
      case 0xA6:
        rel16(st, only_target(st), off + 6);
        put16(checked<uint16_t>(key_number(st, "threshold"), st.line, "threshold"));
        return;
      case 0xC8:
        put16(checked<uint16_t>(key_number(st, "size"), st.line, "size"));
        put16(checked<uint16_t>(key_number(st, "threshold"), st.line, "threshold"));
        rel16(st, only_target(st), off + 8);
        return;
      case 0x40: {
        put16(static_cast<int64_t>(st.positional.size()));
        for (size_t k = 0; k < st.positional.size(); ++k) {
          std::string t = st.positional[k];
          if (!t.empty() && t.back() == ',') t.pop_back();
          rel16(st, target(st, t), off + 4 + 2 * int64_t(k));
        }
        return;
      }
      case 0xF2:
        if (st.keys.count("value")) {
          put16(checked<uint16_t>(key_number(st, "value"), st.line, "value"));
        } else {
          put16(checked<uint16_t>(only_target(st), st.line, "EndObject offset"));
        }
        return;
      case 0x42:
        for (char c : string_arg(st)) put8(static_cast<uint8_t>(c));
        put8(0);
        return;
      case 0xE2: {
        const std::string name = string_arg(st);
        if (name.size() > 14) fail(st.line, "TextureFile names are at most 14 bytes");
        for (size_t i = 0; i < 14; ++i) put8(i < name.size() ? static_cast<uint8_t>(name[i]) : 0);
        return;
      }
      case 0xE0:
        put16(checked<uint16_t>(st.positional.size() == 1 ? number(st.positional[0], st.line) : -1,
                                st.line, "texture index"));
        return;
      case 0xF6: {
        put16(checked<uint16_t>(key_number(st, "index"), st.line, "index"));
        put8(checked<uint8_t>(key_number(st, "color"), st.line, "color"));
        for (auto v : list(st, "normal", 3)) put8(checked<int8_t>(v, st.line, "normal"));
        return;
      }
      case 0x82:
        put16(static_cast<int64_t>(st.vertices.size()));
        put16(checked<uint16_t>(key_number(st, "at"), st.line, "push_at"));
        for (const auto& v : st.vertices)
          for (auto c : v) put16(c);
        return;
      case 0xFC: {
        auto bytes = face_bytes(st, 0);
        code_.insert(code_.end(), bytes.begin() + 1, bytes.end());
        return;
      }
      case 0x6C:
        put16(checked<uint16_t>(key_number(st, "field"), st.line, "field"));
        put16(checked<uint16_t>(key_number(st, "cmp"), st.line, "cmp"));
        rel16(st, key_target(st, "continue"), off + 8);
        rel16(st, key_target(st, "call"), off + 10);
        if (!st.keys.count("then"))
          fail(st.line, "OrderField needs then=ShortJump|Jump|LongJump:@label");
        embedded(st, off + 10);
        return;
      case 0x06:
      case 0x0C:
      case 0x0E:
      case 0x10: {
        const bool full = info.op == 0x06;
        for (auto v : list(st, "plane", full ? 6 : 4))
          put16(checked<int16_t>(v, st.line, "plane word"));
        put16(2 + tail_size(st));
        const uint32_t rel_at = full ? 16 : 12;
        rel16(st, key_target(st, "call"), off + rel_at + 2);
        embedded(st, off + rel_at + 2);
        return;
      }
      case 0xC4:
      case 0xC6:
        for (auto v : list(st, "t", 3)) put16(checked<int16_t>(v, st.line, "t"));
        for (auto v : list(st, "a", 3)) put16(checked<int16_t>(v, st.line, "a"));
        if (info.op == 0xC4) {
          rel16(st, key_target(st, "call"), off + 16);
        } else {
          rel32(st, key_target(st, "call"), off + 18);
        }
        return;
      default:
        break;
    }
    // Untraced fixed-size opcodes carry their operand bytes as raw=hex.
    auto raw = st.keys.find("raw");
    const std::string hex = raw == st.keys.end() ? "" : raw->second;
    const uint32_t want = st.size - static_cast<uint32_t>(code_.size() - off);
    if (hex.size() != 2 * want)
      fail(st.line, fmt::format("{} needs raw= with {} operand bytes", m, want));
    for (size_t i = 0; i < hex.size(); i += 2) put8(number("0x" + hex.substr(i, 2), st.line));
  }

  void encode() {
    // Trampolines: one per .stub line, in order; `abs` marks USNF-style operands.
    bool any_abs = false;
    for (const auto& st : statements_) {
      if (st.mnemonic != ".stub") continue;
      if (st.positional.empty() || st.positional.size() > 2 ||
          (st.positional.size() == 2 && st.positional[1] != "abs"))
        fail(st.line, "expected `.stub IMPORT [abs]`");
      if (std::find(imports_.begin(), imports_.end(), st.positional[0]) == imports_.end())
        fail(st.line, "trampoline for " + st.positional[0] + ", which no .import declares");
      if (stubs_.empty()) stub_base_ = st.offset;
      stubs_.push_back(st.positional[0]);
      any_abs |= st.positional.size() == 2;
    }
    if (stubs_.empty()) stub_base_ = end_;
    layout_.stub_operands_include_image_base = any_abs;
    for (const auto& st : statements_) {
      const size_t before = code_.size();
      encode_statement(st);
      if (st.mnemonic != ".stub" && code_.size() - before != st.size)
        fail(st.line, fmt::format("internal: {} encoded {} bytes, expected {}", st.mnemonic,
                                  code_.size() - before, st.size));
    }
  }

  struct LabelLine {
    std::string name;
    int line;
    size_t statement;
  };

  std::string_view text_;
  std::string source_;
  std::vector<Statement> statements_;
  std::vector<std::pair<std::string, int>> pending_labels_;
  std::vector<LabelLine> label_lines_;
  std::map<std::string, uint32_t> labels_;
  std::vector<std::string> imports_;
  std::vector<std::string> stubs_;
  uint32_t stub_base_ = 0;
  uint32_t end_ = 0;
  std::vector<uint8_t> code_;
  std::vector<fa::CodeFixup> fixups_;
  fa::ImageLayout layout_;
};

}  // namespace

AssembledShape assemble_fa(std::string_view text, const std::string& source) {
  return Assembler(text, source).run();
}

}  // namespace shapevm::fa
