#include "core/regular_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/input_error.h"

namespace shapevm::core {

RegularFile::RegularFile(const std::filesystem::path& path) : path_(path) {
  // O_NONBLOCK only so that opening a FIFO does not wait for a writer (it is refused below); it
  // changes nothing for a regular file.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR)
      throw InputError(path.string(), "no such file (or not a regular file)");
    throw InputError(path.string(), fmt::format("cannot open: {}", std::strerror(error)));
  }
  if (::fstat(fd_, &info_) != 0) {
    const int error = errno;
    ::close(fd_);
    throw InputError(path.string(), fmt::format("cannot open: {}", std::strerror(error)));
  }
  if (!S_ISREG(info_.st_mode)) {
    ::close(fd_);
    throw InputError(path.string(), "no such file (or not a regular file)");
  }
}

RegularFile::~RegularFile() {
  ::close(fd_);
}

void RegularFile::read_at(uint64_t offset, uint8_t* into, size_t length) const {
  size_t done = 0;
  while (done < length) {
    const ssize_t got = ::pread(fd_, into + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw InputError(path_.string(), fmt::format("read failed: {}", std::strerror(errno)));
    if (got == 0) {
      throw InputError(path_.string(),
                       fmt::format("read failed: the file ended at byte {} of the {} "
                                   "it had when opened",
                                   offset + done, size()));
    }
    done += static_cast<size_t>(got);
  }
}

}  // namespace shapevm::core
