// The one table of addresses in the original Fighters Anthology executable that a shape program
// meets: the globals its opcodes read, the routines around the interpreter and its dispatch
// table (seed 000: Engine Notes, the animation, LOD and damage sections, the x86 entry contract).
// The opcode handlers' addresses live in the opcode table (opcodes.h) and are found through it,
// so every address is written down once. --set, the trace, the debugger and trace-diff name a
// global by this table, so a researcher's trace of the original, which knows only addresses,
// lines up with ours.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/fa/camera.h"
#include "interp/fa/run_state.h"

namespace shapevm::fa {

enum class EngineAddressKind : uint8_t {
  kGlobal,   // data a handler reads (_detail, xv, ...)
  kRoutine,  // code outside the opcode handlers (do_start_interp, GRAddBrentObj, ...)
  kTable,    // a data table (vector_table)
  kHandler,  // an opcode handler (from the opcode table)
};

struct EngineAddress {
  std::string_view name;  // the executable's symbol as the seed gives it; a handler without a
                          // symbol is named by its opcode's mnemonic
  uint32_t address = 0;
  EngineAddressKind kind = EngineAddressKind::kGlobal;
  std::string_view what;  // one line: what it holds or does
};

// The globals, routines and tables, ascending by address (the handlers are not repeated here).
std::span<const EngineAddress> engine_addresses();

// By name: a global, routine or table of the table above, or an opcode handler by its symbol.
std::optional<EngineAddress> find_engine_address(std::string_view name);
// A global, routine or table the code names (a table entry for sure: std::logic_error otherwise).
const EngineAddress& engine_global(std::string_view name);
// By address: the same, handlers included.
std::optional<EngineAddress> engine_address_at(uint32_t address);
// By a name or an address as a user writes one (0x515EEE, 515EEEh: interp/common/state.h).
std::optional<EngineAddress> find_engine_address_or_name(std::string_view text);

// "0x515EEE": the form the trace and the debugger write.
std::string format_engine_address(uint32_t address);

// A global's value during a run.
struct GlobalValue {
  const EngineAddress* global = nullptr;
  int64_t value = 0;
};

// Every global of the table with the value it holds when a run in `state` starts, the view
// (`view`: the camera as the interpreter sets it up) included. The order is the table's.
std::vector<GlobalValue> global_values(const RunState& state, const ViewSetup& view);

}  // namespace shapevm::fa
