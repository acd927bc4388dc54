#include "interp/bi2/palette.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {

raster::Palette read_fight_palette(std::span<const uint8_t> bytes, const std::string& source) {
  if (bytes.size() != static_cast<size_t>(assumed::kPaletteBytes)) {
    throw InputError(
        source, 0,
        fmt::format("a fight palette of 768 bytes (256 x R, G, B), not {} bytes", bytes.size()));
  }
  const bool six_bit = std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b <= 63; });
  raster::Palette p;
  for (size_t i = 0; i < 256; ++i) {
    auto widen = [&](uint8_t v) { return six_bit ? static_cast<uint8_t>(v * 4 + v / 16) : v; };
    p.colors[i] = {widen(bytes[3 * i]), widen(bytes[3 * i + 1]), widen(bytes[3 * i + 2])};
  }
  return p;
}

raster::Palette load_fight_palette(const std::string& spec) {
  if (spec.empty()) return raster::default_palette();
  const MemberSpec ms = parse_member_spec(spec);
  const std::vector<uint8_t> file = read_file(ms.path);
  if (!ms.member) return read_fight_palette(tpwm_decode(file, spec), spec);
  const std::vector<uint8_t> whole = tpwm_decode(file, ms.path);
  const LibArchive lib(whole, ms.path);
  const LibMember& m = lib.find(*ms.member);
  return read_fight_palette(lib.decoded(m), lib.member_source(m));
}

}  // namespace shapevm::bi2
