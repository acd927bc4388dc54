// TPWM, Blue Byte's LZ packing (docs/bi2.md, "TPWM"): "TPWM", a u32 LE unpacked size, then
// flag bytes whose bits (most significant first) say literal byte (0) or back reference (1: two
// bytes, length (b1 & 15) + 3, distance (b1 >> 4) * 256 + b2, copied byte by byte so an overlap
// repeats a pattern). Also the XOR-obfuscated variant that shares the magic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shapevm::bi2 {

inline constexpr uint32_t kTpwmHeader = 8;

bool is_tpwm(std::span<const uint8_t> bytes);
// The XOR variant: "TPWM" and a "size" above assumed::kXorTriggerFactor x the file size.
bool is_tpwm_xor(std::span<const uint8_t> bytes);

// Unpacks a TPWM stream. InputError (source, offset in `bytes`, expectation) for a short header,
// a declared size above assumed::kMaxUnpackedBytes, a reference with distance 0 or reaching
// before the output's start, or input that ends before the declared size is reached.
std::vector<uint8_t> tpwm_unpack(std::span<const uint8_t> bytes, const std::string& source);
// The XOR variant decoded: bytes from offset 4 XORed with the 14-byte key (the magic dropped).
std::vector<uint8_t> tpwm_unxor(std::span<const uint8_t> bytes);
// Whatever `bytes` is: the XOR variant decoded, TPWM unpacked, anything else unchanged.
std::vector<uint8_t> tpwm_decode(std::span<const uint8_t> bytes, const std::string& source);

// A valid TPWM stream of literals only (every flag byte 0): what the writers use.
std::vector<uint8_t> tpwm_pack_literal(std::span<const uint8_t> bytes);
// A valid TPWM stream with references where a greedy match of 3..18 bytes from up to 4,095 back
// exists: shaped like the game's packed files, for the benchmarks and tests.
std::vector<uint8_t> tpwm_pack(std::span<const uint8_t> bytes);

}  // namespace shapevm::bi2
