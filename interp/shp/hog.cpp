#include "interp/shp/hog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/shp/refpack.h"

namespace shapevm::shp {
namespace {

uint32_t be32(std::span<const uint8_t> b, size_t at) {
  return load_u32_be(b.data() + at);
}

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

bool iequal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool looks_like_hog(std::span<const uint8_t> b) {
  if (b.size() < kHogHeaderSize || !std::equal(b.begin(), b.begin() + 4, "BIGF")) return false;
  const uint32_t data = be32(b, 12);
  return data >= kHogHeaderSize && data <= b.size();
}

Hog read_hog(std::span<const uint8_t> b, const std::string& source) {
  const ByteReader r(b, source);
  r.require(0, kHogHeaderSize, "a BIGF header (magic, archive size, count, data offset)");
  if (!std::equal(b.begin(), b.begin() + 4, "BIGF")) r.fail(0, "expected the magic BIGF");
  Hog hog;
  hog.declared_size = be32(b, 4);
  hog.declared_count = be32(b, 8);
  hog.data_offset = be32(b, 12);
  if (hog.data_offset < kHogHeaderSize || hog.data_offset > b.size()) {
    r.fail(12, fmt::format("expected the first member offset within 16..{} (the file's size), "
                           "found {}",
                           b.size(), hog.data_offset));
  }
  // Each entry takes at least 9 bytes (offset, size, an empty name's NUL).
  if (uint64_t{hog.declared_count} * 9 > hog.data_offset - kHogHeaderSize) {
    r.fail(8, fmt::format("expected a member count whose directory fits before the data at "
                          "0x{:x}, found {}",
                          hog.data_offset, hog.declared_count));
  }
  if (hog.declared_size != b.size()) {
    hog.notes.push_back(fmt::format("the header's archive size {} is not the file's size {}",
                                    hog.declared_size, b.size()));
  }
  size_t at = kHogDirectoryStart;
  for (uint32_t i = 0; i < hog.declared_count; ++i) {
    HogEntry e;
    e.index = i;
    e.entry_offset = static_cast<uint32_t>(at);
    std::string why;
    if (at + 9 > hog.data_offset) {
      why = "its entry runs into the data";
    } else {
      e.offset = be32(b, at);
      e.size = be32(b, at + 4);
      const auto name_begin = b.begin() + static_cast<ptrdiff_t>(at + 8);
      const auto dir_end = b.begin() + hog.data_offset;
      const auto nul = std::find(name_begin, dir_end, uint8_t{0});
      if (nul == dir_end) {
        why = "its name has no NUL before the data";
      } else if (e.offset < hog.data_offset || uint64_t{e.offset} + e.size > b.size()) {
        why =
            fmt::format("its member (offset 0x{:x}, {} bytes) lies outside the data 0x{:x}..0x{:x}",
                        e.offset, e.size, hog.data_offset, b.size());
      } else {
        e.name.assign(name_begin, nul);
        if (std::any_of(e.name.begin(), e.name.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
          why = "its name holds control characters";
        at = static_cast<size_t>(nul - b.begin()) + 1;
      }
    }
    if (!why.empty()) {
      hog.notes.push_back(fmt::format(
          "directory entry {} at 0x{:x} is implausible ({}): the directory is read up to it, {} "
          "of the {} entries the header counts (the shipped pilots.hog and msspeech.hog count "
          "one filler entry)",
          i, e.entry_offset, why, i, hog.declared_count));
      break;
    }
    hog.entries.push_back(std::move(e));
  }
  return hog;
}

const HogEntry* find_member(const Hog& hog, const std::string& name) {
  if (const auto index = member_index(name)) {
    for (const HogEntry& e : hog.entries)
      if (e.index == *index) return &e;
    return nullptr;
  }
  for (const HogEntry& e : hog.entries)
    if (e.name == name) return &e;
  for (const HogEntry& e : hog.entries)
    if (iequal(e.name, name)) return &e;
  return nullptr;
}

std::span<const uint8_t> member_bytes(std::span<const uint8_t> file, const HogEntry& entry) {
  return file.subspan(entry.offset, entry.size);
}

std::vector<uint8_t> member_image(std::span<const uint8_t> file, const HogEntry& entry,
                                  const std::string& source) {
  const auto stored = member_bytes(file, entry);
  if (starts_refpack(stored)) return refpack_decompress(stored, source);
  return {stored.begin(), stored.end()};
}

std::vector<uint8_t> write_hog(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& members) {
  uint64_t directory = 0;
  for (const auto& [name, bytes] : members) directory += 8 + name.size() + 1;
  uint64_t total = kHogHeaderSize + directory;
  const uint64_t data = total;
  for (const auto& [name, bytes] : members) total += bytes.size();
  if (total > UINT32_MAX) throw InputError("HOG writer", "the archive would exceed 4 GiB");
  std::vector<uint8_t> out;
  out.reserve(total);
  for (char c : std::string_view("BIGF")) out.push_back(static_cast<uint8_t>(c));
  put_be32(out, static_cast<uint32_t>(total));
  put_be32(out, static_cast<uint32_t>(members.size()));
  put_be32(out, static_cast<uint32_t>(data));
  uint64_t offset = data;
  for (const auto& [name, bytes] : members) {
    put_be32(out, static_cast<uint32_t>(offset));
    put_be32(out, static_cast<uint32_t>(bytes.size()));
    out.insert(out.end(), name.begin(), name.end());
    out.push_back(0);
    offset += bytes.size();
  }
  for (const auto& [name, bytes] : members) out.insert(out.end(), bytes.begin(), bytes.end());
  return out;
}

}  // namespace shapevm::shp
