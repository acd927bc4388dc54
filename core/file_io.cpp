#include "core/file_io.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
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
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError(path.string(), "no such file (or not a regular file)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), fmt::format("cannot open: {}", std::strerror(errno)));
  std::vector<uint8_t> data;
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::streamoff>(in.tellg());
  in.seekg(0, std::ios::beg);
  data.resize(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
    throw InputError(path.string(), "read failed");
  }
  return data;
}

void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes,
                       Overwrite overwrite) {
  std::error_code ec;
  if (overwrite == Overwrite::kRefuse && std::filesystem::exists(path, ec)) {
    throw InputError(path.string(), "already exists (not overwritten; pass --force to replace it)");
  }
  auto tmp = path;
  tmp += temporary_suffix();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(tmp.string(), fmt::format("cannot create: {}", std::strerror(errno)));
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw InputError(tmp.string(), "write failed");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw InputError(path.string(), fmt::format("cannot rename into place: {}", ec.message()));
  }
}

void write_text_atomic(const std::filesystem::path& path, const std::string& text,
                       Overwrite overwrite) {
  write_file_atomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
      overwrite);
}

}  // namespace shapevm
