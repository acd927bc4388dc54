#include "interp/apache/archive_cache.h"

#include <mutex>

namespace shapevm::apache {

namespace {

// An archive with the bytes it views, so that a cached archive never outlives them.
struct HeldArchive {
  HeldArchive(const SharedBytes& held, const std::string& source)
      : bytes(held), archive(bytes.span(), source) {}
  SharedBytes bytes;
  Archive archive;
};

// The last archive parsed, held (with its bytes) until another replaces it: the sessions of a
// batch open one after another, each after the last one closed. Its bytes being alive, storage
// at the same address with the same size is the same storage.
struct LastArchive {
  std::mutex lock;
  std::shared_ptr<const Archive> archive;
  const uint8_t* data = nullptr;
  size_t size = 0;
  std::string source;
};

}  // namespace

std::shared_ptr<const Archive> shared_archive(const SharedBytes& bytes, const std::string& source) {
  static LastArchive last;
  {
    const std::lock_guard<std::mutex> held(last.lock);
    if (last.archive && last.data == bytes.data() && last.size == bytes.size() &&
        last.source == source)
      return last.archive;
  }
  const auto parsed = std::make_shared<const HeldArchive>(bytes, source);
  std::shared_ptr<const Archive> archive(parsed, &parsed->archive);
  const std::lock_guard<std::mutex> held(last.lock);
  last.archive = archive;
  last.data = bytes.data();
  last.size = bytes.size();
  last.source = source;
  return archive;
}

}  // namespace shapevm::apache
