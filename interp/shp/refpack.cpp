#include "interp/shp/refpack.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/input_error.h"

namespace shapevm::shp {
namespace {

constexpr uint8_t kMagic = 0xFB;
constexpr uint8_t kFlagCompressedSize = 0x01;
constexpr uint8_t kFlagWideSizes = 0x80;
constexpr uint8_t kFlagsBase = 0x10;

struct HeaderInfo {
  uint32_t output_size = 0;
  size_t data_start = 0;
};

HeaderInfo read_header(std::span<const uint8_t> in, const std::string& source) {
  if (in.size() < 2 || in[1] != kMagic ||
      (in[0] & ~(kFlagCompressedSize | kFlagWideSizes)) != kFlagsBase) {
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
  return bytes.size() >= 2 && bytes[0] == kFlagsBase && bytes[1] == kMagic;
}

uint32_t refpack_declared_size(std::span<const uint8_t> bytes, const std::string& source) {
  return read_header(bytes, source).output_size;
}

namespace {

// The whole output, written into storage reserved for the declared size (never reallocated).
class WholeOutput {
 public:
  explicit WholeOutput(uint32_t declared) { bytes_.reserve(declared); }
  size_t size() const { return bytes_.size(); }
  void literals(const uint8_t* from, size_t count) {
    bytes_.insert(bytes_.end(), from, from + count);
  }
  // `distance` is at most size(), checked by the walk. Byte by byte, so an overlapping copy
  // repeats what it has just written.
  void copy(size_t distance, size_t length) {
    const size_t from = bytes_.size() - distance;
    for (size_t i = 0; i < length; ++i) bytes_.push_back(bytes_[from + i]);
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

// Only the output's first `keep` bytes, and its length: what recognition needs. No output byte
// decides whether a stream is valid, so the walk refuses exactly what WholeOutput's refuses.
class HeadOutput {
 public:
  explicit HeadOutput(size_t keep) : keep_(keep) { head_.reserve(keep); }
  size_t size() const { return size_; }
  void literals(const uint8_t* from, size_t count) {
    if (size_ < keep_) head_.insert(head_.end(), from, from + std::min(count, keep_ - size_));
    size_ += count;
  }
  void copy(size_t distance, size_t length) {
    for (size_t i = 0; i < length && size_ + i < keep_; ++i)
      head_.push_back(head_[size_ + i - distance]);
    size_ += length;
  }
  RefPackHead take() { return {size_, std::move(head_)}; }

 private:
  size_t keep_;
  size_t size_ = 0;
  std::vector<uint8_t> head_;
};

template <typename Output>
void walk_commands(std::span<const uint8_t> in, const std::string& source, const HeaderInfo& header,
                   Output& out) {
  size_t at = header.data_start;
  auto need = [&](size_t command, size_t count, const char* what) {
    if (count > in.size() - command) {
      throw InputError(source, command,
                       fmt::format("expected {} ({} bytes), but the input ends at 0x{:x}", what,
                                   count, in.size()));
    }
  };
  // Copies `literals` bytes from the input after the command, then `length` bytes from
  // `distance` back in the output.
  auto emit = [&](size_t command, size_t command_size, size_t literals, size_t length,
                  size_t distance) {
    need(command, command_size + literals, "a RefPack command and its literal bytes");
    if (out.size() + literals + length > header.output_size) {
      throw InputError(source, command,
                       fmt::format("RefPack command writes past the declared output size {} "
                                   "(output at {}, {} literal and {} copied bytes)",
                                   header.output_size, out.size(), literals, length));
    }
    out.literals(in.data() + command + command_size, literals);
    at = command + command_size + literals;
    if (length == 0) return;
    if (distance > out.size()) {
      throw InputError(source, command,
                       fmt::format("RefPack copy from {} bytes back, but only {} bytes of output "
                                   "precede it",
                                   distance, out.size()));
    }
    out.copy(distance, length);
  };
  while (true) {
    if (at >= in.size()) {
      throw InputError(source, at,
                       "expected a RefPack command (the stream ends with FC-FF), but the input "
                       "ends here");
    }
    const size_t command = at;
    const uint8_t b0 = in[at];
    if (b0 < 0x80) {  // 0dd nnn ll, b1
      need(command, 2, "a 2-byte RefPack command");
      const uint8_t b1 = in[at + 1];
      emit(command, 2, b0 & 3, ((b0 >> 2) & 7) + 3, (size_t((b0 >> 5) & 3) << 8 | b1) + 1);
    } else if (b0 < 0xC0) {  // 10 nnnnnn, ll dddddd, b2
      need(command, 3, "a 3-byte RefPack command");
      const uint8_t b1 = in[at + 1], b2 = in[at + 2];
      emit(command, 3, b1 >> 6, (b0 & 0x3F) + 4, (size_t(b1 & 0x3F) << 8 | b2) + 1);
    } else if (b0 < 0xE0) {  // 110 D nn ll, b1, b2, b3
      need(command, 4, "a 4-byte RefPack command");
      const uint8_t b1 = in[at + 1], b2 = in[at + 2], b3 = in[at + 3];
      emit(command, 4, b0 & 3, (size_t((b0 >> 2) & 3) << 8 | b3) + 5,
           (size_t((b0 >> 4) & 1) << 16 | size_t(b1) << 8 | b2) + 1);
    } else if (b0 < 0xFC) {  // 111 lllll: literals only
      emit(command, 1, (size_t(b0 & 0x1F) + 1) * 4, 0, 0);
    } else {  // 111111 ll: the last literals and the end; nothing after it is read
      emit(command, 1, b0 & 3, 0, 0);
      break;
    }
  }
  if (out.size() != header.output_size) {
    throw InputError(source, at,
                     fmt::format("RefPack stream ended after {} bytes of output, but its header "
                                 "declares {}",
                                 out.size(), header.output_size));
  }
}

}  // namespace

std::vector<uint8_t> refpack_decompress(std::span<const uint8_t> in, const std::string& source) {
  const HeaderInfo header = read_header(in, source);
  WholeOutput out(header.output_size);
  walk_commands(in, source, header, out);
  return out.take();
}

RefPackHead refpack_head(std::span<const uint8_t> in, const std::string& source, size_t keep) {
  const HeaderInfo header = read_header(in, source);
  HeadOutput out(std::min<size_t>(keep, header.output_size));
  walk_commands(in, source, header, out);
  return out.take();
}

std::vector<uint8_t> refpack_compress_literal(std::span<const uint8_t> data) {
  if (data.size() > 0xFFFFFF) {
    throw InputError(
        "RefPack encoder",
        fmt::format("{} bytes do not fit a 3-byte RefPack size (at most 16 MiB - 1)", data.size()));
  }
  std::vector<uint8_t> out;
  out.reserve(data.size() + data.size() / 112 + 6);
  out.push_back(kFlagsBase);
  out.push_back(kMagic);
  out.push_back(static_cast<uint8_t>(data.size() >> 16));
  out.push_back(static_cast<uint8_t>(data.size() >> 8));
  out.push_back(static_cast<uint8_t>(data.size()));
  size_t at = 0;
  while (data.size() - at >= 4) {
    const size_t run = std::min<size_t>(112, (data.size() - at) & ~size_t{3});
    out.push_back(static_cast<uint8_t>(0xE0 | (run / 4 - 1)));
    out.insert(out.end(), data.begin() + static_cast<ptrdiff_t>(at),
               data.begin() + static_cast<ptrdiff_t>(at + run));
    at += run;
  }
  out.push_back(static_cast<uint8_t>(0xFC | (data.size() - at)));
  out.insert(out.end(), data.begin() + static_cast<ptrdiff_t>(at), data.end());
  return out;
}

}  // namespace shapevm::shp
