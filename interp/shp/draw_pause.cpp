#include "interp/shp/draw_pause.h"

namespace shapevm::shp {

std::optional<int64_t> DrawPausePoint::read(std::string_view name) const {
  if (name == "part") return v_.part;
  if (name == "level") return v_.level;
  if (name == "face") return v_.face;
  if (name == "mode") return v_.mode;
  if (name == "steps") return static_cast<int64_t>(v_.steps);
  if (name == "faces") return static_cast<int64_t>(v_.faces);
  if (name == "offset") return v_.offset;
  return std::nullopt;
}

Snapshot DrawPausePoint::capture() const {
  Snapshot s;
  s.steps = v_.steps;
  s.offset = v_.offset;
  s.mnemonic = v_.mnemonic;
  s.faces = v_.faces;
  s.registers = {
      {"part", v_.part, ""}, {"level", v_.level, ""}, {"face", v_.face, ""}, {"mode", v_.mode, ""}};
  return s;
}

DebugVocabulary DrawPausePoint::vocabulary() const {
  DebugVocabulary v;
  v.register_names = {"part", "level", "face", "mode"};
  return v;
}

}  // namespace shapevm::shp
