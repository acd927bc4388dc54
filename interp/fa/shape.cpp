#include "interp/fa/shape.h"

#include <fmt/format.h>

#include <cmath>

#include "core/byte_reader.h"

namespace shapevm::fa {

double ShapeHeader::scale_factor() const {
  return std::ldexp(1.0, effective_scale() - 8);
}

bool ShapeHeader::scale_in_table() const {
  return scale == 0 || (scale >= 7 && scale <= 11);
}

uint64_t Shape::file_offset(uint32_t code_offset) const {
  return static_cast<uint64_t>(image.sections.at(image.code_section).raw_offset) + code_offset;
}

ShapeHeader parse_header(std::span<const uint8_t> code, const std::string& source,
                         uint64_t code_file_offset) {
  if (code.size() < kHeaderSize) {
    throw InputError(source, code_file_offset,
                     fmt::format("expected the 14-byte shape header at the start of CODE, but CODE "
                                 "is {} bytes long",
                                 code.size()));
  }
  if (code[0] != 0xFF || code[1] != 0xFF) {
    throw InputError(source, code_file_offset,
                     fmt::format("expected the shape header signature FF FF at CODE offset 0, "
                                 "found {:02X} {:02X}",
                                 code[0], code[1]));
  }
  ByteReader r(code, source);
  ShapeHeader h;
  h.radius_world = r.i16(2, "radius_world");
  h.radius = r.i16(4, "radius");
  h.scale = r.i16(6, "scale");
  for (int i = 0; i < 3; ++i) h.extents[i] = r.i16(8 + 2 * i, "extent");
  if (h.scale < 0 || h.scale > 30) {
    throw InputError(source, code_file_offset + 6,
                     fmt::format("expected a scale field between 0 and 30 (FA uses 0 and 7..11), "
                                 "found {}",
                                 h.scale));
  }
  return h;
}

Shape load_shape(std::span<const uint8_t> file, const std::string& source) {
  Shape s;
  s.image = parse_pharlap(file, source);
  s.header = parse_header(s.image.code, source, s.file_offset(0));
  return s;
}

}  // namespace shapevm::fa
