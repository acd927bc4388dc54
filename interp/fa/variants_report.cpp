#include "interp/fa/variants_report.h"

#include <fmt/format.h>

#include <memory>

#include "core/input_error.h"
#include "interp/fa/ealib.h"
#include "interp/fa/shape_selection.h"

namespace shapevm::fa {

namespace {

uint16_t parse_class(const std::string& text) {
  static const std::pair<const char*, uint16_t> kNames[] = {
      {"fighter", kClassFighter}, {"bomber", kClassBomber}, {"ship", kClassShip},
      {"sam", kClassSam},         {"aaa", kClassAaa},       {"tank", kClassTank},
      {"vehicle", kClassVehicle}};
  for (const auto& [name, bits] : kNames)
    if (text == name) return bits;
  try {
    size_t used = 0;
    const unsigned long v = std::stoul(text, &used, 0);
    if (used == text.size() && v <= 0xFFFF) return static_cast<uint16_t>(v);
  } catch (const std::exception&) {
  }
  throw InputError("--class",
                   "fighter, bomber, ship, sam, aaa, tank, vehicle or an obj_class number "
                   "(0..0xFFFF), not \"" +
                       text + "\"");
}

}  // namespace

VariantsReport variants_report(const VariantsRequest& request) {
  std::optional<std::string> obj_class;
  std::optional<uint8_t> override_type_flags;
  int64_t health = 1, damage_set = 1;
  bool damage_model = false;
  for (const Setting& s : request.settings) {
    if (s.name == "class") {
      obj_class = s.value;
    } else if (s.name == "override-type-flags") {
      override_type_flags =
          static_cast<uint8_t>(parse_integer(s.value, "--override-type-flags", 0, 0xFF));
    } else if (s.name == "health") {
      health = parse_integer(s.value, "--health", 0, 0xFFFF);
    } else if (s.name == "damage-model") {
      damage_model = s.value != "0";
    } else if (s.name == "damage-set") {
      damage_set = parse_integer(s.value, "--damage-set", 0, UINT32_MAX);
    } else {
      throw InputError("--" + s.name, "not an FA object setting");
    }
  }
  if (!obj_class) throw InputError("--class", "required for FA variants");
  const ShapeSlots slots =
      setup_shape_slots(request.name, parse_class(*obj_class), override_type_flags);
  ObjectState object;
  object.health = static_cast<uint16_t>(health);
  object.damage_model = damage_model;
  object.damage_set = static_cast<uint32_t>(damage_set);
  const auto world = shapes_to_draw(slots, object, DrawPass::kWorld);
  const auto graphics = shapes_to_draw(slots, object, DrawPass::kGraphics);
  std::unique_ptr<EaLib> lib;
  if (request.container)
    lib = std::make_unique<EaLib>(request.container->bytes, request.container->path);
  VariantsReport out;
  auto present = [&](const std::string& name) -> std::optional<bool> {
    if (!lib || name.empty()) return std::nullopt;
    const bool found = lib->find(name) != nullptr;
    if (!found) ++out.missing;
    return found;
  };
  const std::pair<const char*, const std::string*> named[] = {
      {"base", &slots.base}, {"a", &slots.a}, {"b", &slots.b}, {"c", &slots.c}, {"d", &slots.d}};
  for (const auto& [slot, name] : named) {
    const auto p = present(*name);
    out.json["slots"][slot] = name->empty() ? nlohmann::json() : nlohmann::json(*name);
    if (p) out.json["in_lib"][slot] = *p;
    out.text +=
        fmt::format("{:<16} {}{}\n", fmt::format("slot {}", slot), name->empty() ? "-" : *name,
                    p ? (*p ? "  (in the LIB)" : "  (MISSING from the LIB)") : "");
  }
  out.json["world_pass"] = world;
  out.json["graphics_pass"] = graphics;
  out.text += fmt::format("{:<16} {}\n", "world pass", fmt::join(world, ", "));
  out.text += fmt::format("{:<16} {}\n", "graphics pass", fmt::join(graphics, ", "));
  return out;
}

}  // namespace shapevm::fa
