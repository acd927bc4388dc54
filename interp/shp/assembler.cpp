#include "interp/shp/assembler.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "core/text_statements.h"
#include "interp/shp/records.h"

namespace shapevm::shp {
namespace {

constexpr size_t kMaxRecords = 0xFFFF;

struct Item {
  std::string key;
  std::string value;
};

class Line {
 public:
  Line(std::string source, size_t number) : source_(std::move(source)), number_(number) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_, fmt::format("line {}: {}", number_, what));
  }

 private:
  std::string source_;
  size_t number_;
};

// Splits a statement into words; a quoted value keeps its spaces (with \" \\ \xHH escapes); a
// ';' outside quotes starts a comment.
std::vector<std::string> words_of(std::string_view text, const Line& line) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false, quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        quoted = false;
        word += '"';
      } else if (c == '\\') {
        if (i + 1 >= text.size()) line.fail("a quoted name ends in a backslash");
        const char e = text[++i];
        if (e == 'x') {
          if (i + 2 >= text.size()) line.fail("\\x needs two hex digits");
          const std::string hex(text.substr(i + 1, 2));
          char* end = nullptr;
          const long v = std::strtol(hex.c_str(), &end, 16);
          if (end != hex.c_str() + 2) line.fail("\\x needs two hex digits");
          word += '\x01';  // marks an escaped byte: \x01 then the byte
          word += static_cast<char>(v);
          i += 2;
        } else {
          word += '\x01';
          word += e;
        }
      } else {
        word += c;
      }
      continue;
    }
    if (c == ';') break;
    if (c == ' ' || c == '\t' || c == '\r') {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    if (c == '"') quoted = true;
    word += c;
    in_word = true;
  }
  if (quoted) line.fail("a quoted name has no closing quote");
  if (in_word) out.push_back(std::move(word));
  return out;
}

std::string unquote(const std::string& value, const Line& line) {
  if (value.size() < 2 || value.front() != '"' || value.back() != '"')
    line.fail(fmt::format("expected a quoted name, found {}", value));
  std::string out;
  for (size_t i = 1; i + 1 < value.size(); ++i) {
    if (value[i] == '\x01' && i + 2 < value.size()) {
      out += value[++i];
    } else {
      out += value[i];
    }
  }
  return out;
}

Item split_item(const std::string& word, const Line& line) {
  const size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0)
    line.fail(fmt::format("expected NAME=VALUE, found {}", word));
  return {word.substr(0, eq), word.substr(eq + 1)};
}

uint64_t parse_unsigned(std::string_view text, uint64_t max, const Line& line,
                        std::string_view what) {
  const std::string t(text);
  int base = 10;
  size_t start = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    start = 2;
  }
  if (start >= t.size() || !std::isxdigit(static_cast<unsigned char>(t[start])))
    line.fail(fmt::format("{}: expected a number, found {}", what, text));
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(t.c_str() + start, &end, base);
  if (*end != '\0' || errno == ERANGE || v > max)
    line.fail(fmt::format("{}: expected a number 0..{}, found {}", what, max, text));
  return v;
}

template <class T>
T parse_scalar(std::string_view text, const Line& line, std::string_view what) {
  if constexpr (std::is_same_v<T, F32>) {
    if (!text.empty() && text[0] == '#') {
      if (text.size() != 9) line.fail(fmt::format("{}: expected #XXXXXXXX float bits", what));
      return F32{static_cast<uint32_t>(
          parse_unsigned("0x" + std::string(text.substr(1)), UINT32_MAX, line, what))};
    }
    const std::string t(text);
    char* end = nullptr;
    const float f = std::strtof(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !std::isfinite(f))
      line.fail(fmt::format("{}: expected a finite decimal or #bits, found {}", what, text));
    return F32::of(f);
  } else if constexpr (std::is_signed_v<T>) {
    const bool negative = !text.empty() && text[0] == '-';
    const uint64_t magnitude = parse_unsigned(negative ? text.substr(1) : text,
                                              negative ? uint64_t(std::numeric_limits<T>::max()) + 1
                                                       : uint64_t(std::numeric_limits<T>::max()),
                                              line, what);
    return static_cast<T>(negative ? -static_cast<int64_t>(magnitude)
                                   : static_cast<int64_t>(magnitude));
  } else {
    return static_cast<T>(parse_unsigned(text, std::numeric_limits<T>::max(), line, what));
  }
}

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<uint8_t> parse_hex(std::string_view text, const Line& line, std::string_view what) {
  if (text.size() % 2 != 0) line.fail(fmt::format("{}: expected pairs of hex digits", what));
  std::vector<uint8_t> out;
  for (size_t i = 0; i < text.size(); i += 2)
    out.push_back(static_cast<uint8_t>(
        parse_unsigned("0x" + std::string(text.substr(i, 2)), 0xFF, line, what)));
  return out;
}

// Sets the field `item` names; false when the record has no such field.
struct Setter {
  const Item& item;
  const Line& line;
  bool& found;
  size_t reached;
  uint16_t size;
  const char* keyword;
  // A field the record does not reach would be lost when written: refused.
  void reach(const char* name, size_t at) const {
    if (at >= reached)
      line.fail(fmt::format("{} at 0x{:x} lies past the {} bytes a {}-byte {} record keeps", name,
                            at, reached, size, keyword));
  }
  template <class T>
  void operator()(const char* name, size_t at, T& field) const {
    if (item.key != name) return;
    found = true;
    reach(name, at);
    field = parse_scalar<T>(item.value, line, name);
  }
  template <class T, size_t N>
  void operator()(const char* name, size_t at, std::array<T, N>& field) const {
    if (item.key != name) return;
    found = true;
    reach(name, at);
    const auto parts = split_commas(item.value);
    if (parts.size() > N)
      line.fail(fmt::format("{}: expected at most {} values, found {}", name, N, parts.size()));
    for (size_t i = 0; i < parts.size(); ++i) field[i] = parse_scalar<T>(parts[i], line, name);
  }
  void operator()(const char* name, size_t at, TextField field) const {
    if (item.key != name) return;
    found = true;
    reach(name, at);
    field.value = unquote(item.value, line);
    if (field.value.size() > field.width)
      line.fail(fmt::format("{}: at most {} characters", name, field.width));
  }
};

template <class R>
void assemble_record(uint16_t tag, uint16_t size, const std::vector<std::string>& words,
                     const Line& line, std::vector<uint8_t>& out) {
  R r;
  constexpr size_t kStruct = kStructBytes<R>;
  const size_t reached = std::min<size_t>(size, kStruct);
  std::vector<Item> fields;
  std::vector<uint8_t> tail;
  for (size_t w = 1; w < words.size(); ++w) {
    Item item = split_item(words[w], line);
    if (item.key.rfind("raw@", 0) == 0) {
      const size_t at = parse_unsigned(item.key.substr(4), kStruct, line, "raw offset");
      const auto bytes = parse_hex(item.value, line, "raw");
      if (at + bytes.size() > reached)
        line.fail(
            fmt::format("raw@0x{:x}: {} bytes run past the {} bytes a {}-byte {} record "
                        "keeps",
                        at, bytes.size(), reached, size, record_keyword(tag)));
      if constexpr (kStruct > 0) std::memcpy(r.image.bytes.data() + at, bytes.data(), bytes.size());
    } else if (item.key == "tail") {
      tail = parse_hex(item.value, line, "tail");
      const size_t room = size > kStruct ? size - kStruct : 0;
      if (tail.size() > room)
        line.fail(
            fmt::format("tail of {} bytes: a {}-byte {} record has room for {} past its "
                        "{}-byte struct",
                        tail.size(), size, record_keyword(tag), room, kStruct));
    } else {
      fields.push_back(std::move(item));
    }
  }
  decode_fields(r);  // fields not given take what the raw bytes (or zeros) hold
  for (const Item& item : fields) {
    bool found = false;
    visit_fields(r, Setter{item, line, found, reached, size, record_keyword(tag)});
    if (!found)
      line.fail(fmt::format("a {} record has no field {}", record_keyword(tag), item.key));
  }
  const auto image = encode_fields(r);
  out.insert(out.end(), image.begin(), image.begin() + static_cast<ptrdiff_t>(reached));
  out.insert(out.end(), tail.begin(), tail.end());
  if (size > kStruct) out.insert(out.end(), size - kStruct - tail.size(), uint8_t{0});
}

}  // namespace

bool looks_like_shp_text(std::string_view text) {
  return first_statement_word(text) == "shp";
}

std::vector<uint8_t> assemble_model(std::string_view text, const std::string& source) {
  std::vector<uint8_t> out;
  bool started = false, ended = false, trailing = false;
  std::optional<size_t> chunk_at;  // where the open chunk's header stands in `out`
  uint16_t tag = 0, size = 0;
  size_t records = 0;
  auto close_chunk = [&](const Line& line) {
    if (!chunk_at) return;
    if (records > kMaxRecords)
      line.fail(fmt::format("chunk {:02X} has {} records; a chunk counts at most {}", tag, records,
                            kMaxRecords));
    put_u16(out, *chunk_at + 4, static_cast<uint16_t>(records));
    chunk_at.reset();
  };
  size_t number = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++number;
    const Line line(source, number);
    const auto words = words_of(raw, line);
    if (words.empty()) continue;
    const std::string& head = words[0];
    if (!started) {
      if (head != "shp") line.fail(fmt::format("expected the statement shp first, found {}", head));
      started = true;
      continue;
    }
    if (trailing || (ended && head != "trailing"))
      line.fail(fmt::format("{} after the end of the model", head));
    if (head == "chunk") {
      close_chunk(line);
      if (words.size() < 2) line.fail("chunk: expected the tag in hex");
      tag = static_cast<uint16_t>(parse_unsigned("0x" + words[1], 0xFFFE, line, "chunk tag"));
      std::optional<uint16_t> given;
      for (size_t w = 2; w < words.size(); ++w) {
        if (w == 2 && words[w].find('=') == std::string::npos) {
          if (words[w] != tag_name(tag))
            line.fail(fmt::format("chunk {:02X} is {}, not {}", tag,
                                  *tag_name(tag) ? tag_name(tag)
                                                 : "a tag the loader never "
                                                   "asks for",
                                  words[w]));
          continue;
        }
        const Item item = split_item(words[w], line);
        if (item.key != "size") line.fail(fmt::format("chunk: unknown item {}", item.key));
        given = static_cast<uint16_t>(parse_unsigned(item.value, 0xFFFF, line, "size"));
      }
      if (!given) line.fail("chunk: expected size=RECORD_SIZE");
      size = *given;
      chunk_at = out.size();
      out.resize(out.size() + 6);
      put_u16(out, *chunk_at, tag);
      put_u16(out, *chunk_at + 2, size);
      records = 0;
    } else if (head == "end") {
      close_chunk(line);
      uint16_t end_size = 0, end_count = 0;
      std::optional<size_t> cut;
      for (size_t w = 1; w < words.size(); ++w) {
        const Item item = split_item(words[w], line);
        if (item.key == "size") {
          end_size = static_cast<uint16_t>(parse_unsigned(item.value, 0xFFFF, line, "size"));
        } else if (item.key == "count") {
          end_count = static_cast<uint16_t>(parse_unsigned(item.value, 0xFFFF, line, "count"));
        } else if (item.key == "cut") {
          cut = parse_unsigned(item.value, 5, line, "cut");
          if (*cut < 2) line.fail("cut: the terminator keeps at least its 2-byte tag");
        } else {
          line.fail(fmt::format("end: unknown item {}", item.key));
        }
      }
      const size_t at = out.size();
      out.resize(at + 6);
      put_u16(out, at, 0xFFFF);
      put_u16(out, at + 2, end_size);
      put_u16(out, at + 4, end_count);
      if (cut) out.resize(at + *cut);
      ended = true;
    } else if (head == "trailing") {
      if (!ended) line.fail("trailing bytes stand after end");
      if (words.size() != 2) line.fail("trailing: expected one run of hex bytes");
      const auto bytes = parse_hex(words[1], line, "trailing");
      out.insert(out.end(), bytes.begin(), bytes.end());
      trailing = true;
    } else {
      if (!chunk_at)
        line.fail(fmt::format("{}: a record outside a chunk (or an unknown statement)", head));
      if (head != record_keyword(tag))
        line.fail(fmt::format("{}: chunk {:02X} holds {} records", head, tag, record_keyword(tag)));
      with_record_type(tag, [&](auto r) {
        assemble_record<decltype(r)>(tag, size, words, line, out);
        return 0;
      });
      ++records;
    }
  }
  if (!started) throw InputError(source, "expected the statement shp (an empty text)");
  if (!ended) throw InputError(source, "expected end (the terminator) before the text ends");
  return out;
}

}  // namespace shapevm::shp
