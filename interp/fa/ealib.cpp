// EALIB directory parsing and member extraction (layout in ealib.h).
//
// The directory is validated completely up front, so that every LibEntry handed out describes a
// byte range inside the file and extract() only has to worry about the member's own contents.
#include "interp/fa/ealib.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/fa/dcl_explode.h"

namespace shapevm::fa {
namespace {

constexpr char kMagic[] = "EALIB";
constexpr size_t kMagicSize = 5;
constexpr size_t kNameSize = 13;  // 8.3 name (at most 12 characters) plus its NUL
constexpr size_t kFlagsField = 0x0D;
constexpr size_t kOffsetField = 0x0E;

constexpr uint8_t kFlagsStored = 0;
constexpr uint8_t kFlagsLzss = 1;
constexpr uint8_t kFlagsPxpk = 3;
constexpr uint8_t kFlagsDcl = 4;

constexpr size_t kDclSizePrefix = 4;
// No Fighters Anthology member comes close; the limit keeps a corrupt size prefix from making
// the decoder allocate gigabytes.
constexpr uint32_t kMaxUnpackedSize = 64u << 20;

char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}

// Bytes as a quoted string with anything unprintable escaped, for "found ..." messages.
std::string quote_bytes(std::span<const uint8_t> bytes) {
  std::string out = "\"";
  for (uint8_t b : bytes) {
    if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
      out.push_back(static_cast<char>(b));
    } else {
      out += fmt::format("\\x{:02x}", b);
    }
  }
  return out + "\"";
}

}  // namespace

const char* compression_name(uint8_t flags) {
  switch (flags) {
    case kFlagsStored:
      return "stored";
    case kFlagsLzss:
      return "lzss";
    case kFlagsPxpk:
      return "pxpk";
    case kFlagsDcl:
      return "dcl";
    default:
      return "unknown";
  }
}

EaLib::EaLib(std::span<const uint8_t> data, std::string source, MemberSizes sizes)
    : data_(data), source_(std::move(source)) {
  ByteReader in(data_, source_);
  auto magic = in.bytes(0, kMagicSize, "the EALIB magic");
  if (std::memcmp(magic.data(), kMagic, kMagicSize) != 0) {
    in.fail(0, fmt::format("expected the magic \"EALIB\", found {}", quote_bytes(magic)));
  }
  const size_t count = in.u16(kEaLibCountOffset, "the member count");
  const size_t directory_end =
      kEaLibDirectoryOffset + count * kEaLibEntryBytes;  // without the terminator

  entries_.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const size_t entry_at = kEaLibDirectoryOffset + i * kEaLibEntryBytes;
    auto raw =
        in.bytes(entry_at, kEaLibEntryBytes, fmt::format("directory entry {} of {}", i + 1, count));
    auto name_end = std::find(raw.begin(), raw.begin() + kNameSize, uint8_t{0});
    if (name_end == raw.begin() + kNameSize) {
      in.fail(entry_at, fmt::format("expected the name of directory entry {} to end with a NUL "
                                    "within {} bytes, found {}",
                                    i + 1, kNameSize, quote_bytes(raw.first(kNameSize))));
    }
    LibEntry entry;
    entry.name.assign(raw.begin(), name_end);
    entry.flags = raw[kFlagsField];
    entry.offset = load_u32(raw.data() + kOffsetField);
    entries_.push_back(std::move(entry));
  }

  // The terminator is normally there, but some files stop right after the last entry. Data
  // starts immediately after the directory, so a first member starting where the terminator
  // would be means there is none.
  has_terminator_ =
      count == 0 ? data_.size() != directory_end : entries_.front().offset != directory_end;
  size_t data_start = directory_end;
  size_t data_end = data_.size();
  if (has_terminator_) {
    auto terminator = in.bytes(directory_end, kEaLibEntryBytes, "the 18-byte directory terminator");
    if (std::any_of(terminator.begin(), terminator.begin() + kOffsetField,
                    [](uint8_t b) { return b != 0; })) {
      in.fail(directory_end,
              fmt::format("expected the directory terminator after {} entries (14 zero bytes), "
                          "found {}",
                          count, quote_bytes(terminator.first(kOffsetField))));
    }
    const uint32_t end_offset = load_u32(terminator.data() + kOffsetField);
    if (end_offset != data_.size()) {
      in.fail(directory_end + kOffsetField,
              fmt::format("expected the terminator's offset to equal the file size 0x{:x} ({} "
                          "bytes), found 0x{:x} ({})",
                          data_.size(), data_.size(), end_offset, end_offset));
    }
    data_start = directory_end + kEaLibEntryBytes;
    data_end = end_offset;
  }

  for (size_t i = 0; i < entries_.size(); ++i) {
    LibEntry& entry = entries_[i];
    const size_t field_at = kEaLibDirectoryOffset + i * kEaLibEntryBytes + kOffsetField;
    if (entry.offset > data_.size()) {
      in.fail(field_at, fmt::format("expected member {} to start inside the file ({} bytes), but "
                                    "its offset is 0x{:x}",
                                    entry.name, data_.size(), entry.offset));
    }
    if (entry.offset < data_start) {
      in.fail(field_at, fmt::format("expected member {} to start after the directory (at 0x{:x} "
                                    "or later), but its offset is 0x{:x}",
                                    entry.name, data_start, entry.offset));
    }
    if (i > 0 && entry.offset < entries_[i - 1].offset) {
      in.fail(field_at,
              fmt::format("expected member offsets in increasing order, but {} starts "
                          "at 0x{:x}, before {} at 0x{:x}",
                          entry.name, entry.offset, entries_[i - 1].name, entries_[i - 1].offset));
    }
  }

  // Each member runs up to the next one; the last up to the terminator's offset (or EOF).
  for (size_t i = 0; i < entries_.size(); ++i) {
    LibEntry& entry = entries_[i];
    const size_t next = i + 1 < entries_.size() ? entries_[i + 1].offset : data_end;
    entry.stored_size = static_cast<uint32_t>(next - entry.offset);
    if (entry.flags == kFlagsStored) {
      entry.unpacked_size = entry.stored_size;
      entry.unpacked_size_known = true;
    } else if (entry.flags == kFlagsDcl && entry.stored_size >= kDclSizePrefix &&
               sizes == MemberSizes::kRead) {
      entry.unpacked_size = load_u32(data_.data() + entry.offset);
      entry.unpacked_size_known = true;
    }
  }
}

const LibEntry* EaLib::find(std::string_view name) const {
  for (const LibEntry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  for (const LibEntry& entry : entries_) {
    if (equal_ignoring_case(entry.name, name)) return &entry;
  }
  if (const auto index = member_index(std::string(name)); index && *index < entries_.size())
    return &entries_[*index];
  return nullptr;
}

void EaLib::check_supported(const LibEntry& entry) const {
  if (entry.flags == kFlagsStored || entry.flags == kFlagsDcl) return;
  const std::string member_source = source_ + ":" + entry.name;
  if (entry.flags == kFlagsLzss || entry.flags == kFlagsPxpk) {
    throw InputError(
        member_source,
        fmt::format("member {} uses compression flags {} ({}), which shapevm does "
                    "not decode",
                    entry.name, entry.flags, entry.flags == kFlagsLzss ? "LZSS" : "PXPK"));
  }
  throw InputError(member_source,
                   fmt::format("member {} has unknown compression flags {} (expected 0 = stored "
                               "or 4 = DCL)",
                               entry.name, entry.flags));
}

std::vector<uint8_t> EaLib::extract(const LibEntry& entry) const {
  // Entries come from this EaLib's validated directory; a hand-made one could point anywhere.
  if (entry.offset > data_.size() || entry.stored_size > data_.size() - entry.offset) {
    throw std::out_of_range(
        fmt::format("{}: entry {} does not describe a range of this library", source_, entry.name));
  }
  check_supported(entry);
  const std::span<const uint8_t> stored = data_.subspan(entry.offset, entry.stored_size);
  if (entry.flags == kFlagsStored) return {stored.begin(), stored.end()};

  const std::string member_source = source_ + ":" + entry.name;
  if (stored.size() < kDclSizePrefix) {
    throw InputError(member_source, 0,
                     fmt::format("expected a 4-byte decompressed-size prefix before the DCL "
                                 "stream, but the member is only {} bytes long",
                                 stored.size()));
  }
  const uint32_t claimed = load_u32(stored.data());
  if (claimed > kMaxUnpackedSize) {
    throw InputError(member_source, 0,
                     fmt::format("expected a decompressed size of at most 64 MiB ({} bytes), but "
                                 "the size prefix claims {} bytes",
                                 kMaxUnpackedSize, claimed));
  }
  std::vector<uint8_t> out;
  try {
    out = dcl_explode(stored.subspan(kDclSizePrefix), member_source, claimed);
  } catch (const InputError& e) {
    // The decoder counts from the start of the DCL stream; report offsets within the member.
    if (!e.has_offset()) throw;
    throw InputError(e.source(), e.offset() + kDclSizePrefix, e.expected());
  }
  if (out.size() != claimed) {
    throw InputError(member_source, 0,
                     fmt::format("expected {} bytes as the size prefix claims, but the DCL stream "
                                 "ends after producing {} bytes",
                                 claimed, out.size()));
  }
  return out;
}

}  // namespace shapevm::fa
