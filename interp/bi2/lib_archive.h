// Blue Byte's .LIB archive as Battle Isle 2 ships it (docs/bi2.md, "LIB"): a u32 LE at offset 0
// gives where the index starts; the index runs to the end of the file as 12-byte entries
// {char[8] name, u32 LE offset}; a member runs from its offset to the next entry's, the last to
// the index. There is no count field: the count is (size - index) / 12, which must be whole.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shapevm::bi2 {

inline constexpr uint32_t kLibEntryBytes = 12;
inline constexpr uint32_t kLibNameBytes = 8;

struct LibMember {
  std::string name;      // the 8-byte name with its NUL/space padding trimmed
  std::string raw_name;  // the 8 bytes as stored
  uint32_t index = 0;
  uint32_t offset = 0;
  uint32_t size = 0;  // stored bytes
};

class LibArchive {
 public:
  // InputError (source, offset, expectation) when the index offset, the count or an entry's
  // offset breaks the rules above. The archive views `bytes`; keep them alive.
  LibArchive(std::span<const uint8_t> bytes, std::string source);

  const std::string& source() const { return source_; }
  uint32_t index_offset() const { return index_; }
  const std::vector<LibMember>& members() const { return members_; }
  std::span<const uint8_t> stored(const LibMember& m) const {
    return bytes_.subspan(m.offset, m.size);
  }
  // "#N" or a name (case-insensitive); InputError "SOURCE:MEMBER" naming what exists otherwise.
  const LibMember& find(const std::string& member) const;
  // The member's bytes, TPWM-unpacked (or XOR-decoded) when stored so. Source "LIB:NAME".
  std::vector<uint8_t> decoded(const LibMember& m) const;
  std::string member_source(const LibMember& m) const;

 private:
  std::span<const uint8_t> bytes_;
  std::string source_;
  uint32_t index_ = 0;
  std::vector<LibMember> members_;
};

// The structure LibArchive checks, without throwing (for recognition): also requires at least
// one member, names that are printable ASCII padded with NULs or spaces, and one name not empty.
bool looks_like_lib(std::span<const uint8_t> bytes);

// A LIB written from members (name, stored bytes) in order: data from offset 4, the index last.
struct LibEntry {
  std::string raw_name;  // up to 8 bytes; padded with NULs
  std::vector<uint8_t> bytes;
};
std::vector<uint8_t> write_lib(const std::vector<LibEntry>& entries);

}  // namespace shapevm::bi2
