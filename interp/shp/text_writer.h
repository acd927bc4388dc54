// The text form of a model (docs/shp.md, "Text form"): its chunk stream as the file holds it, one
// line per chunk (tag, its name, the record size) and one per record, each named field as
// NAME=VALUE, the bytes no field names that are not what the fields encode as raw@OFFSET=HEX, and
// the bytes past the engine's struct (an attachment's tail) as tail=HEX. Floats are printed as
// the shortest decimal that reads back to the same bits, or #XXXXXXXX (the bits in hex) when not
// finite. A field the record does not reach is not printed: it is absent. The assembler
// (assembler.h) reads the text back to the same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shapevm::shp {

struct TextLine {
  std::optional<uint32_t> offset;  // the chunk or record on this line, in the model image
  std::string text;
};

// The text of a whole model image. InputError when the chunk stream is malformed.
std::vector<TextLine> model_text_lines(std::span<const uint8_t> image, const std::string& source);
std::string model_text(std::span<const uint8_t> image, const std::string& source);

// A float's text: shortest round-trip decimal, or #bits when not finite.
std::string float_text(uint32_t bits);

}  // namespace shapevm::shp
