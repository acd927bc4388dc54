#include "interp/shp/draw_pause.h"

namespace shapevm::shp {

std::vector<DebugValue> DrawPausePoint::registers() const {
  return {
      {"cursor", v_.offset, ""}, {"tag", v_.tag, ""},     {"struct_size", v_.struct_size, ""},
      {"part", v_.part, ""},     {"level", v_.level, ""}, {"node", -1, ""},
      {"clip", v_.clip, ""},     {"list", -1, ""},        {"face", v_.face, ""},
      {"mode", v_.mode, ""},
  };
}

std::optional<int64_t> DrawPausePoint::read(std::string_view name) const {
  for (const auto& r : registers())
    if (r.name == name) return r.value;
  if (name == "steps") return static_cast<int64_t>(v_.steps);
  if (name == "faces") return static_cast<int64_t>(v_.faces);
  if (name == "offset") return v_.offset;
  if (name == "depth") return 0;
  return std::nullopt;
}

Snapshot DrawPausePoint::capture() const {
  Snapshot s;
  s.steps = v_.steps;
  s.offset = v_.offset;
  s.mnemonic = v_.mnemonic;
  s.faces = v_.faces;
  s.registers = registers();
  return s;
}

DebugVocabulary DrawPausePoint::vocabulary() const {
  DebugVocabulary v;
  for (const auto& r : registers()) v.register_names.push_back(r.name);
  return v;
}

}  // namespace shapevm::shp
