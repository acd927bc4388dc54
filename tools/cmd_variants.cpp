// shapevm variants NAME --class C: the whole-model damage variants the engine derives for an
// object type (seed 002) and which shapes each draw pass queues for an object in a given state.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "interp/common/file_io.h"
#include "interp/common/input_error.h"
#include "interp/fa/ealib.h"
#include "interp/fa/shape_selection.h"
#include "tools/command.h"

namespace shapevm::tools {

namespace {

uint16_t parse_class(const std::string& text) {
  static const std::pair<const char*, uint16_t> kNames[] = {
      {"fighter", fa::kClassFighter}, {"bomber", fa::kClassBomber}, {"ship", fa::kClassShip},
      {"sam", fa::kClassSam},         {"aaa", fa::kClassAaa},       {"tank", fa::kClassTank},
      {"vehicle", fa::kClassVehicle}};
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

void register_variants_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string name;
    std::string obj_class;
    unsigned type_flags = 0xC0;
    unsigned health = 1;
    bool damage_model = false;
    unsigned damage_set = 1;
    std::string lib;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "variants",
      "The FA whole-model damage variants of an object type (_a.._d, as _SetupOT derives them)\n"
      "and the shapes each draw pass queues for an object: the base always, plus the wreck when\n"
      "health is 0 and the damage-model flag is set (--damage-set 2 picks _c/_d, else _a/_b).");
  cmd->add_option("name", o->name, "The type's shape file name, e.g. A10.SH")->required();
  cmd->add_option("--class", o->obj_class,
                  "obj_class: fighter, bomber, ship, sam, aaa, tank, vehicle or a number")
      ->required();
  cmd->add_option("--type-flags", o->type_flags, "Type record +0x0E (& 0xC0 builds the _b slot)")
      ->capture_default_str();
  cmd->add_option("--health", o->health, "Entity health word +0x0E (0 = destroyed)")
      ->capture_default_str();
  cmd->add_flag("--damage-model", o->damage_model, "Entity flag 0x100000 is set");
  cmd->add_option("--damage-set", o->damage_set, "Type record +0x33 (2 = the _c/_d set)")
      ->capture_default_str();
  cmd->add_option("--lib", o->lib, "An EALIB .LIB to check the names against (exit 1 if missing)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &ctx] {
    if (o->type_flags > 0xFF) throw InputError("--type-flags", "must be a byte (0..0xFF)");
    const fa::ShapeSlots slots = fa::setup_shape_slots(o->name, parse_class(o->obj_class),
                                                       static_cast<uint8_t>(o->type_flags));
    fa::ObjectState object;
    object.health = static_cast<uint16_t>(o->health);
    object.damage_model = o->damage_model;
    object.damage_set = o->damage_set;
    const auto world = fa::shapes_to_draw(slots, object, fa::DrawPass::kWorld);
    const auto graphics = fa::shapes_to_draw(slots, object, fa::DrawPass::kGraphics);

    std::vector<uint8_t> lib_bytes;
    std::unique_ptr<fa::EaLib> lib;
    if (!o->lib.empty()) {
      lib_bytes = read_file(o->lib);
      lib = std::make_unique<fa::EaLib>(lib_bytes, o->lib);
    }
    std::vector<std::string> missing;
    auto present = [&](const std::string& name) -> std::optional<bool> {
      if (!lib || name.empty()) return std::nullopt;
      const bool found = lib->find(name) != nullptr;
      if (!found) missing.push_back(name);
      return found;
    };
    const std::pair<const char*, const std::string*> named[] = {
        {"base", &slots.base}, {"a", &slots.a}, {"b", &slots.b}, {"c", &slots.c}, {"d", &slots.d}};
    if (o->json) {
      nlohmann::json j;
      for (const auto& [slot, name] : named) {
        j["slots"][slot] = name->empty() ? nlohmann::json() : nlohmann::json(*name);
        if (auto p = present(*name)) j["in_lib"][slot] = *p;
      }
      j["world_pass"] = world;
      j["graphics_pass"] = graphics;
      fmt::print("{}\n", j.dump(1));
    } else {
      for (const auto& [slot, name] : named) {
        const auto p = present(*name);
        fmt::print("{:<16} {}{}\n", fmt::format("slot {}", slot), name->empty() ? "-" : *name,
                   p ? (*p ? "  (in the LIB)" : "  (MISSING from the LIB)") : "");
      }
      fmt::print("{:<16} {}\n", "world pass", fmt::join(world, ", "));
      fmt::print("{:<16} {}\n", "graphics pass", fmt::join(graphics, ", "));
    }
    if (!missing.empty()) ctx.exit_code = 1;
  });
}

}  // namespace shapevm::tools
