#include "tests/fa/pic_builder.h"

#include "core/byte_writer.h"

namespace shapevm::test {

std::vector<uint8_t> build_dense_pic(uint32_t width, uint32_t height,
                                     std::span<const uint8_t> pixels,
                                     std::span<const uint8_t> palette6) {
  constexpr size_t kHeaderSize = 64;
  std::vector<uint8_t> bytes(kHeaderSize, 0);
  put_u32(bytes, 0x02, width);
  put_u32(bytes, 0x06, height);
  put_u32(bytes, 0x0A, kHeaderSize);
  put_u32(bytes, 0x0E, static_cast<uint32_t>(pixels.size()));
  bytes.insert(bytes.end(), pixels.begin(), pixels.end());
  put_u32(bytes, 0x22, static_cast<uint32_t>(bytes.size()));
  put_u32(bytes, 0x26, 4 * height);
  for (uint32_t y = 0; y < height; ++y) append_u32(bytes, kHeaderSize + y * width);
  if (!palette6.empty()) {
    put_u32(bytes, 0x12, static_cast<uint32_t>(bytes.size()));
    put_u32(bytes, 0x16, static_cast<uint32_t>(palette6.size()));
    bytes.insert(bytes.end(), palette6.begin(), palette6.end());
  }
  return bytes;
}

}  // namespace shapevm::test
