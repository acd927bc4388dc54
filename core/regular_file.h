// A regular file opened for reading, for the readers in file_io.cpp and partial_file.cpp.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace shapevm::core {

class RegularFile {
 public:
  // Opens `path`; InputError naming it when it is missing, unreadable or not a regular file (a
  // folder, a device, a FIFO: opening one does not wait for a writer).
  explicit RegularFile(const std::filesystem::path& path);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  const struct stat& info() const { return info_; }
  size_t size() const { return static_cast<size_t>(info_.st_size); }
  // Reads `length` bytes at `offset` into `into`. InputError naming the file when the read fails
  // or the file ends before offset + length (it was shortened since it was opened).
  void read_at(uint64_t offset, uint8_t* into, size_t length) const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  struct stat info_ {};
};

}  // namespace shapevm::core
