#include "interp/bi2/tpwm.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/decoded_output.h"
#include "core/lz_matcher.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/expect.h"

namespace shapevm::bi2 {
namespace {

constexpr std::array<uint8_t, 14> kXorKey = {'F', 'U', 'C', 'K', 'B', 'A', 'U',
                                             'E', 'R', 'E', 'W', 'A', 'L', 'D'};

bool magic(std::span<const uint8_t> b) {
  return b.size() >= 4 && b[0] == 'T' && b[1] == 'P' && b[2] == 'W' && b[3] == 'M';
}

}  // namespace

bool is_tpwm(std::span<const uint8_t> bytes) {
  return magic(bytes) && bytes.size() >= kTpwmHeader && !is_tpwm_xor(bytes);
}

bool is_tpwm_xor(std::span<const uint8_t> bytes) {
  if (!magic(bytes)) return false;
  if (bytes.size() < kTpwmHeader) return false;  // too short for a size: tpwm_unpack says so
  return uint64_t{load_u32(bytes.data() + 4)} > assumed::kXorTriggerFactor * bytes.size();
}

std::vector<uint8_t> tpwm_unpack(std::span<const uint8_t> bytes, const std::string& source) {
  const ByteReader r(bytes, source);
  if (!magic(bytes)) expected(r, 0, "the TPWM magic \"TPWM\"");
  const uint32_t size = r.u32(4, "the TPWM unpacked size (u32)");
  if (size > assumed::kMaxUnpackedBytes) {
    expected(r, 4,
             fmt::format("an unpacked size of at most {} bytes (the cap on TPWM output), not {}",
                         assumed::kMaxUnpackedBytes, size));
  }
  // A reference gives at most 18 bytes for its 2, so a stream gives at most 9 bytes per byte.
  constexpr size_t kMostOutputPerByte = 9;
  core::DecodedOutput out(
      std::min<size_t>(size, (bytes.size() - kTpwmHeader) * kMostOutputPerByte));
  const size_t end = bytes.size();
  size_t at = kTpwmHeader;
  while (out.size() < size && at < end) {
    const uint8_t flags = bytes[at++];
    if (flags == 0 && end - at >= 8 && size - out.size() >= 8) {
      out.append(bytes.data() + at, 8);  // eight literals, nothing stopping among them: one move
      at += 8;
      continue;
    }
    for (int bit = 7; bit >= 0 && out.size() < size && at < end; --bit) {
      if ((flags >> bit & 1) == 0) {
        out.push(bytes[at++]);
        continue;
      }
      const size_t ref = at;
      if (end - at < 2) {  // the reader's refusal, naming the byte that is missing
        (void)r.u8(at, "the first byte of a TPWM back reference");
        (void)r.u8(at + 1, "the second byte of a TPWM back reference");
      }
      const uint8_t b1 = bytes[at], b2 = bytes[at + 1];
      at += 2;
      const size_t length = (b1 & 0x0Fu) + 3;
      const size_t distance = static_cast<size_t>(b1 >> 4) * 256 + b2;
      if (distance == 0 || distance > out.size()) {
        expected(r, ref,
                 fmt::format("a back reference 1..{} bytes back (the output so far), not "
                             "distance {}",
                             out.size(), distance));
      }
      out.repeat(distance, std::min<size_t>(length, size - out.size()));  // cut at the size
    }
  }
  if (out.size() < size) {
    expected(r, bytes.size(),
             fmt::format("packed data for {} unpacked bytes (the header's size); the "
                         "stream ends after {}",
                         size, out.size()));
  }
  return out.take();
}

std::vector<uint8_t> tpwm_unxor(std::span<const uint8_t> bytes) {
  std::vector<uint8_t> out;
  if (bytes.size() <= 4) return out;
  out.reserve(bytes.size() - 4);
  for (size_t i = 4; i < bytes.size(); ++i)
    out.push_back(static_cast<uint8_t>(bytes[i] ^ kXorKey[(i - 4) % kXorKey.size()]));
  return out;
}

std::vector<uint8_t> tpwm_decode(std::span<const uint8_t> bytes, const std::string& source) {
  if (is_tpwm_xor(bytes)) return tpwm_unxor(bytes);
  if (magic(bytes)) return tpwm_unpack(bytes, source);
  return {bytes.begin(), bytes.end()};
}

std::vector<uint8_t> tpwm_pack_literal(std::span<const uint8_t> bytes) {
  std::vector<uint8_t> out = {'T', 'P', 'W', 'M'};
  const auto size = static_cast<uint32_t>(bytes.size());
  append_u32(out, size);
  for (size_t at = 0; at < bytes.size(); at += 8) {
    out.push_back(0);
    const size_t n = std::min<size_t>(8, bytes.size() - at);
    out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
               bytes.begin() + static_cast<std::ptrdiff_t>(at + n));
  }
  return out;
}

std::vector<uint8_t> tpwm_pack(std::span<const uint8_t> bytes) {
  std::vector<uint8_t> out = {'T', 'P', 'W', 'M'};
  append_u32(out, static_cast<uint32_t>(bytes.size()));
  constexpr size_t kMaxDistance = 4095, kMaxLength = 18, kShortest = 3;
  core::LzMatcher matcher(bytes, kMaxDistance, kMaxLength);
  size_t flags_at = 0;
  int bit = -1;  // the next flag bit of out[flags_at]; a new flag byte when below 0
  auto next_item = [&](bool reference) {
    if (bit < 0) {
      flags_at = out.size();
      out.push_back(0);
      bit = 7;
    }
    if (reference) out[flags_at] = static_cast<uint8_t>(out[flags_at] | 1 << bit);
    --bit;
  };
  for (size_t at = 0; at < bytes.size();) {
    const core::LzMatcher::Match m = matcher.longest(at, [](size_t) { return kShortest; });
    if (m.length == 0) {
      next_item(false);
      out.push_back(bytes[at]);
      matcher.remember(at++);
      continue;
    }
    next_item(true);
    out.push_back(static_cast<uint8_t>((m.distance >> 8) << 4 | (m.length - kShortest)));
    out.push_back(static_cast<uint8_t>(m.distance));
    for (const size_t end = at + m.length; at < end;) matcher.remember(at++);
  }
  return out;
}

}  // namespace shapevm::bi2
