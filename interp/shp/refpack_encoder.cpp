// The RefPack encoders: literal runs only (what the writers and the generator store), and a
// greedy matcher that uses every command form (streams shaped like the game's, for benchmarks and
// tests).
#include <fmt/format.h>

#include <algorithm>

#include "core/input_error.h"
#include "core/lz_matcher.h"
#include "interp/shp/refpack.h"

namespace shapevm::shp {
namespace {

constexpr size_t kMaxLiteralRun = 112;  // E0-FB: 4..112 bytes, in fours
constexpr size_t kMaxDistance = 131072;
constexpr size_t kMaxLength = 1028;

std::vector<uint8_t> start_stream(size_t size, size_t reserve) {
  if (size > 0xFFFFFF) {
    throw InputError(
        "RefPack encoder",
        fmt::format("{} bytes do not fit a 3-byte RefPack size (at most 16 MiB - 1)", size));
  }
  std::vector<uint8_t> out;
  out.reserve(reserve);
  out.push_back(kRefPackFlags);
  out.push_back(kRefPackMagic);
  out.push_back(static_cast<uint8_t>(size >> 16));
  out.push_back(static_cast<uint8_t>(size >> 8));
  out.push_back(static_cast<uint8_t>(size));
  return out;
}

// Writes data[from, to) as literal runs until fewer than 4 bytes are left; returns where it
// stopped (the 0..3 bytes left go with the next command).
size_t put_literal_runs(std::vector<uint8_t>& out, std::span<const uint8_t> data, size_t from,
                        size_t to) {
  while (to - from >= 4) {
    const size_t run = std::min(kMaxLiteralRun, (to - from) & ~size_t{3});
    out.push_back(static_cast<uint8_t>(0xE0 | (run / 4 - 1)));
    out.insert(out.end(), data.begin() + static_cast<ptrdiff_t>(from),
               data.begin() + static_cast<ptrdiff_t>(from + run));
    from += run;
  }
  return from;
}

void put_end(std::vector<uint8_t>& out, std::span<const uint8_t> data, size_t from) {
  out.push_back(static_cast<uint8_t>(0xFC | (data.size() - from)));
  out.insert(out.end(), data.begin() + static_cast<ptrdiff_t>(from), data.end());
}

// The shortest copy a command form reaching `distance` back can give.
size_t shortest_copy(size_t distance) {
  if (distance <= 1024) return 3;
  return distance <= 16384 ? 4 : 5;
}

// A copy of `length` from `distance` back, with `literals` (0..3) bytes before it.
void put_copy(std::vector<uint8_t>& out, size_t literals, size_t length, size_t distance) {
  const size_t d = distance - 1;
  if (distance <= 1024 && length <= 10) {  // 0dd nnn ll, b1
    out.push_back(static_cast<uint8_t>((d >> 8) << 5 | (length - 3) << 2 | literals));
    out.push_back(static_cast<uint8_t>(d));
  } else if (distance <= 16384 && length <= 67) {  // 10 nnnnnn, ll dddddd, b2
    out.push_back(static_cast<uint8_t>(0x80 | (length - 4)));
    out.push_back(static_cast<uint8_t>(literals << 6 | d >> 8));
    out.push_back(static_cast<uint8_t>(d));
  } else {  // 110 D nn ll, b1, b2, b3
    const size_t n = length - 5;
    out.push_back(static_cast<uint8_t>(0xC0 | (d >> 16) << 4 | (n >> 8) << 2 | literals));
    out.push_back(static_cast<uint8_t>(d >> 8));
    out.push_back(static_cast<uint8_t>(d));
    out.push_back(static_cast<uint8_t>(n));
  }
}

}  // namespace

std::vector<uint8_t> refpack_compress_literal(std::span<const uint8_t> data) {
  std::vector<uint8_t> out = start_stream(data.size(), data.size() + data.size() / 112 + 6);
  put_end(out, data, put_literal_runs(out, data, 0, data.size()));
  return out;
}

std::vector<uint8_t> refpack_compress(std::span<const uint8_t> data) {
  std::vector<uint8_t> out = start_stream(data.size(), data.size() + data.size() / 112 + 6);
  core::LzMatcher matcher(data, kMaxDistance, kMaxLength);
  size_t literal_from = 0, at = 0;
  while (at < data.size()) {
    const core::LzMatcher::Match best = matcher.longest(at, shortest_copy);
    if (best.length == 0) {
      matcher.remember(at++);
      continue;
    }
    literal_from = put_literal_runs(out, data, literal_from, at);
    put_copy(out, at - literal_from, best.length, best.distance);  // its 0..3 literals follow it
    out.insert(out.end(), data.begin() + static_cast<ptrdiff_t>(literal_from),
               data.begin() + static_cast<ptrdiff_t>(at));
    for (const size_t end = at + best.length; at < end;) matcher.remember(at++);
    literal_from = at;
  }
  put_end(out, data, put_literal_runs(out, data, literal_from, data.size()));
  return out;
}

}  // namespace shapevm::shp
