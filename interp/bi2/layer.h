// The 3DLD scenery/ground list (docs/bi2.md, "3DLD"): "3DLD", six u16 object ids (0xFFFF and
// 0xFFFE mark unused slots), 16 bytes of padding, a u16 placement count at 0x20 and 16-byte
// placements from 0x22 {u16 slot, u16 unknown_02, i16 x, i16 z, 8 reserved bytes}.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interp/bi2/mesh.h"

namespace shapevm::bi2 {

inline constexpr uint32_t kLayerHeaderBytes = 0x22;
inline constexpr uint32_t kPlacementBytes = 16;
inline constexpr size_t kLayerSlots = 6;

struct Placement {
  uint16_t slot = 0;
  uint16_t unknown_02 = 0;
  int16_t x = 0, z = 0;
  std::array<uint8_t, 8> reserved_08{};
};

struct Layer {
  std::string source;
  std::array<uint16_t, kLayerSlots> object_ids{};
  std::array<uint8_t, 16> padding{};
  std::vector<Placement> placements;
  std::vector<uint8_t> trailing;  // bytes after the last placement, kept for an exact rewrite
  std::vector<Note> notes;
};

bool is_layer(std::span<const uint8_t> bytes);  // "3DLD"
bool unused_object(uint16_t id);
// InputError for a short file or a placement whose slot is not 0..5.
Layer read_layer(std::span<const uint8_t> bytes, const std::string& source);
std::vector<uint8_t> write_layer(const Layer& layer);

}  // namespace shapevm::bi2
