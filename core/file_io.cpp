#include "core/file_io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <system_error>
#include <thread>

#include "core/input_error.h"

namespace shapevm {

std::string temporary_suffix() {
  // Unique per process, per thread and per call: two threads writing the same destination (a
  // capture several regress cases share) never write into one temporary file.
  static std::atomic<uint64_t> counter{0};
  const auto thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return fmt::format(".tmp{}.{:x}.{}", static_cast<long>(::getpid()), thread,
                     counter.fetch_add(1, std::memory_order_relaxed));
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  // One open, one fstat and one read for a whole file: runs over corpora read thousands of small
  // files, and a stream's stat, seeks, buffered reads and EOF probe were a third of `info`'s time.
  // O_NONBLOCK only so that opening a FIFO does not wait for a writer (it is refused below); it
  // changes nothing for a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      throw InputError(path.string(), "no such file (or not a regular file)");
    }
    throw InputError(path.string(), fmt::format("cannot open: {}", std::strerror(error)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    throw InputError(path.string(), fmt::format("cannot open: {}", std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode))
    throw InputError(path.string(), "no such file (or not a regular file)");
  std::vector<uint8_t> data(static_cast<size_t>(info.st_size));
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t got = ::read(fd, data.data() + done, data.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw InputError(path.string(), fmt::format("read failed: {}", std::strerror(errno)));
    if (got == 0) {
      throw InputError(path.string(),
                       fmt::format("read failed: the file ended at byte {} of the {} "
                                   "it had when opened",
                                   done, data.size()));
    }
    done += static_cast<size_t>(got);
  }
  return data;
}

void check_output_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path.string(),
                     "is a folder; name a file to write (for example one inside it)");
  // Also any other non-regular file: replacing a device (/dev/null) or a pipe by a renamed file
  // would destroy it, not write to it.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw InputError(path.string(),
                     "is not a regular file (a device, pipe or socket); name a file");
  const std::filesystem::path folder = path.parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
    throw InputError(path.string(),
                     fmt::format("cannot create: the folder {} does not exist", folder.string()));
}

void rename_into_place(const std::filesystem::path& tmp, const std::filesystem::path& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw InputError(path.string(), fmt::format("cannot replace: {}", std::strerror(error)));
  }
}

void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes,
                       Overwrite overwrite) {
  check_output_file(path);
  std::error_code ec;
  if (overwrite == Overwrite::kRefuse && std::filesystem::exists(path, ec)) {
    throw InputError(path.string(), "already exists (not overwritten; pass --force to replace it)");
  }
  auto tmp = path;
  tmp += temporary_suffix();
  // POSIX calls rather than a stream: their errno is the reason the user is told.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    throw InputError(path.string(), fmt::format("cannot create: {}", std::strerror(errno)));
  size_t done = 0;
  int error = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    std::filesystem::remove(tmp, ec);
    throw InputError(path.string(), fmt::format("write failed: {}", std::strerror(error)));
  }
  rename_into_place(tmp, path);
}

void write_text_atomic(const std::filesystem::path& path, const std::string& text,
                       Overwrite overwrite) {
  write_file_atomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
      overwrite);
}

}  // namespace shapevm
