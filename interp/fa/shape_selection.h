// Which whole .SH models the engine draws for one game object (seed 002, "Shape Selection &
// Damage Models"): the lettered damage variants _a.._d that _SetupOT derives from the type's shape
// name at type-load time, and the per-frame choice the two draw-enqueue passes make
// (_T_AddYourObjs: world pass, _GRAPHICAddYourObjs: graphics pass). This is the inter-shape axis;
// LOD, detail, damage branches and articulation inside one shape are the interpreter's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shapevm::fa {

// obj_class bits of the type record (+0x0D).
inline constexpr uint16_t kClassFighter = 0x8000;
inline constexpr uint16_t kClassBomber = 0x4000;
inline constexpr uint16_t kClassAircraft = kClassFighter | kClassBomber;
inline constexpr uint16_t kClassShip = 0x2000;
inline constexpr uint16_t kClassSam = 0x1000;
inline constexpr uint16_t kClassAaa = 0x0800;
inline constexpr uint16_t kClassTank = 0x0400;
inline constexpr uint16_t kClassVehicle = 0x0200;

// _SetupOT's naming step (SEL-01): the suffixing template with the last character of its stem
// (the name before the extension) overwritten by `letter`.
std::string overwrite_last_stem_char(const std::string& name_template, char letter);

// The suffixing template for a type whose shape is `base` (assumed: see docs/fa.md, decision 18):
// the stem with "_?" appended, so the worked example's a10.SH gives a10_a.SH .. a10_d.SH.
std::string variant_template(const std::string& base);

// type_flags (+0x0E, one byte) as _SetupOT reads it. Seed 002's type record puts the two-byte
// obj_class at +0x0D, so +0x0E is obj_class's high byte (little-endian): the field is not
// separate data, and `type_flags & 0xC0` is `obj_class & 0xC000`, the aircraft bits.
inline constexpr uint8_t type_flags_of(uint16_t obj_class) {
  return static_cast<uint8_t>(obj_class >> 8);
}

// The type record's shape slots after _SetupOT (SEL-02, SEL-03). Empty = not built.
struct ShapeSlots {
  std::string base;  // +0x0F, always
  std::string a;     // +0x17
  std::string b;     // +0x1B (only when type_flags & 0xC0: aircraft)
  std::string c;     // +0x25 (aircraft only)
  std::string d;     // +0x29 (aircraft only)
};

// obj_class +0x0D, base = the type's shape file name. The _b gate reads type_flags_of(obj_class)
// unless `override_type_flags` gives the +0x0E byte explicitly (a what-if against the layout,
// e.g. for a record whose bytes are known to disagree with the seed's).
ShapeSlots setup_shape_slots(const std::string& base, uint16_t obj_class,
                             std::optional<uint8_t> override_type_flags = std::nullopt);

// The per-instance fields the draw passes read.
struct ObjectState {
  uint16_t health = 1;        // entity +0x0E; 0 = destroyed
  bool damage_model = false;  // entity +0x01 & 0x100000
  uint32_t damage_set = 1;    // type +0x33: 2 selects {_c, _d}; PLANEBreakUp writes Rand(2)+1
};

enum class DrawPass : uint8_t { kWorld, kGraphics };

// The shapes one pass queues for the object, in order (SEL-04, SEL-05): the base always, then the
// wreck variant when health == 0 and the damage-model flag is set (an empty slot adds nothing).
std::vector<std::string> shapes_to_draw(const ShapeSlots& slots, const ObjectState& object,
                                        DrawPass pass);

}  // namespace shapevm::fa
