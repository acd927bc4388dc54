// A loaded Fighters Anthology shape: its Phar Lap container and the 14-byte header at the start
// of CODE (seed 000, "Code Section Structure").
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "interp/fa/pe_image.h"

namespace shapevm::fa {

inline constexpr uint32_t kHeaderSize = 14;  // FF FF, radius_world, radius, scale, extents[3]

struct ShapeHeader {
  int16_t radius_world = 0;  // world units; never read by the engine (seed 000, FA-52)
  int16_t radius = 0;        // shape units; OR-ed into the precision-shift lookup
  int16_t scale = 8;         // raw scale field (bytes 6..8)
  std::array<int16_t, 3> extents{};

  // world feet per raw unit: the seed's table 7→0.5, 8→1, 9→2, 10→4, 11→8, 0 treated as 8.
  // Values outside the table follow the same power of two (2^(scale-8)) and are flagged.
  double scale_factor() const;
  bool scale_in_table() const;
  // The scale the engine shifts by: 0 is treated as 8.
  int effective_scale() const { return scale == 0 ? 8 : scale; }
};

struct Shape {
  PharLapImage image;
  ShapeHeader header;
  const std::vector<uint8_t>& code() const { return image.code; }
  const std::string& source() const { return image.source; }
  // File offset of a CODE offset, for error messages.
  uint64_t file_offset(uint32_t code_offset) const;
};

// Parses the container and the header. Throws InputError if the CODE section is shorter than the
// header or does not start with FF FF.
Shape load_shape(std::span<const uint8_t> file, const std::string& source);
ShapeHeader parse_header(std::span<const uint8_t> code, const std::string& source,
                         uint64_t code_file_offset);

}  // namespace shapevm::fa
