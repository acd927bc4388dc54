// EALIB (.LIB) containers as Fighters Anthology ships them: "EALIB", u16 count, 18-byte entries
// {char[13] name, u8 flags, u32 absolute offset}, an 18-byte terminator whose offset is the file
// size, then the member data. Flags 0 = stored, 4 = PKWare DCL with a u32 size prefix; flags 1
// (LZSS) and 3 (PXPK) are reported as unsupported, never returned still compressed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shapevm::fa {

struct LibEntry {
  std::string name;       // as stored (8.3), e.g. "A10.SH"
  uint8_t flags = 0;      // 0 stored, 1 LZSS, 3 PXPK, 4 DCL
  uint32_t offset = 0;    // absolute offset of the member's stored bytes
  uint32_t stored_size = 0;
  // Unpacked size: stored_size for flags 0, the u32 size prefix for flags 4, 0 when unknown.
  uint32_t unpacked_size = 0;
};

class EaLib {
 public:
  // Parses the directory; throws InputError (file, offset, expectation) on any inconsistency.
  // `data` must outlive the EaLib.
  EaLib(std::span<const uint8_t> data, std::string source);

  const std::vector<LibEntry>& entries() const { return entries_; }
  // Case-insensitive exact-name lookup; nullptr if absent.
  const LibEntry* find(std::string_view name) const;
  // The member's bytes, decompressed. Throws InputError for unsupported flags or a bad stream;
  // the error's source is "LIB:MEMBER".
  std::vector<uint8_t> extract(const LibEntry& entry) const;
  const std::string& source() const { return source_; }

 private:
  std::span<const uint8_t> data_;
  std::string source_;
  std::vector<LibEntry> entries_;
};

}  // namespace shapevm::fa
