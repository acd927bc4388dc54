// RefPack (EA's "QFS" compression), as Starlancer's HOG members use it (docs/shp.md): a header
// `10 FB` with a 3-byte big-endian output size, then commands that each copy some literal bytes
// from the input and then some bytes from earlier in the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shapevm::shp {

// The header's first two bytes as the engine's members have them: flags 0x10 (a 3-byte size, no
// compressed size), then the magic 0xFB.
inline constexpr uint8_t kRefPackFlags = 0x10;
inline constexpr uint8_t kRefPackMagic = 0xFB;

// The largest output size a header may declare; larger is refused before anything is allocated.
inline constexpr uint32_t kMaxRefPackOutput = 64u << 20;  // 64 MiB

// Whether `bytes` starts as the engine's RefPack members do: `10 FB`. Only these are
// decompressed; any other member is used as stored.
bool starts_refpack(std::span<const uint8_t> bytes);

// The output size the header declares (general header: flags 0x01 = a compressed size follows,
// 0x80 = 4-byte sizes). InputError naming `source` when the header is short or not RefPack.
uint32_t refpack_declared_size(std::span<const uint8_t> bytes, const std::string& source);

// Decompresses a whole RefPack stream. InputError (source, input offset, expectation) for a
// header that is not RefPack, a command or literal past the input, a copy from before the start
// of the output, output past the declared size, a stream without an end command, an output
// shorter than the header declares, or a declared size over kMaxRefPackOutput.
std::vector<uint8_t> refpack_decompress(std::span<const uint8_t> bytes, const std::string& source);

// The first bytes of a RefPack stream's output, the size its header declares, and how much of
// the stream gave them.
struct RefPackHead {
  size_t size = 0;            // the output size the header declares
  std::vector<uint8_t> head;  // the output's first min(keep, size) bytes
  size_t input_read = 0;      // the header and the commands walked: bytes [0, input_read)
};

// Walks the stream as refpack_decompress does, but only as far as its output's first `keep`
// bytes: recognising a model needs its first chunk header and its size, not the rest (a member
// of a large HOG is then read only that far). The commands it walks are refused with the same
// InputErrors, at the same offsets, as refpack_decompress refuses them; a stream that declares
// no more than `keep` bytes is walked whole, with every refusal of refpack_decompress.
RefPackHead refpack_head(std::span<const uint8_t> bytes, const std::string& source, size_t keep);

// A valid RefPack stream of `data` made only of literal commands (E0-FB runs of 4..112 bytes,
// then an FC-FF end with 0..3): what the writers and the generator store. InputError when `data`
// does not fit the 3-byte size (16 MiB).
std::vector<uint8_t> refpack_compress_literal(std::span<const uint8_t> data);

// A valid RefPack stream of `data` using every command form: a greedy match of 3..1028 bytes
// from up to 128 KiB back where one exists, literals where not. Real members are compressed
// (the writers store literal runs); the benchmarks and tests use this to decode streams shaped
// like them. InputError when `data` does not fit the 3-byte size.
std::vector<uint8_t> refpack_compress(std::span<const uint8_t> data);

}  // namespace shapevm::shp
