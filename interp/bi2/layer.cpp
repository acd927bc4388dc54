#include "interp/bi2/layer.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/expect.h"

namespace shapevm::bi2 {

bool is_layer(std::span<const uint8_t> b) {
  return b.size() >= 4 && b[0] == '3' && b[1] == 'D' && b[2] == 'L' && b[3] == 'D';
}

bool unused_object(uint16_t id) {
  return id == assumed::kUnusedObject || id == assumed::kUnusedObjectAlt;
}

Layer read_layer(std::span<const uint8_t> bytes, const std::string& source) {
  const ByteReader r(bytes, source);
  r.require(0, kLayerHeaderBytes, "a 34-byte 3DLD header");
  if (!is_layer(bytes)) expected(r, 0, "the tag \"3DLD\"");
  Layer l;
  l.source = source;
  for (size_t i = 0; i < kLayerSlots; ++i) l.object_ids[i] = r.u16(4 + 2 * i, "an object id");
  const auto pad = r.bytes(0x10, 16, "padding");
  std::copy(pad.begin(), pad.end(), l.padding.begin());
  const uint16_t count = r.u16(0x20, "the placement count");
  r.require(kLayerHeaderBytes, size_t{kPlacementBytes} * count,
            fmt::format("{} placements of 16 bytes (the count at 0x20)", count));
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = kLayerHeaderBytes + size_t{kPlacementBytes} * i;
    Placement p;
    p.slot = r.u16(at, "a placement slot");
    if (p.slot >= kLayerSlots)
      expected(
          r, at,
          fmt::format("placement {}: a slot 0..5 (an index into object_ids), not {}", i, p.slot));
    p.unknown_02 = r.u16(at + 2, "unknown_02");
    p.x = r.i16(at + 4, "x");
    p.z = r.i16(at + 6, "z");
    const auto res = r.bytes(at + 8, 8, "reserved_08");
    std::copy(res.begin(), res.end(), p.reserved_08.begin());
    if (p.x % 1000 != 0 || p.z % 1000 != 0)
      l.notes.push_back(
          {static_cast<uint32_t>(at + 4), DiagnosticLevel::kInfo,
           fmt::format("placement {}: ({}, {}) is not on the 1000-unit grid", i, p.x, p.z)});
    if (std::any_of(p.reserved_08.begin(), p.reserved_08.end(), [](uint8_t b) { return b != 0; }))
      l.notes.push_back({static_cast<uint32_t>(at + 8), DiagnosticLevel::kInfo,
                         fmt::format("placement {}: reserved_08 is not zero", i)});
    l.placements.push_back(p);
  }
  const size_t end = kLayerHeaderBytes + size_t{kPlacementBytes} * count;
  l.trailing.assign(bytes.begin() + static_cast<std::ptrdiff_t>(end), bytes.end());
  if (!l.trailing.empty())
    l.notes.push_back({static_cast<uint32_t>(end), DiagnosticLevel::kInfo,
                       fmt::format("{} bytes after the last placement", l.trailing.size())});
  return l;
}

std::vector<uint8_t> write_layer(const Layer& l) {
  if (l.placements.size() > 0xFFFF) throw InputError(l.source, "more than 65535 placements");
  std::vector<uint8_t> out = {'3', 'D', 'L', 'D'};
  for (uint16_t id : l.object_ids) append_u16(out, id);
  out.insert(out.end(), l.padding.begin(), l.padding.end());
  append_u16(out, static_cast<uint32_t>(l.placements.size()));
  for (const Placement& p : l.placements) {
    append_u16(out, p.slot);
    append_u16(out, p.unknown_02);
    append_u16(out, static_cast<uint16_t>(p.x));
    append_u16(out, static_cast<uint16_t>(p.z));
    out.insert(out.end(), p.reserved_08.begin(), p.reserved_08.end());
  }
  out.insert(out.end(), l.trailing.begin(), l.trailing.end());
  return out;
}

}  // namespace shapevm::bi2
