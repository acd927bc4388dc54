// The assembler for the text form (text_writer.h, docs/shp.md "Text form"): text in, the model
// image (a chunk stream) out, byte for byte what the text says.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::shp {

// Whether `text` is the text form: its first statement is `shp`.
bool looks_like_shp_text(std::string_view text);

// The model image the text describes. InputError "SOURCE: line N: what" for anything malformed:
// an unknown statement, field or record keyword, a value out of its field's range, a record
// outside a chunk or of another tag, a raw byte past the record's struct, a tail longer than the
// record has room for, more than 65535 records in a chunk, a missing `end`.
std::vector<uint8_t> assemble_model(std::string_view text, const std::string& source);

}  // namespace shapevm::shp
