#include "interp/shp/refpack.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/decoded_output.h"
#include "core/input_error.h"

namespace shapevm::shp {
namespace {

// Flags the general header may add to kRefPackFlags.
constexpr uint8_t kFlagCompressedSize = 0x01;
constexpr uint8_t kFlagWideSizes = 0x80;

struct HeaderInfo {
  uint32_t output_size = 0;
  size_t data_start = 0;
};

HeaderInfo read_header(std::span<const uint8_t> in, const std::string& source) {
  if (in.size() < 2 || in[1] != kRefPackMagic ||
      (in[0] & ~(kFlagCompressedSize | kFlagWideSizes)) != kRefPackFlags) {
    throw InputError(source, 0,
                     "expected a RefPack header (flags 10/11/90/91, then FB)" +
                         (in.size() < 2 ? std::string(", but the input is shorter than 2 bytes")
                                        : fmt::format(", found {:02X} {:02X}", in[0], in[1])));
  }
  const size_t width = (in[0] & kFlagWideSizes) ? 4 : 3;
  size_t at = 2;
  if (in[0] & kFlagCompressedSize) at += width;  // the compressed size: not needed to decode
  if (in.size() < at + width) {
    throw InputError(source, at,
                     fmt::format("expected the RefPack output size ({} bytes, big-endian), but "
                                 "the input is {} bytes long",
                                 width, in.size()));
  }
  uint64_t size = 0;
  for (size_t i = 0; i < width; ++i) size = size << 8 | in[at + i];
  if (size > kMaxRefPackOutput) {
    throw InputError(source, at,
                     fmt::format("RefPack output size {} exceeds the {} MiB limit shapevm "
                                 "decompresses",
                                 size, kMaxRefPackOutput >> 20));
  }
  return {static_cast<uint32_t>(size), at + width};
}

}  // namespace

bool starts_refpack(std::span<const uint8_t> bytes) {
  return bytes.size() >= 2 && bytes[0] == kRefPackFlags && bytes[1] == kRefPackMagic;
}

uint32_t refpack_declared_size(std::span<const uint8_t> bytes, const std::string& source) {
  return read_header(bytes, source).output_size;
}

namespace {

// Only the output's first `keep` bytes and its length: what recognition needs. No output byte
// decides whether a command is valid, so the walk refuses the commands it walks exactly as it
// does with the whole output (core::DecodedOutput, which has the same append and repeat).
class HeadOutput {
 public:
  explicit HeadOutput(size_t keep) : keep_(keep) { head_.reserve(keep); }
  size_t size() const { return size_; }
  bool holds_head() const { return size_ >= keep_; }
  void append(const uint8_t* from, size_t count) {
    if (size_ < keep_) head_.insert(head_.end(), from, from + std::min(count, keep_ - size_));
    size_ += count;
  }
  void repeat(size_t distance, size_t length) {
    for (size_t i = 0; i < length && size_ + i < keep_; ++i)
      head_.push_back(head_[size_ + i - distance]);
    size_ += length;
  }
  std::vector<uint8_t> take() { return std::move(head_); }

 private:
  size_t keep_;
  size_t size_ = 0;
  std::vector<uint8_t> head_;
};

// The walk's refusals, out of its loop.
[[noreturn, gnu::cold]] void input_ends(const std::string& source, size_t command, size_t count,
                                        const char* what, size_t input_size) {
  throw InputError(
      source, command,
      fmt::format("expected {} ({} bytes), but the input ends at 0x{:x}", what, count, input_size));
}

[[noreturn, gnu::cold]] void past_declared_size(const std::string& source, size_t command,
                                                uint32_t declared, size_t output, size_t literals,
                                                size_t length) {
  throw InputError(source, command,
                   fmt::format("RefPack command writes past the declared output size {} "
                               "(output at {}, {} literal and {} copied bytes)",
                               declared, output, literals, length));
}

[[noreturn, gnu::cold]] void copy_before_start(const std::string& source, size_t command,
                                               size_t distance, size_t output) {
  throw InputError(source, command,
                   fmt::format("RefPack copy from {} bytes back, but only {} bytes of output "
                               "precede it",
                               distance, output));
}

// Each command copies `literals` bytes from the input after it, then `length` bytes from
// `distance` back in the output. With kHeadOnly the walk stops after the command that completes
// the output's head (HeadOutput::holds_head), before the end command and the length check.
// Returns where the walk stopped: the input bytes it read.
template <bool kHeadOnly = false, typename Output>
size_t walk_commands(std::span<const uint8_t> in, const std::string& source,
                     const HeaderInfo& header, Output& out) {
  const size_t input_size = in.size();
  size_t at = header.data_start;
  while (true) {
    if (at >= input_size) {
      throw InputError(source, at,
                       "expected a RefPack command (the stream ends with FC-FF), but the input "
                       "ends here");
    }
    const size_t command = at;
    const uint8_t b0 = in[at];
    size_t command_size = 1, literals, length = 0, distance = 0;
    bool last = false;
    if (b0 < 0x80) {  // 0dd nnn ll, b1
      if (input_size - command < 2)
        input_ends(source, command, 2, "a 2-byte RefPack command", input_size);
      const uint8_t b1 = in[at + 1];
      command_size = 2;
      literals = b0 & 3;
      length = ((b0 >> 2) & 7) + 3;
      distance = (size_t((b0 >> 5) & 3) << 8 | b1) + 1;
    } else if (b0 < 0xC0) {  // 10 nnnnnn, ll dddddd, b2
      if (input_size - command < 3)
        input_ends(source, command, 3, "a 3-byte RefPack command", input_size);
      const uint8_t b1 = in[at + 1], b2 = in[at + 2];
      command_size = 3;
      literals = b1 >> 6;
      length = (b0 & 0x3F) + 4;
      distance = (size_t(b1 & 0x3F) << 8 | b2) + 1;
    } else if (b0 < 0xE0) {  // 110 D nn ll, b1, b2, b3
      if (input_size - command < 4)
        input_ends(source, command, 4, "a 4-byte RefPack command", input_size);
      const uint8_t b1 = in[at + 1], b2 = in[at + 2], b3 = in[at + 3];
      command_size = 4;
      literals = b0 & 3;
      length = (size_t((b0 >> 2) & 3) << 8 | b3) + 5;
      distance = (size_t((b0 >> 4) & 1) << 16 | size_t(b1) << 8 | b2) + 1;
    } else if (b0 < 0xFC) {  // 111 lllll: literals only
      literals = (size_t(b0 & 0x1F) + 1) * 4;
    } else {  // 111111 ll: the last literals and the end; nothing after it is read
      literals = b0 & 3;
      last = true;
    }
    if (input_size - command < command_size + literals) {
      input_ends(source, command, command_size + literals,
                 "a RefPack command and its literal bytes", input_size);
    }
    if (out.size() + literals + length > header.output_size)
      past_declared_size(source, command, header.output_size, out.size(), literals, length);
    out.append(in.data() + command + command_size, literals);
    at = command + command_size + literals;
    if (length != 0) {
      if (distance > out.size()) copy_before_start(source, command, distance, out.size());
      out.repeat(distance, length);
    }
    if (last) break;
    if constexpr (kHeadOnly) {
      if (out.holds_head()) return at;
    }
  }
  if (out.size() != header.output_size) {
    throw InputError(source, at,
                     fmt::format("RefPack stream ended after {} bytes of output, but its header "
                                 "declares {}",
                                 out.size(), header.output_size));
  }
  return at;
}

}  // namespace

std::vector<uint8_t> refpack_decompress(std::span<const uint8_t> in, const std::string& source) {
  const HeaderInfo header = read_header(in, source);
  // Reserved for the declared size or the most the stream's commands can give, the smaller: no
  // command gives more than 257 bytes of output per byte of input (a bare 4-byte command copying
  // 1,028), so a header declaring more is refused by the walk.
  constexpr size_t kMostOutputPerByte = 257;
  core::DecodedOutput out(
      std::min<size_t>(header.output_size, (in.size() - header.data_start) * kMostOutputPerByte));
  walk_commands(in, source, header, out);
  return out.take();
}

RefPackHead refpack_head(std::span<const uint8_t> in, const std::string& source, size_t keep) {
  const HeaderInfo header = read_header(in, source);
  RefPackHead result;
  result.size = header.output_size;
  // When the head is the whole output, the whole stream is walked and its length checked; for
  // no bytes of head nothing is walked: the header alone gives the size.
  const bool whole = keep >= header.output_size;
  HeadOutput out(whole ? header.output_size : keep);
  result.input_read = whole       ? walk_commands(in, source, header, out)
                      : keep == 0 ? header.data_start
                                  : walk_commands<true>(in, source, header, out);
  result.head = out.take();
  return result;
}

}  // namespace shapevm::shp
