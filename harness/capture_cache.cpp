#include "harness/capture_cache.h"

namespace shapevm::harness {

std::shared_ptr<const raster::IndexedImage> read_capture(const RegressCase& c,
                                                         const raster::Palette& palette) {
  // Made from what was read: a default image would first fill a 640x480 frame of its own.
  if (c.capture_format == CaptureFormat::kRaw) {
    // A raw capture has no palette: ours stands for it.
    return std::make_shared<raster::IndexedImage>(
        raster::IndexedImage{raster::read_raw_indexed(c.capture, c.width, c.height), palette});
  }
  return std::make_shared<raster::IndexedImage>(raster::read_png(c.capture, &palette));
}

CaptureCache::CaptureCache(const std::vector<const RegressCase*>& cases) {
  for (const RegressCase* c : cases) ++remaining_[c->capture];
}

std::string CaptureCache::key_of(const RegressCase& c, const raster::Palette& palette) {
  std::string key = c.capture_format == CaptureFormat::kRaw
                        ? "raw " + std::to_string(c.width) + "x" + std::to_string(c.height)
                        : "png ";
  key.append(reinterpret_cast<const char*>(palette.colors.data()), sizeof(palette.colors));
  return key;
}

std::shared_ptr<const raster::IndexedImage> CaptureCache::take(const RegressCase& c,
                                                               const raster::Palette& palette) {
  const std::string key = key_of(c, palette);
  {
    std::lock_guard lock(mutex_);
    if (auto kept = entries_.find(c.capture); kept != entries_.end())
      for (const Entry& e : kept->second)
        if (e.key == key) return e.image;
  }
  // Decoded outside the lock: workers decoding different captures do not wait for each other.
  auto image = read_capture(c, palette);
  std::lock_guard lock(mutex_);
  ++decoded_;
  // Kept only while another case that names it is still to finish (this one counts itself).
  auto left = remaining_.find(c.capture);
  if (left != remaining_.end() && left->second > 1) entries_[c.capture].push_back({key, image});
  return image;
}

void CaptureCache::finish(const RegressCase& c) {
  std::lock_guard lock(mutex_);
  auto left = remaining_.find(c.capture);
  if (left == remaining_.end() || left->second == 0) return;
  if (--left->second == 0) entries_.erase(c.capture);
}

size_t CaptureCache::kept() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& [path, entries] : entries_) n += entries.size();
  return n;
}

void CaptureCache::forget(const std::filesystem::path& path) {
  std::lock_guard lock(mutex_);
  entries_.erase(path);
}

}  // namespace shapevm::harness
