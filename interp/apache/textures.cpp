#include "interp/apache/textures.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "interp/apache/assumptions.h"

namespace shapevm::apache {

uint32_t texture_stride(uint32_t type) {
  switch (type) {
    case 0:
      return 16;
    case 1:
      return 32;
    case 2:
      return 64;
    default:
      return 0;
  }
}

TextureArchive::TextureArchive(std::span<const uint8_t> bytes, std::string source)
    : source_(std::move(source)) {
  const ByteReader r(bytes, source_);
  const uint32_t count = r.u32(0, "the texture archive's slot count");
  if (uint64_t{count} * 4 > bytes.size() - 4) {
    r.fail(0, fmt::format("expected a slot count whose offset table fits in the file: {} offsets "
                          "need {} bytes, {} remain",
                          count, uint64_t{count} * 4, bytes.size() - 4));
  }
  slot_of_.assign(count, -1);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t offset = r.u32(4 + 4 * size_t{i}, "a texture offset");
    if (offset == 0) continue;
    ApacheTexture t;
    t.slot = i;
    t.offset = offset;
    r.require(offset, kTextureHeaderSize + assumed::kTexturePixels,
              fmt::format("texture slot {}: a 12-byte header and 4096 pixels", i));
    for (size_t w = 0; w < 3; ++w) t.header[w] = r.u32(offset + 4 * w, "a texture header word");
    t.type = t.header[0];
    t.stride = texture_stride(t.type);
    if (t.stride == 0) {
      r.fail(offset, fmt::format("expected texture slot {}'s type to be 0, 1 or 2 (row stride 16, "
                                 "32, 64), found {}",
                                 i, t.type));
    }
    t.pixel_address = offset + kTextureHeaderSize;  // what the loader writes into word 2
    auto pixels = r.bytes(t.pixel_address, assumed::kTexturePixels, "texture pixels");
    t.pixels.assign(pixels.begin(), pixels.end());
    slot_of_[i] = static_cast<int32_t>(textures_.size());
    textures_.push_back(std::move(t));
  }
}

const ApacheTexture* TextureArchive::find(uint32_t slot) const {
  if (slot >= slot_of_.size() || slot_of_[slot] < 0) return nullptr;
  return &textures_[static_cast<size_t>(slot_of_[slot])];
}

raster::Texture to_raster_texture(const ApacheTexture& texture, bool masked) {
  raster::Texture out;
  out.width = static_cast<int>(texture.stride);
  out.height = static_cast<int>(assumed::kTexturePixels / texture.stride);
  out.pixels = texture.pixels;
  out.transparent_index =
      masked ? assumed::kMaskedTransparentTexel : raster::Texture::kNoTransparency;
  return out;
}

std::string texture_name(uint32_t slot, bool masked) {
  return fmt::format("tex{}{}", slot, masked ? "m" : "");
}

}  // namespace shapevm::apache
