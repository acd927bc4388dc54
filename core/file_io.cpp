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
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "core/input_error.h"
#include "core/read_buffer.h"
#include "core/regular_file.h"

namespace shapevm {

std::string temporary_suffix() {
  // Unique per process, per thread and per call: two threads writing the same destination (a
  // capture several regress cases share) never write into one temporary file.
  static std::atomic<uint64_t> counter{0};
  const auto thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return fmt::format(".tmp{}.{:x}.{}", static_cast<long>(::getpid()), thread,
                     counter.fetch_add(1, std::memory_order_relaxed));
}

namespace {

// Which file a read found: a file replaced, rewritten or touched since has another identity.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  int64_t modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

FileIdentity identity_of(const struct stat& info) {
  return {info.st_dev, info.st_ino, info.st_size,
          int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec};
}

// Reads the whole regular file `path` into the buffer `allocate(size)` returns and gives the
// identity of the file read. One open, one fstat and one read for a whole file: runs over corpora
// read thousands of small files, and a stream's stat, seeks, buffered reads and EOF probe were a
// third of `info`'s time.
template <typename Allocate>
FileIdentity read_whole_file(const std::filesystem::path& path, Allocate&& allocate) {
  const core::RegularFile file(path);
  uint8_t* data = allocate(file.size());
  file.read_at(0, data, file.size());
  return identity_of(file.info());
}

// The reads read_file_shared() may hand out again: each file's last read, while anything holds
// it. Entries whose bytes nobody holds are dropped as new reads come in.
struct SharedReads {
  struct Entry {
    FileIdentity identity;
    std::weak_ptr<const uint8_t[]> bytes;
    size_t size = 0;
  };
  std::mutex lock;
  std::map<std::string, Entry> entries;
};

SharedReads& shared_reads() {
  static SharedReads reads;
  return reads;
}

}  // namespace

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::vector<uint8_t> data;
  read_whole_file(path, [&](size_t size) {
    data.resize(size);
    return data.data();
  });
  return data;
}

std::optional<SharedBytes> held_file_read(const std::filesystem::path& path) {
  SharedReads& reads = shared_reads();
  // Only a read still held is worth the stat that tells whether the file is unchanged (a run over
  // a corpus reads each file once).
  std::shared_ptr<const uint8_t[]> bytes;
  SharedReads::Entry entry;
  {
    const std::lock_guard<std::mutex> held(reads.lock);
    const auto found = reads.entries.find(path.string());
    if (found != reads.entries.end()) {
      entry = found->second;
      bytes = entry.bytes.lock();
    }
  }
  struct stat info {};
  if (bytes && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
      entry.identity == identity_of(info))
    return SharedBytes(bytes, std::span<const uint8_t>(bytes.get(), entry.size));
  return std::nullopt;
}

SharedBytes read_file_shared(const std::filesystem::path& path) {
  if (std::optional<SharedBytes> held = held_file_read(path)) return *std::move(held);
  // Read afresh into a buffer left uninitialised (every byte is read into it): zeroing a large
  // container first cost as much as reading it. Allocated apart from the shared count (not
  // make_shared), so that the weak entry left here frees no later than its last holder does; a
  // large one in huge pages (core/read_buffer.h).
  std::shared_ptr<uint8_t[]> bytes;
  size_t size = 0;
  const FileIdentity identity = read_whole_file(path, [&](size_t n) {
    bytes = core::allocate_read_buffer(n);
    size = n;
    return bytes.get();
  });
  SharedReads& reads = shared_reads();
  const std::lock_guard<std::mutex> held(reads.lock);
  std::erase_if(reads.entries, [](const auto& entry) { return entry.second.bytes.expired(); });
  reads.entries.insert_or_assign(path.string(), SharedReads::Entry{identity, bytes, size});
  const std::span<const uint8_t> view(bytes.get(), size);
  return SharedBytes(std::move(bytes), view);
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
