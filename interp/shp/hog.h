// Starlancer's .HOG containers (EA "BIGF", docs/shp.md): a big-endian header {magic, archive size,
// member count, first member offset}, a packed directory at 0x10 of {u32 offset, u32 size,
// NUL-terminated name}, then the members. Names may repeat or differ only by case; a member is
// RefPack-compressed when it starts `10 FB`, otherwise stored as it is used.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shapevm::shp {

inline constexpr size_t kHogHeaderSize = 16;
inline constexpr size_t kHogDirectoryStart = 0x10;

struct HogEntry {
  uint32_t index = 0;
  uint32_t entry_offset = 0;  // where its directory entry stands
  uint32_t offset = 0;        // where its bytes start
  uint32_t size = 0;          // stored bytes
  std::string name;
};

struct Hog {
  uint32_t declared_size = 0;      // the header's archive size
  uint32_t declared_count = 0;     // the header's entry count
  uint32_t data_offset = 0;        // the header's first member offset
  std::vector<HogEntry> entries;   // the plausible entries, up to the first implausible one
  std::vector<std::string> notes;  // what was odd: an implausible entry, a size mismatch
};

// Whether `bytes` starts as a BIGF container with a plausible header.
bool looks_like_hog(std::span<const uint8_t> bytes);

// Reads the header and directory. InputError (source, offset, expectation) when the header is
// short or its counts cannot hold; the directory stops at the first implausible entry (a member
// outside the file or before the data, a name without its NUL), which `notes` describes.
Hog read_hog(std::span<const uint8_t> bytes, const std::string& source);

// The member `name` names: "#N" by index, else the first exact match, else the first
// case-insensitive match; nullptr when none.
const HogEntry* find_member(const Hog& hog, const std::string& name);

// A member's stored bytes.
std::span<const uint8_t> member_bytes(std::span<const uint8_t> file, const HogEntry& entry);

// A member as the engine uses it: RefPack-decompressed when it starts `10 FB`, otherwise verbatim.
std::vector<uint8_t> member_image(std::span<const uint8_t> file, const HogEntry& entry,
                                  const std::string& source);

// A HOG of `members` (name, stored bytes), in order.
std::vector<uint8_t> write_hog(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& members);

}  // namespace shapevm::shp
