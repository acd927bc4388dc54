#include "interp/fa/textures.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/fa/palette_pal.h"
#include "interp/fa/shape_input.h"

namespace shapevm::fa {
namespace {
std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  return out;
}
}  // namespace

FaTextures::FaTextures(const std::string& source) : source_(source) {
  std::error_code ec;
  if (std::filesystem::is_directory(source, ec)) return;
  if (!std::filesystem::is_regular_file(source, ec))
    throw InputError(source, "--textures expects a directory or an EALIB .LIB file");
  lib_bytes_ = read_file(source);
  lib_ = std::make_unique<fa::EaLib>(lib_bytes_, source);
}

FaTextures::FaTextures(std::vector<uint8_t> lib_bytes, std::string source)
    : source_(std::move(source)), lib_bytes_(std::move(lib_bytes)) {
  lib_ = std::make_unique<fa::EaLib>(lib_bytes_, source_);
}

const raster::Texture* FaTextures::find(std::string_view name) {
  const std::string key = upper(name);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    std::optional<fa::Pic> pic;
    if (lib_) {
      if (const auto* entry = lib_->find(key)) {
        auto bytes = lib_->extract(*entry);
        pic = fa::read_pic(bytes, source_ + ":" + entry->name);
      }
    } else {
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(source_, ec)) {
        if (e.is_regular_file() && upper(e.path().filename().string()) == key) {
          auto bytes = read_file(e.path());
          pic = fa::read_pic(bytes, e.path().string());
          break;
        }
      }
    }
    it = cache_.emplace(key, std::move(pic)).first;
  }
  return it->second ? &it->second->texture : nullptr;
}

raster::Palette load_fa_palette(const std::string& path) {
  if (path.empty()) return raster::default_palette();
  auto in = fa::load_input(path);
  return fa::read_pal(in.bytes, in.source);
}

}  // namespace shapevm::fa
