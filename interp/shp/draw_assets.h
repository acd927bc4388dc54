// What drawing a Starlancer model reads besides the model (docs/shp-drawing.md, "Textures and
// palette"): the palette (--palette, else palette.tga beside the input, else shapevm's default
// palette), the colour tables built from it, and the texture cache (--textures: a tcache file or
// a folder holding tcachehw.dat or tcachesw.dat; else one beside the input). Loaded once per set
// of files and shared between runs.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "interp/shp/colour_tables.h"
#include "interp/shp/tcache.h"
#include "raster/palette.h"
#include "raster/texture.h"

namespace shapevm::shp {

class DrawAssets {
 public:
  DrawAssets(raster::Palette palette, std::string palette_source,
             std::shared_ptr<const TextureCache> cache);
  const raster::Palette& palette() const { return tables_->palette; }
  const std::string& palette_source() const { return palette_source_; }  // "" = the default
  const ColourTables& tables() const { return *tables_; }
  const TextureCache* cache() const { return cache_.get(); }
  // The texture the cache holds under `name` (case-insensitive basename, first match), converted
  // to palette indices once; nullptr when there is no cache or no such texture.
  const raster::Texture* texture(std::string_view name) const;

 private:
  std::shared_ptr<const ColourTables> tables_;
  std::string palette_source_;
  std::shared_ptr<const TextureCache> cache_;
  mutable std::mutex lock_;
  mutable std::map<std::string, std::unique_ptr<raster::Texture>, std::less<>> converted_;
};

// `palette` and `textures` as OpenOptions give them ("" = look beside `input_path`). InputError
// for a file given or found that is malformed or unreadable.
std::shared_ptr<const DrawAssets> load_draw_assets(const std::string& palette,
                                                   const std::string& textures,
                                                   const std::string& input_path);

// The file a source names: a FILE:MEMBER's file, or the source itself.
std::string input_path_of(const std::string& source);

// The name a material is looked up by (SL-19): the context prefix (g, r or none) and the
// material's texture name.
std::string texture_key(std::string_view prefix, std::string_view material);
// The light-map lookup of a part with flag 0x80: "l" and the material's name.
std::string lightmap_key(std::string_view material);
// The highlight texture of mode 7 for a sub-mode (draw_assumptions.h).
std::string highlight_key(uint32_t sub_mode);

}  // namespace shapevm::shp
