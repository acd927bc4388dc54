#include "interp/shp/draw_assets.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <system_error>
#include <tuple>

#include "core/file_io.h"
#include "core/input_error.h"

namespace shapevm::shp {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A file named `name` (case-insensitive) in `dir`; "" when none.
std::string find_in(const fs::path& dir, std::string_view name) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return "";
  const std::string want = lower(name);
  std::string found;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    const std::string file = entry.path().filename().string();
    // The first in name order, so the choice does not depend on the directory's order.
    if (lower(file) == want && (found.empty() || entry.path().string() < found))
      found = entry.path().string();
  }
  return found;
}

std::string resolve_textures(const std::string& given, const fs::path& beside) {
  std::error_code ec;
  if (!given.empty()) {
    if (fs::is_directory(given, ec)) {
      std::string f = find_in(given, "tcachehw.dat");
      if (f.empty()) f = find_in(given, "tcachesw.dat");
      if (f.empty())
        throw InputError(given, "expected a folder holding tcachehw.dat or tcachesw.dat");
      return f;
    }
    return given;  // a file (read_file names it when it is missing)
  }
  std::string f = find_in(beside, "tcachehw.dat");
  if (f.empty()) f = find_in(beside, "tcachesw.dat");
  return f;
}

// Size and modification time: a file rewritten between runs is read again.
std::string stamp(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  return fmt::format("{}|{}|{}", path, ec ? 0 : size, ec ? 0 : time);
}

}  // namespace

DrawAssets::DrawAssets(raster::Palette palette, std::string palette_source,
                       std::shared_ptr<const TextureCache> cache)
    : tables_(colour_tables(palette)),
      palette_source_(std::move(palette_source)),
      cache_(std::move(cache)) {}

const raster::Texture* DrawAssets::texture(std::string_view name) const {
  if (cache_ == nullptr) return nullptr;
  const std::lock_guard<std::mutex> guard(lock_);
  const std::string key = lower(name);
  if (auto it = converted_.find(key); it != converted_.end()) return it->second.get();
  std::unique_ptr<raster::Texture> t;
  if (const TcacheEntry* e = cache_->find(key))
    t = std::make_unique<raster::Texture>(to_indexed_texture(*e, tables_->palette));
  const raster::Texture* out = t.get();
  converted_.emplace(key, std::move(t));
  return out;
}

std::string input_path_of(const std::string& source) {
  std::error_code ec;
  if (fs::exists(source, ec)) return source;
  const size_t colon = source.rfind(':');
  if (colon != std::string::npos && colon > 0) return source.substr(0, colon);
  return source;
}

std::shared_ptr<const DrawAssets> load_draw_assets(const std::string& palette,
                                                   const std::string& textures,
                                                   const std::string& input_path) {
  const fs::path beside = input_path.empty() ? fs::path() : fs::path(input_path).parent_path();
  const std::string palette_file = palette.empty() ? find_in(beside, "palette.tga") : palette;
  const std::string tcache_file = resolve_textures(textures, beside);

  static std::mutex lock;
  static std::map<std::string, std::shared_ptr<const DrawAssets>> cache;
  const std::string key = stamp(palette_file) + "#" + stamp(tcache_file);
  {
    const std::lock_guard<std::mutex> guard(lock);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  raster::Palette p = raster::default_palette();
  if (!palette_file.empty()) p = read_palette_tga(read_file(palette_file), palette_file);
  std::shared_ptr<const TextureCache> tc;
  if (!tcache_file.empty())
    tc = std::make_shared<const TextureCache>(read_file(tcache_file), tcache_file);
  auto assets = std::make_shared<const DrawAssets>(p, palette_file, tc);
  const std::lock_guard<std::mutex> guard(lock);
  if (cache.size() > 8) cache.clear();
  cache.emplace(key, assets);
  return assets;
}

std::string texture_key(std::string_view prefix, std::string_view material) {
  return std::string(prefix) + std::string(material);
}

std::string lightmap_key(std::string_view material) {
  return "l" + std::string(material);
}

std::string highlight_key(uint32_t sub_mode) {
  return fmt::format("highlight{}", sub_mode);
}

}  // namespace shapevm::shp
