#include "interp/fa/debug_pause.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "interp/common/state.h"
#include "interp/fa/engine_globals.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/opcodes.h"
#include "interp/fa/x86_runner.h"

namespace shapevm::fa {

namespace {

// The vertex pool as the debugger shows it: `pool[N].x|y|z` as the program gave the slot, and
// `.vx|vy|vz` transformed into view space.
constexpr std::string_view kPoolColumns[] = {"x", "y", "z", "vx", "vy", "vz"};
constexpr std::string_view kNative = "x86";

MemoryViewInfo pool_view() {
  MemoryViewInfo v;
  v.name = "pool";
  v.help = "Written vertex pool slots: source and transformed.";
  v.noun = "written pool slots";
  v.columns.assign(std::begin(kPoolColumns), std::end(kPoolColumns));
  v.layout = {{"source", 3, 6}, {"view", 3, 9}};
  return v;
}

// The engine globals a shape program reads (seed 000), by the names --set takes and with their
// addresses in the original executable (engine_globals.h), then the two inputs ShapeSetup reads
// (no address: the override and the object record's health word), then the data imports the
// x86 reads with the value the sandbox gives them.
std::vector<DebugValue> fa_globals(const Shape& shape, const RunState& s, const ViewSetup& view) {
  std::vector<DebugValue> out;
  for (const auto& g : global_values(s, view))
    out.push_back({std::string(g.global->name), g.value, "", g.global->address});
  const int64_t health = s.object_record[0x0E] | (s.object_record[0x0F] << 8);
  out.push_back({"_forceDestroyed", s.force_destroyed ? 1 : 0, ""});
  out.push_back({"health", health, ""});
  for (const auto& imp : shape.image.imports) {
    if (imp.is_function || imp.name == "_v") continue;
    // An import of a global the table names (_effects) is that global, listed above.
    if (std::any_of(out.begin(), out.end(),
                    [&](const DebugValue& g) { return g.name == imp.name; }))
      continue;
    out.push_back({imp.name, X86Runner::default_import_value(imp.name, s), ""});
  }
  return out;
}

// One pause of the FA interpreter, in the debugger's terms.
class FaPause : public PausePoint {
 public:
  FaPause(const DebugView& v, const Shape& shape, uint32_t code_base)
      : v_(v), shape_(shape), code_base_(code_base) {}

  uint32_t offset() const override { return v_.offset; }
  std::string_view mnemonic() const override {
    if (v_.end) return "end";
    const OpcodeInfo* info = find_opcode(v_.op);
    return info ? info->mnemonic : std::string_view("?");
  }
  uint32_t opcode() const override { return v_.op; }
  uint32_t depth() const override { return static_cast<uint32_t>(v_.frames.size()); }
  bool native() const override { return v_.x86_instruction != nullptr; }
  bool ended() const override { return v_.end != nullptr; }
  std::optional<uint32_t> native_offset() const override {
    if (!v_.x86_instruction) return std::nullopt;
    const uint32_t a = v_.x86_instruction->address;
    if (a < code_base_ || a - code_base_ >= v_.code.size()) return std::nullopt;
    return a - code_base_;
  }

  std::optional<int64_t> read(std::string_view name) const override {
    if (auto p = parse_memory_name(name); p && p->view == "pool") {
      const auto* column = std::find(std::begin(kPoolColumns), std::end(kPoolColumns), p->column);
      if (column == std::end(kPoolColumns)) return std::nullopt;
      if (p->index >= v_.pool.size() || v_.pool[p->index].epoch != v_.epoch) return std::nullopt;
      return slot_values(v_.pool[p->index])[static_cast<size_t>(column - std::begin(kPoolColumns))];
    }
    for (const auto& r : registers())
      if (r.name == name) return r.value;
    if (v_.x86_registers)
      for (const auto& r : native_registers())
        if (r.name == name) return r.value;
    // A global by name, or by its address in the original executable (0x515EEE for _detail).
    const auto address = parse_address_name(name);
    for (const auto& g : fa_globals(shape_, *v_.state, view()))
      if (address ? g.address == address : g.name == name) return g.value;
    if (name == "depth") return depth();
    if (name == "faces") return static_cast<int64_t>(v_.faces);
    if (name == "steps") return static_cast<int64_t>(v_.steps);
    if (name == "offset") return v_.offset;
    return std::nullopt;
  }

  Snapshot capture() const override {
    Snapshot s;
    s.steps = v_.steps;
    s.offset = v_.offset;
    s.mnemonic = std::string(mnemonic());
    s.depth = depth();
    s.faces = v_.faces;
    for (const auto& f : v_.frames) s.frames.push_back({f.entry, f.call, f.resume});
    s.registers = registers();
    s.globals = fa_globals(shape_, *v_.state, view());
    MemoryView pool{pool_view(), {}};
    for (uint32_t i = 0; i < v_.pool.size(); ++i) {
      const auto& slot = v_.pool[i];
      if (slot.epoch != v_.epoch) continue;
      const auto values = slot_values(slot);
      pool.rows.push_back({i, {values.begin(), values.end()}});
    }
    s.memory.push_back(std::move(pool));
    if (v_.x86_instruction) {
      NativeState n;
      n.arch = std::string(kNative);
      n.address = v_.x86_instruction->address;
      n.offset = native_offset();
      n.text = v_.x86_instruction->text;
      n.registers = native_registers();
      s.native = std::move(n);
    }
    if (v_.end) {
      s.ended = true;
      s.end_reason = v_.end->reason;
      s.end_clean = v_.end->clean;
    }
    return s;
  }

  DebugVocabulary vocabulary() const override {
    DebugVocabulary v;
    v.native = std::string(kNative);
    v.native_space = "CODE";
    v.memory.push_back(pool_view());
    for (const auto& r : registers()) v.register_names.push_back(r.name);
    for (const char* r : {"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "eip"})
      v.native_register_names.emplace_back(r);
    return v;
  }

 private:
  const ViewSetup& view() const {
    static const ViewSetup kNone;
    return v_.view ? *v_.view : kNone;
  }
  static std::array<int64_t, 6> slot_values(const PoolSlot& slot) {
    return {slot.model[0], slot.model[1], slot.model[2], slot.view.x, slot.view.y, slot.view.z};
  }
  std::vector<DebugValue> registers() const {
    return {{"pos.x", v_.position[0], ""},
            {"pos.y", v_.position[1], ""},
            {"pos.z", v_.position[2], ""},
            {"texture", 0, v_.texture.empty() ? std::string("<none>") : std::string(v_.texture)}};
  }
  std::vector<DebugValue> native_registers() const {
    const x86::Registers& r = *v_.x86_registers;
    return {{"eax", r.eax, ""}, {"ebx", r.ebx, ""}, {"ecx", r.ecx, ""},
            {"edx", r.edx, ""}, {"esi", r.esi, ""}, {"edi", r.edi, ""},
            {"ebp", r.ebp, ""}, {"esp", r.esp, ""}, {"eip", r.eip, ""}};
  }

  const DebugView& v_;
  const Shape& shape_;
  uint32_t code_base_;
};

}  // namespace

bool PauseBridge::pause(const DebugView& view) {
  return handler_.pause(FaPause(view, shape_, code_base_));
}

}  // namespace shapevm::fa
