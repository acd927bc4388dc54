// Whole-model damage variants and their per-pass selection (seed 002, SEL-01..SEL-05), in the
// library and through `shapevm variants`.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "interp/fa/shape_selection.h"
#include "tests/fa/lib_builder.h"
#include "tests/tools/run_cli.h"

namespace fa_shape_selection_tests {

using namespace shapevm;
using namespace shapevm::fa;

TEST_CASE("SEL-01: a variant name overwrites the last character of the template's stem") {
  CHECK(overwrite_last_stem_char("a10_?.SH", 'a') == "a10_a.SH");
  CHECK(overwrite_last_stem_char("A10_?.SH", 'c') == "A10_C.SH");  // FA's upper-case names
  CHECK(overwrite_last_stem_char("TANK_X.SH", 'a') == "TANK_A.SH");
  CHECK(overwrite_last_stem_char("NOEXT", 'b') == "NOEXB");
  CHECK(overwrite_last_stem_char(".SH", 'a') == ".SH");  // no stem: nothing to overwrite
  CHECK(variant_template("A10.SH") == "A10_?.SH");
}

TEST_CASE("SEL-02/SEL-03: which slots _SetupOT builds for each class") {
  // type_flags (+0x0E) is the high byte of the two-byte obj_class at +0x0D, so its 0xC0 bits
  // are the aircraft bits 0xC000: fighters and bombers get _b, every other class does not.
  CHECK(type_flags_of(kClassFighter) == 0x80);
  CHECK(type_flags_of(kClassBomber) == 0x40);
  CHECK(type_flags_of(kClassShip) == 0x20);
  CHECK(type_flags_of(kClassTank) == 0x04);
  CHECK(type_flags_of(kClassVehicle) == 0x02);
  // Aircraft: the full set.
  for (uint16_t aircraft : {kClassFighter, kClassBomber, uint16_t(kClassFighter | 0x0001)}) {
    INFO("obj_class 0x" << std::hex << aircraft);
    ShapeSlots f = setup_shape_slots("A10.SH", aircraft);
    CHECK(f.base == "A10.SH");
    CHECK(f.a == "A10_A.SH");
    CHECK(f.b == "A10_B.SH");
    CHECK(f.c == "A10_C.SH");
    CHECK(f.d == "A10_D.SH");
  }
  // A ship: its own _a proxy; no _b (0x20 & 0xC0 = 0), no _c/_d.
  ShapeSlots ship = setup_shape_slots("CV.SH", kClassShip);
  CHECK(ship.a == "CV_A.SH");
  CHECK(ship.b.empty());
  CHECK(ship.c.empty());
  CHECK(ship.d.empty());
  // Ground classes share generic wrecks and never get _b.
  const std::pair<uint16_t, const char*> ground[] = {{kClassTank, "TANK_A.SH"},
                                                     {kClassAaa, "AAA_A.SH"},
                                                     {kClassSam, "SAM_A.SH"},
                                                     {kClassVehicle, "VEHI_A.SH"}};
  for (const auto& [cls, wreck] : ground) {
    INFO("obj_class 0x" << std::hex << cls);
    ShapeSlots g = setup_shape_slots("T72.SH", cls);
    CHECK(g.a == wreck);
    CHECK(g.b.empty());
    CHECK(g.c.empty());
    CHECK(g.d.empty());
  }
  // Another class: no variants at all.
  ShapeSlots none = setup_shape_slots("TREE.SH", 0x0001);
  CHECK(none.a.empty());
  CHECK(none.b.empty());
  // The explicit override reads +0x0E as given, against the layout.
  CHECK(setup_shape_slots("B52.SH", kClassBomber, uint8_t{0x00}).b.empty());
  CHECK(setup_shape_slots("CV.SH", kClassShip, uint8_t{0x40}).b == "CV_B.SH");
}

TEST_CASE("SEL-04/SEL-05: the base is always drawn; the wreck only when destroyed") {
  const ShapeSlots s = setup_shape_slots("A10.SH", kClassFighter);
  ObjectState alive;
  CHECK(shapes_to_draw(s, alive, DrawPass::kWorld) == std::vector<std::string>{"A10.SH"});
  CHECK(shapes_to_draw(s, alive, DrawPass::kGraphics) == std::vector<std::string>{"A10.SH"});
  ObjectState dead;
  dead.health = 0;
  // Health 0 without the damage-model flag: still only the base.
  CHECK(shapes_to_draw(s, dead, DrawPass::kWorld) == std::vector<std::string>{"A10.SH"});
  dead.damage_model = true;
  dead.damage_set = 1;
  CHECK(shapes_to_draw(s, dead, DrawPass::kWorld) ==
        std::vector<std::string>{"A10.SH", "A10_A.SH"});
  CHECK(shapes_to_draw(s, dead, DrawPass::kGraphics) ==
        std::vector<std::string>{"A10.SH", "A10_B.SH"});
  dead.damage_set = 2;
  CHECK(shapes_to_draw(s, dead, DrawPass::kWorld) ==
        std::vector<std::string>{"A10.SH", "A10_C.SH"});
  CHECK(shapes_to_draw(s, dead, DrawPass::kGraphics) ==
        std::vector<std::string>{"A10.SH", "A10_D.SH"});
  // A flag-set alive object (health != 0) draws no wreck either.
  ObjectState flagged;
  flagged.damage_model = true;
  CHECK(shapes_to_draw(s, flagged, DrawPass::kWorld).size() == 1);
  // A tank's graphics pass has no _b slot to add.
  const ShapeSlots tank = setup_shape_slots("T72.SH", kClassTank);
  dead.damage_set = 1;
  CHECK(shapes_to_draw(tank, dead, DrawPass::kWorld) ==
        std::vector<std::string>{"T72.SH", "TANK_A.SH"});
  CHECK(shapes_to_draw(tank, dead, DrawPass::kGraphics) == std::vector<std::string>{"T72.SH"});
}

TEST_CASE("SEL-01/SEL-04: cli variants lists the slots and checks them against a LIB") {
  ScratchDir dir;
  const auto lib = (dir / "FA_2.LIB").string();
  {
    const auto bytes = test::build_ealib({{"A10.SH", 0, test::to_bytes("x")},
                                          {"A10_A.SH", 0, test::to_bytes("x")},
                                          {"A10_B.SH", 0, test::to_bytes("x")},
                                          {"A10_C.SH", 0, test::to_bytes("x")}});
    std::ofstream(lib, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  auto r =
      run_cli("variants A10.SH --class fighter --health 0 --damage-model --damage-set 2 --json");
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["slots"]["d"] == "A10_D.SH");
  CHECK(j["world_pass"] == nlohmann::json::array({"A10.SH", "A10_C.SH"}));
  CHECK(j["graphics_pass"] == nlohmann::json::array({"A10.SH", "A10_D.SH"}));
  // A10_D.SH is not in the library: exit 1 and the report says which.
  r = run_cli("variants A10.SH --class fighter --lib " + shell_quote(lib));
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("A10_D.SH  (MISSING from the LIB)") != std::string::npos);
  CHECK(r.out.find("A10_C.SH  (in the LIB)") != std::string::npos);
  CHECK(run_cli("variants A10.SH --class spaceship").exit_code == 2);
  CHECK(run_cli("variants A10.SH --class fighter --override-type-flags 300").exit_code == 2);
}

TEST_CASE(
    "SEL-03: cli variants derives the _b gate from the class: aircraft yes, tank and ship no") {
  auto slots = [](const std::string& args) {
    auto r = run_cli("variants " + args + " --json");
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out)["slots"];
  };
  CHECK(slots("B52.SH --class bomber")["b"] == "B52_B.SH");
  CHECK(slots("F16.SH --class fighter")["b"] == "F16_B.SH");
  CHECK(slots("T72.SH --class tank")["a"] == "TANK_A.SH");
  CHECK(slots("T72.SH --class tank")["b"].is_null());
  CHECK(slots("CV.SH --class ship")["b"].is_null());
  CHECK(slots("0x2000.SH --class 0x2000")["b"].is_null());
  // The graphics pass of a destroyed tank queues no wreck: it has no _b.
  auto r = run_cli("variants T72.SH --class tank --health 0 --damage-model --json");
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["graphics_pass"] == nlohmann::json::array({"T72.SH"}));
  // Only the explicitly named override can say otherwise.
  CHECK(slots("T72.SH --class tank --override-type-flags 0xC0")["b"] == "TANK_B.SH");
  CHECK(run_cli("variants T72.SH --class tank --type-flags 0xC0").exit_code == 2);
}

}  // namespace fa_shape_selection_tests
