// Decoded captures shared by the cases of one regression run. Several cases often compare with
// one capture (the same frame under different exclusions, or states that must look alike); the
// capture is decoded once and kept only until the last case that names it has finished, so a
// run of many distinct captures holds no more than it did before.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "harness/regress_manifest.h"
#include "raster/png_io.h"

namespace shapevm::harness {

// The capture `c` names, decoded as a case compares with it: raw at the case's size (`palette`,
// ours, stands for the palette it does not have), PNG with grey/RGB pixels mapped onto
// `palette`. Throws InputError as the readers do.
std::shared_ptr<const raster::IndexedImage> read_capture(const RegressCase& c,
                                                         const raster::Palette& palette);

class CaptureCache {
 public:
  // `cases`: every case the run will check (how many name each capture).
  explicit CaptureCache(const std::vector<const RegressCase*>& cases);

  // read_capture(c, palette), decoded once for all the cases that name the capture. Thread-safe.
  std::shared_ptr<const raster::IndexedImage> take(const RegressCase& c,
                                                   const raster::Palette& palette);
  // Case `c` is done, whether or not it took its capture (an --update case that wrote a new one,
  // a case that failed before reading it): once every case naming a capture is done, the
  // decoded capture is let go. Call once per case.
  void finish(const RegressCase& c);
  // `path` was written (--update): later cases decode it again.
  void forget(const std::filesystem::path& path);

  size_t decoded() const { return decoded_; }  // decodes made (a figure for the benchmarks)
  size_t kept() const;                         // decoded captures held now

 private:
  struct Entry {
    std::string key;  // format, size and palette: what else the decode depended on
    std::shared_ptr<const raster::IndexedImage> image;
  };
  static std::string key_of(const RegressCase& c, const raster::Palette& palette);

  mutable std::mutex mutex_;
  std::map<std::filesystem::path, size_t> remaining_;  // cases naming each capture not yet done
  std::map<std::filesystem::path, std::vector<Entry>> entries_;
  size_t decoded_ = 0;
};

}  // namespace shapevm::harness
