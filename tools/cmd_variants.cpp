// shapevm variants NAME --class C: the whole-model variants an engine derives for an object type
// and which programs each draw pass queues for an object in a given state (FA: seed 002's damage
// variants). The engine is the one that has variants, --engine, or the one whose container --lib
// is.
#include <fmt/format.h>

#include "core/input_error.h"
#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "interp/common/variants.h"
#include "tools/command.h"

namespace shapevm::tools {

void register_variants_command(CLI::App& app, CommandContext& ctx) {
  struct Options {
    std::string name;
    std::string engine;
    std::string obj_class;
    std::string override_type_flags;
    std::string health = "1";
    bool damage_model = false;
    std::string damage_set = "1";
    std::string lib;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "variants",
      "The whole-model damage variants of an object type (FA: _a.._d, as _SetupOT derives\n"
      "them) and the shapes each draw pass queues for an object: the base always, plus the wreck\n"
      "when health is 0 and the damage-model flag is set (--damage-set 2 picks _c/_d, else\n"
      "_a/_b).");
  cmd->add_option("name", o->name, "The type's shape file name, e.g. A10.SH")->required();
  cmd->add_option("--engine", o->engine, "The engine (default: the one that has variants)");
  cmd->add_option("--class", o->obj_class,
                  "obj_class: fighter, bomber, ship, sam, aaa, tank, vehicle or a number")
      ->required();
  cmd->add_option("--override-type-flags", o->override_type_flags,
                  "FA: force type record +0x0E (& 0xC0 builds the _b slot). By default it is the\n"
                  "high byte of obj_class, which the record overlaps, so only aircraft get _b");
  cmd->add_option("--health", o->health, "Entity health word +0x0E (0 = destroyed)")
      ->capture_default_str();
  cmd->add_flag("--damage-model", o->damage_model, "Entity flag 0x100000 is set");
  cmd->add_option("--damage-set", o->damage_set, "Type record +0x33 (2 = the _c/_d set)")
      ->capture_default_str();
  cmd->add_option("--lib", o->lib, "A container to check the names against (exit 1 if missing)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, &ctx] {
    VariantsRequest request;
    request.name = o->name;
    request.settings = {{"class", o->obj_class},
                        {"health", o->health},
                        {"damage-model", o->damage_model ? "1" : "0"},
                        {"damage-set", o->damage_set}};
    if (!o->override_type_flags.empty())
      request.settings.push_back({"override-type-flags", o->override_type_flags});
    const Engine* engine = nullptr;
    if (!o->lib.empty()) {
      request.container = read_input(o->lib);
      engine = &engine_for(*request.container, o->engine);
    } else if (!o->engine.empty()) {
      engine = &engine_named(o->engine);
    } else {
      std::vector<std::string> with;
      for (const Engine* e : engines())
        if (!e->variants_help().empty()) {
          engine = e;
          with.emplace_back(e->name());
        }
      if (with.size() != 1)
        throw InputError("--engine",
                         fmt::format("name the engine ({} have variants)", fmt::join(with, ", ")));
    }
    const VariantsReport report = engine->variants(request);
    if (o->json) {
      fmt::print("{}\n", dump_json(report.json, 1));
    } else {
      fmt::print("{}", report.text);
    }
    if (report.missing != 0) ctx.exit_code = kExitDifferences;
  });
}

}  // namespace shapevm::tools
