// FA textures for rendering: PIC files looked up by the name TextureFile gives ("_A10.PIC"),
// case-insensitively, in a directory or an EALIB .LIB; each is read once.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/fa/ealib.h"
#include "interp/fa/pic.h"
#include "raster/palette.h"

namespace shapevm::fa {

class FaTextures {
 public:
  // `source` is a directory or a .LIB file; throws InputError if it is neither.
  explicit FaTextures(const std::string& source);
  // The same over an EALIB .LIB's bytes already read (named `source` in errors).
  FaTextures(std::vector<uint8_t> lib_bytes, std::string source);
  // nullptr when no such texture exists; InputError when it exists but is malformed.
  const raster::Texture* find(std::string_view name);
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::vector<uint8_t> lib_bytes_;
  std::unique_ptr<fa::EaLib> lib_;
  std::map<std::string, std::optional<fa::Pic>> cache_;  // upper-cased name
};

// Loads PALETTE.PAL (768 bytes of 6-bit RGB) or, with an empty path, the built-in palette.
raster::Palette load_fa_palette(const std::string& path);

}  // namespace shapevm::fa
