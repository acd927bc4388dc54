#include "interp/fa/engine_globals.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "interp/common/state.h"
#include "interp/fa/opcodes.h"

namespace shapevm::fa {
namespace {

using K = EngineAddressKind;

// Seed 000. Globals: the JumpToFrame, JumpToDamage, JumpToDetail and JumpToLOD sections and the
// handler table's notes on 0xA6/0xAC/0xC8. Routines: FlyingLoop and ShapeSetup (who writes
// _frameCounter and _destroyed), GRAddBrentObj (Engine Notes), do_start_interp (the x86 entry
// contract). The name `_effects` for the flag word at 0x515EF0 is this project's reading
// (assumptions.h).
constexpr EngineAddress kTable[] = {
    {"FlyingLoop", 0x404C70, K::kRoutine,
     "the main flight loop: advances _frameCounter once per rendered frame"},
    {"ShapeSetup", 0x4AB450, K::kRoutine,
     "queues a shape for an entity; sets _destroyed and the _PL* articulation inputs"},
    {"GRAddBrentObj", 0x4D057C, K::kRoutine,
     "registers a shape instance: reads the header, culls, queues the render record"},
    {"do_start_interp", 0x4D4240, K::kRoutine,
     "the bytecode entry an embedded x86 block jumps to with esi = the sub-stream"},
    {"_frameCounter", 0x4EB738, K::kGlobal,
     "frame counter, 15 bits; JumpToFrame takes slot counter mod nframes"},
    {"_destroyed", 0x50C39C, K::kGlobal, "the entity is destroyed; JumpToDamage branches on it"},
    {"_detail", 0x515EEE, K::kGlobal,
     "the detail preference; JumpToDetail branches when it is below the threshold"},
    {"_effects", 0x515EF0, K::kGlobal, "the effects flags; 0x20000 makes JumpToLOD draw its block"},
    {"m3", 0x515F48, K::kGlobal, "view matrix, depth row: x weight (Q15)"},
    {"m6", 0x515F4E, K::kGlobal, "view matrix, depth row: y weight (Q15)"},
    {"m9", 0x515F54, K::kGlobal, "view matrix, depth row: z weight (Q15)"},
    {"scrh", 0x5182F4, K::kGlobal, "the screen height in pixels (JumpToLOD)"},
    {"aspecty", 0x51837C, K::kGlobal, "the view's vertical aspect (JumpToLOD)"},
    {"vector_table", kVectorTableAddress, K::kTable,
     "the interpreter's dispatch table, addressed at opcode*2"},
    {"xv", 0x51CDAA, K::kGlobal, "the object's x relative to the viewer"},
    {"yv", 0x51CDAC, K::kGlobal, "the object's y relative to the viewer"},
    {"zv", 0x51CDAE, K::kGlobal, "the object's z relative to the viewer"},
    {"sizeAdjust", 0x51D125, K::kGlobal, "scales JumpToLOD's pixel threshold (x/256)"},
};

static_assert(std::is_sorted(std::begin(kTable), std::end(kTable),
                             [](const EngineAddress& a, const EngineAddress& b) {
                               return a.address < b.address;
                             }));

EngineAddress handler_entry(const OpcodeInfo& info) {
  return {info.handler.empty() ? info.mnemonic : info.handler, info.handler_address, K::kHandler,
          info.mnemonic};
}

int64_t value_of(std::string_view name, const RunState& s, const ViewSetup& v) {
  if (name == "_frameCounter") return s.frame_counter();
  if (name == "_destroyed") return s.destroyed_flag() ? 1 : 0;
  if (name == "_detail") return s.detail;
  if (name == "_effects") return s.effects;
  if (name == "m3") return v.m[2];
  if (name == "m6") return v.m[5];
  if (name == "m9") return v.m[8];
  if (name == "scrh") return s.scrh;
  if (name == "aspecty") return s.aspecty;
  if (name == "xv") return v.xv;
  if (name == "yv") return v.yv;
  if (name == "zv") return v.zv;
  if (name == "sizeAdjust") return s.size_adjust;
  return 0;
}

}  // namespace

std::span<const EngineAddress> engine_addresses() {
  return kTable;
}

std::optional<EngineAddress> find_engine_address(std::string_view name) {
  for (const auto& e : kTable)
    if (e.name == name) return e;
  for (const auto& info : all_opcodes())
    if (info.handler_address && !info.handler.empty() && info.handler == name)
      return handler_entry(info);
  return std::nullopt;
}

const EngineAddress& engine_global(std::string_view name) {
  for (const auto& e : kTable)
    if (e.name == name) return e;
  throw std::logic_error(fmt::format("no engine address named {}", name));
}

std::optional<EngineAddress> engine_address_at(uint32_t address) {
  for (const auto& e : kTable)
    if (e.address == address) return e;
  for (const auto& info : all_opcodes())
    if (info.handler_address == address && address != 0) return handler_entry(info);
  return std::nullopt;
}

std::optional<EngineAddress> find_engine_address_or_name(std::string_view text) {
  if (const auto address = parse_address_name(text)) return engine_address_at(*address);
  return find_engine_address(text);
}

std::string format_engine_address(uint32_t address) {
  return fmt::format("0x{:X}", address);
}

std::vector<GlobalValue> global_values(const RunState& state, const ViewSetup& view) {
  std::vector<GlobalValue> out;
  for (const auto& e : kTable)
    if (e.kind == K::kGlobal) out.push_back({&e, value_of(e.name, state, view)});
  return out;
}

}  // namespace shapevm::fa
