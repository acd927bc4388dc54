// A test tool for Fighters Anthology PIC images: builds them in memory, so tests (and the fuzz
// seeds) can make any image without binary fixtures.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace shapevm::test {

// A dense PIC, laid out as the game's files are and as `render --textures` reads them: the
// 64-byte header (type 0, width, height, the pixels' offset 64 and size, the row heads' offset and
// size), the pixels, one row head per row (the offset of its first pixel), then the 6-bit palette
// when one is given (its offset and size in the header). The span fields stay zero.
std::vector<uint8_t> build_dense_pic(uint32_t width, uint32_t height,
                                     std::span<const uint8_t> pixels,
                                     std::span<const uint8_t> palette6 = {});

}  // namespace shapevm::test
