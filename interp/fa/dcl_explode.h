// PKWare Data Compression Library ("implode") decoder, as used by EALIB flags=4 members.
// Written from the format description: literal mode byte (only 0, raw literals, is used by FA),
// dictionary-bits byte (4/5/6), then an LSB-first bit stream of literals and length/distance
// pairs with complemented canonical Huffman codes; length 519 ends the stream.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shapevm::fa {

// Decodes `stream` (the DCL bytes, without EALIB's u32 size prefix). `max_output` bounds the
// output (a corrupt stream cannot make it grow past it). Throws InputError naming `source` and
// the byte offset inside `stream` where decoding failed (bad header, truncated stream, distance
// before the start of the output, output larger than max_output).
std::vector<uint8_t> dcl_explode(std::span<const uint8_t> stream, const std::string& source,
                                 size_t max_output);

}  // namespace shapevm::fa
