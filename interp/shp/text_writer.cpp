#include "interp/shp/text_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "core/byte_reader.h"
#include "interp/shp/loader.h"
#include "interp/shp/records.h"

namespace shapevm::shp {
namespace {

std::string hex_bytes(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c > 0x7e) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

bool hex_field(std::string_view name) {
  return name.find("flags") != std::string_view::npos ||
         name.find("mask") != std::string_view::npos;
}

template <class T>
std::string scalar_text(std::string_view name, const T& v) {
  if constexpr (std::is_same_v<T, F32>) {
    return float_text(v.bits);
  } else if constexpr (std::is_unsigned_v<T>) {
    return hex_field(name) ? fmt::format("0x{:x}", v) : fmt::format("{}", v);
  } else {
    return fmt::format("{}", v);
  }
}

template <class T>
constexpr size_t width_of() {
  if constexpr (std::is_same_v<T, F32>) return 4;
  return sizeof(T);
}

// Prints the fields a record reaches.
struct Printer {
  size_t reached;
  std::string& out;
  // A field is printed when the record reaches any of its bytes (a field cut short by an odd
  // record size still carries the bytes it reaches).
  template <class T>
  void operator()(const char* name, size_t at, T& v) const {
    if (at >= reached) return;
    out += fmt::format(" {}={}", name, scalar_text(name, v));
  }
  template <class T, size_t N>
  void operator()(const char* name, size_t at, std::array<T, N>& v) const {
    if (at >= reached) return;
    // A partly reached array: the elements it reaches.
    out += fmt::format(" {}=", name);
    for (size_t i = 0; i < N && at + i * width_of<T>() < reached; ++i)
      out += (i ? "," : "") + scalar_text(name, v[i]);
  }
  void operator()(const char* name, size_t at, TextField f) const {
    if (at >= reached) return;
    out += fmt::format(" {}={}", name, quoted(f.value));
  }
};

template <class R>
std::string record_line(uint16_t tag, std::span<const uint8_t> bytes) {
  R r;
  constexpr size_t kStruct = kStructBytes<R>;
  const size_t reached = std::min(bytes.size(), kStruct);
  if constexpr (kStruct > 0) std::memcpy(r.image.bytes.data(), bytes.data(), reached);
  r.image.reached = static_cast<uint16_t>(reached);
  decode_fields(r);
  std::string out = fmt::format("  {}", record_keyword(tag));
  visit_fields(r, Printer{reached, out});
  // The bytes the fields do not account for: compare with the fields encoded over zeros.
  R blank = r;
  blank.image.bytes = {};
  const auto encoded = encode_fields(blank);
  for (size_t i = 0; i < reached;) {
    if (bytes[i] == encoded[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < reached && bytes[j] != encoded[j]) ++j;
    out += fmt::format(" raw@0x{:x}={}", i, hex_bytes(bytes.subspan(i, j - i)));
    i = j;
  }
  if (bytes.size() > kStruct) out += fmt::format(" tail={}", hex_bytes(bytes.subspan(kStruct)));
  return out;
}

}  // namespace

std::string float_text(uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  if (!std::isfinite(f)) return fmt::format("#{:08x}", bits);
  return fmt::format("{}", f);
}

std::vector<TextLine> model_text_lines(std::span<const uint8_t> image, const std::string& source) {
  std::vector<TextLine> out;
  out.push_back({std::nullopt, "; Starlancer .SHP model: its chunk stream (shapevm disasm)"});
  out.push_back({std::nullopt, "shp"});
  uint32_t at = 0;
  while (true) {
    const ChunkHeader h = read_chunk_header(image, at, source);
    if (h.terminator()) {
      const size_t left = image.size() - at;
      std::string line = "end";
      if (left >= kChunkHeaderSize) {
        const uint16_t size = load_u16(image.data() + at + 2),
                       count = load_u16(image.data() + at + 4);
        if (size != 0 || count != 0) line += fmt::format(" size={} count={}", size, count);
      } else {
        line += fmt::format(" cut={}", left);  // the file ends inside the terminator
      }
      out.push_back({at, line});
      if (left > kChunkHeaderSize)
        out.push_back({at + static_cast<uint32_t>(kChunkHeaderSize),
                       "trailing " + hex_bytes(image.subspan(at + kChunkHeaderSize))});
      break;
    }
    const char* name = tag_name(h.tag);
    out.push_back(
        {at, fmt::format("chunk {:02X}{}{} size={}{}", h.tag, *name ? " " : "", name, h.record_size,
                         h.count == 0 ? std::string("   ; no records")
                                      : fmt::format("   ; {} at 0x{:x}", h.count, at))});
    for (uint32_t i = 0; i < h.count; ++i) {
      const uint32_t from = at + static_cast<uint32_t>(kChunkHeaderSize) + i * h.record_size;
      const auto bytes = image.subspan(from, h.record_size);
      out.push_back({from, with_record_type(h.tag, [&](auto r) {
                       return record_line<decltype(r)>(h.tag, bytes);
                     })});
    }
    at = h.next;
  }
  return out;
}

std::string model_text(std::span<const uint8_t> image, const std::string& source) {
  std::string out;
  for (const TextLine& l : model_text_lines(image, source)) out += l.text + "\n";
  return out;
}

}  // namespace shapevm::shp
