// The zlib stream of a PNG's filtered rows, written here rather than by a general compressor.
// A rendered frame is mostly long runs of one index (the background, flat-shaded faces), and a
// general match finder spends its time on those runs: libdeflate at level 6 took 380 us for a
// 640x480 frame that was nearly all background, inserting every byte of every run into its hash
// chains. This encoder tries a few places only, each with one comparison of up to 258 bytes: the
// pixel before (a run), the row above at the same place and a few pixels either side (edges
// move a little from row to row), and the last place the next four bytes were seen (a pattern or
// a texture repeating); everything else is a literal. Each block's Huffman codes are built from
// its own symbol counts (RFC 1951, block type 2), so a run's length code costs a bit or two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace shapevm::raster {

// Appends to `out` the zlib stream (RFC 1950) of `rows`: rows of `stride` bytes each (stride
// divides rows.size()), whose pixels are `pixel_bytes` wide (1 indexed, 3 RGB), each row led by
// its filter-type byte. The bytes depend only on the input.
void deflate_frame_rows(std::span<const uint8_t> rows, size_t stride, size_t pixel_bytes,
                        std::vector<uint8_t>& out);

}  // namespace shapevm::raster
