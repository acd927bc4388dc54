// EALIB (.LIB) containers as Fighters Anthology ships them: "EALIB", u16 count, 18-byte entries
// {char[13] name, u8 flags, u32 absolute offset}, an 18-byte terminator whose offset is the file
// size, then the member data. Flags 0 = stored, 4 = PKWare DCL with a u32 size prefix; flags 1
// (LZSS) and 3 (PXPK) are reported as unsupported, never returned still compressed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::fa {

// Where an EALIB's u16 member count and its directory are, and how long each entry (and the
// terminator) is.
inline constexpr size_t kEaLibCountOffset = 0x05;
inline constexpr size_t kEaLibDirectoryOffset = 0x07;
inline constexpr size_t kEaLibEntryBytes = 18;

struct LibEntry {
  std::string name;     // as stored (8.3), e.g. "A10.SH"
  uint8_t flags = 0;    // 0 stored, 1 LZSS, 3 PXPK, 4 DCL
  uint32_t offset = 0;  // absolute offset of the member's stored bytes
  uint32_t stored_size = 0;
  // Unpacked size: stored_size for flags 0, the u32 size prefix for flags 4, 0 when unknown.
  uint32_t unpacked_size = 0;
  // False when unpacked_size is unknown (flags 1/3/other, or a DCL member too short for its
  // size prefix), so a listing can tell "unknown" from a genuinely empty member.
  bool unpacked_size_known = false;
};

// A word for a flags value, for listings: "stored", "lzss", "pxpk", "dcl" or "unknown".
const char* compression_name(uint8_t flags);

class EaLib {
 public:
  // Whether the constructor reads each DCL member's unpacked size from the member's first bytes.
  // kSkipped leaves those sizes unknown, for a caller that extracts members by name (extract()
  // reads a member's size itself): it then reads nothing past the directory, so a file loaded
  // only in its directory and one member (core/partial_file.h) serves it.
  enum class MemberSizes { kRead, kSkipped };
  // Parses the directory; throws InputError (file, offset, expectation) on any inconsistency.
  // `data` must outlive the EaLib.
  EaLib(std::span<const uint8_t> data, std::string source, MemberSizes sizes = MemberSizes::kRead);
  // A temporary buffer would dangle as soon as the constructor returns.
  EaLib(std::vector<uint8_t>&& data, std::string source) = delete;

  const std::vector<LibEntry>& entries() const { return entries_; }
  // The member `name` names, by the rule every FILE:MEMBER follows: the first of exactly that
  // name, else the first that differs only by case, else "#N" (0-based position); nullptr if
  // none.
  const LibEntry* find(std::string_view name) const;
  // The member's bytes, decompressed. Throws InputError for unsupported flags or a bad stream;
  // the error's source is "LIB:MEMBER" and its offset counts from the start of the member's
  // stored bytes (for flags 4 the size prefix is at 0 and the DCL stream starts at 4).
  std::vector<uint8_t> extract(const LibEntry& entry) const;
  // Throws the InputError extract() would throw for a member whose flags shapevm cannot
  // decode (1, 3 or unknown), without decoding anything; callers use it to refuse early.
  void check_supported(const LibEntry& entry) const;
  const std::string& source() const { return source_; }
  // False for a file without the 18-byte directory terminator: its last member runs to the end
  // of the file. Such files are accepted; listings mention it.
  bool has_terminator() const { return has_terminator_; }

 private:
  std::span<const uint8_t> data_;
  std::string source_;
  std::vector<LibEntry> entries_;
  bool has_terminator_ = true;
};

}  // namespace shapevm::fa
