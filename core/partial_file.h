// A file read only in the parts asked for. A command that opens one member of a large container
// needs the container's directory and that member, not the rest: reading a 58 MB Starlancer
// resource.hog whole, for one member, was most of such a process's time (the kernel giving it
// zeroed memory for the whole file, then the copy into it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/regular_file.h"
#include "core/shared_bytes.h"

namespace shapevm {

class PartialFile {
 public:
  // Opens `path` and reads nothing yet. InputError as read_file's.
  explicit PartialFile(const std::filesystem::path& path);

  uint64_t size() const { return file_.size(); }
  // Reads the bytes [offset, offset + length) that are in the file (nothing past its end) unless
  // they were read already. InputError naming the file when the read fails.
  void load(uint64_t offset, uint64_t length);
  // The whole file's layout: every byte at its offset in the file, the parts loaded so far
  // holding the file's bytes and every other part zero (memory those parts never take).
  std::span<const uint8_t> bytes() const { return {buffer_.get(), size()}; }
  // bytes(), held by the returned value as long as it lives (the PartialFile may go first).
  SharedBytes shared() const { return SharedBytes(buffer_, bytes()); }
  // How many bytes load() has read.
  uint64_t loaded_bytes() const;

 private:
  core::RegularFile file_;
  std::shared_ptr<uint8_t[]> buffer_;
  std::vector<std::pair<uint64_t, uint64_t>> loaded_;  // [begin, end), sorted, apart
};

}  // namespace shapevm
