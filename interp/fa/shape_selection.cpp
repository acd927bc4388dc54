#include "interp/fa/shape_selection.h"

#include <cctype>

namespace shapevm::fa {

namespace {

// Where the stem ends: at the last '.', or the end of the name when it has no extension.
size_t stem_end(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name.size() : dot;
}

// The letter in the case of the name: FA's files are upper case, type records mostly lower.
char letter_like(const std::string& name, char letter) {
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c)))
      return static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    if (std::islower(static_cast<unsigned char>(c))) return letter;
  }
  return letter;
}

}  // namespace

std::string overwrite_last_stem_char(const std::string& name_template, char letter) {
  std::string out = name_template;
  const size_t end = stem_end(out);
  if (end == 0) return out;  // no stem to suffix
  out[end - 1] = letter_like(out, letter);
  return out;
}

std::string variant_template(const std::string& base) {
  const size_t end = stem_end(base);
  return base.substr(0, end) + "_?" + base.substr(end);
}

ShapeSlots setup_shape_slots(const std::string& base, uint16_t obj_class,
                             std::optional<uint8_t> override_type_flags) {
  ShapeSlots s;
  s.base = base;
  const bool aircraft = (obj_class & kClassAircraft) != 0;
  // The template the letters overwrite: the type's own name for aircraft and ships, a generic
  // shared one for ground classes (SEL-02).
  std::string name_template;
  if (aircraft || (obj_class & kClassShip)) {
    name_template = variant_template(base);
  } else if (obj_class & kClassTank) {
    name_template = "TANK_?.SH";
  } else if (obj_class & kClassAaa) {
    name_template = "AAA_?.SH";
  } else if (obj_class & kClassSam) {
    name_template = "SAM_?.SH";
  } else if (obj_class & kClassVehicle) {
    name_template = "VEHI_?.SH";
  } else {
    return s;  // no damage variants for other classes
  }
  s.a = overwrite_last_stem_char(name_template, 'a');
  const uint8_t type_flags = override_type_flags.value_or(type_flags_of(obj_class));
  if (type_flags & 0xC0) s.b = overwrite_last_stem_char(name_template, 'b');  // SEL-03
  if (aircraft) {
    s.c = overwrite_last_stem_char(name_template, 'c');
    s.d = overwrite_last_stem_char(name_template, 'd');
  }
  return s;
}

std::vector<std::string> shapes_to_draw(const ShapeSlots& slots, const ObjectState& object,
                                        DrawPass pass) {
  std::vector<std::string> out = {slots.base};
  if (object.health != 0 || !object.damage_model) return out;
  const bool second_set = object.damage_set == 2;
  const std::string& wreck = pass == DrawPass::kWorld ? (second_set ? slots.c : slots.a)
                                                      : (second_set ? slots.d : slots.b);
  if (!wreck.empty()) out.push_back(wreck);
  return out;
}

}  // namespace shapevm::fa
