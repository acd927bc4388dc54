// OBJTEXT.BIN (seed 003, "Textures and colours"; AP-26): the same counted offset table as the
// model archive; each populated slot is a 12-byte header (word 0 the type, word 2 rewritten by the
// loader to point at the pixels) followed by 64 x 64 indexed pixels. Type 0/1/2 selects row
// stride 16/32/64.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "raster/texture.h"

namespace shapevm::apache {

inline constexpr uint32_t kTextureHeaderSize = 12;

struct ApacheTexture {
  uint32_t slot = 0;
  uint32_t offset = 0;               // the header's file offset
  std::array<uint32_t, 3> header{};  // as stored
  uint32_t type = 0;                 // header word 0
  uint32_t stride = 0;               // 16, 32 or 64
  uint32_t pixel_address = 0;        // word 2 after relocation: the pixels' file offset
  std::vector<uint8_t> pixels;       // 4096 indices
};

// Row stride of a texture type; 0 for an unknown type.
uint32_t texture_stride(uint32_t type);

class TextureArchive {
 public:
  TextureArchive() = default;
  // InputError for a malformed table, a slot offset outside the file, an unknown type or
  // truncated pixels.
  TextureArchive(std::span<const uint8_t> bytes, std::string source);

  const std::string& source() const { return source_; }
  uint32_t slots() const { return static_cast<uint32_t>(slot_of_.size()); }
  const std::vector<ApacheTexture>& textures() const { return textures_; }
  // nullptr for an empty or out-of-range slot.
  const ApacheTexture* find(uint32_t slot) const;

 private:
  std::string source_;
  std::vector<int32_t> slot_of_;
  std::vector<ApacheTexture> textures_;
};

// The image as the rasterizer samples it: `stride` pixels wide over the whole 4096-pixel
// allocation, addressed linearly (AP-30). `masked`: texel 0 is transparent (assumed).
raster::Texture to_raster_texture(const ApacheTexture& texture, bool masked);

// The name a face event uses for a texture slot ("tex17", "tex17m" when masked).
std::string texture_name(uint32_t slot, bool masked);

}  // namespace shapevm::apache
