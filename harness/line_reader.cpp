#include "harness/line_reader.h"

namespace shapevm::harness {

ReadLine StreamLineReader::read(std::string_view prompt) {
  if (interactive_) out_ << prompt << std::flush;
  ReadLine r;
  if (!std::getline(in_, r.text)) return {ReadLine::Kind::kEnd, ""};
  r.kind = ReadLine::Kind::kLine;
  return r;
}

}  // namespace shapevm::harness
