#include "core/partial_file.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "core/read_buffer.h"

namespace shapevm {

namespace {

// Zero-filled memory of `size` bytes (at least one) that takes no page until one is written: an
// anonymous mapping, kept out of transparent huge pages, which would turn each part read into a
// zeroed 2 MiB page.
std::shared_ptr<uint8_t[]> untouched_buffer(size_t size) {
  const size_t length = std::max<size_t>(size, 1);
  void* block = ::mmap(nullptr, length, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (block == MAP_FAILED) throw std::bad_alloc();
  // Advice: a kernel without transparent huge pages refuses it (EINVAL) and has none to avoid.
  (void)::madvise(block, length, MADV_NOHUGEPAGE);
  return std::shared_ptr<uint8_t[]>(static_cast<uint8_t*>(block),
                                    [length](uint8_t* bytes) { ::munmap(bytes, length); });
}

}  // namespace

PartialFile::PartialFile(const std::filesystem::path& path)
    : file_(path), buffer_(untouched_buffer(file_.size())) {}

void PartialFile::load(uint64_t offset, uint64_t length) {
  const uint64_t begin = std::min<uint64_t>(offset, size());
  const uint64_t end = begin + std::min<uint64_t>(length, size() - begin);
  if (begin == end) return;
  // The gaps of [begin, end) between the parts already loaded are read; the parts they join
  // become one.
  // The first part that ends at or after `begin`: the first the range may meet or touch.
  const auto first = std::lower_bound(loaded_.begin(), loaded_.end(), begin,
                                      [](const auto& part, uint64_t b) { return part.second < b; });
  uint64_t at = begin;
  auto it = first;
  while (at < end) {
    const uint64_t gap_end = it == loaded_.end() ? end : std::min(end, it->first);
    if (at < gap_end) {
      const auto length = static_cast<size_t>(gap_end - at);
      core::populate_pages(buffer_.get() + at, length);  // one call, not a fault per page
      file_.read_at(at, buffer_.get() + at, length);
    }
    if (it == loaded_.end() || it->first > end) break;
    at = it->second;  // never behind `at`: the parts are sorted and apart
    ++it;
  }
  // Merge [begin, end) with every part it touches.
  auto last = first;
  uint64_t merged_begin = begin;
  uint64_t merged_end = end;
  while (last != loaded_.end() && last->first <= end) {
    merged_begin = std::min(merged_begin, last->first);
    merged_end = std::max(merged_end, last->second);
    ++last;
  }
  const auto placed = loaded_.erase(first, last);
  loaded_.insert(placed, {merged_begin, merged_end});
}

uint64_t PartialFile::loaded_bytes() const {
  uint64_t total = 0;
  for (const auto& [begin, end] : loaded_) total += end - begin;
  return total;
}

}  // namespace shapevm
