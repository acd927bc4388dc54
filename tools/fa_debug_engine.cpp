#include "tools/fa_debug_engine.h"

#include <fmt/format.h>

#include "interp/fa/listing.h"
#include "interp/fa/opcodes.h"
#include "interp/fa/walker.h"
#include "tools/fa_shape_loader.h"

namespace shapevm::tools {

namespace {

// The engine globals a shape program reads (seed 000), by the names --set takes.
std::vector<harness::DebugValue> fa_globals(const fa::Shape& shape, const fa::RunState& s) {
  const int64_t health = s.object_record[0x0E] | (s.object_record[0x0F] << 8);
  std::vector<harness::DebugValue> out = {
      {"_frameCounter", s.frame_counter(), ""},
      {"_detail", s.detail, ""},
      {"_effects", s.effects, ""},
      {"_destroyed", s.destroyed_flag() ? 1 : 0, ""},
      {"_forceDestroyed", s.force_destroyed ? 1 : 0, ""},
      {"health", health, ""},
      {"aspecty", s.aspecty, ""},
      {"scrh", s.scrh, ""},
      {"sizeAdjust", s.size_adjust, ""},
  };
  // The data imports the x86 reads, with the value the sandbox gives them.
  for (const auto& imp : shape.image.imports)
    if (!imp.is_function && imp.name != "_v")
      out.push_back({imp.name, fa::X86Runner::default_import_value(imp.name, s), ""});
  return out;
}

// One pause of the FA interpreter, in the debugger's terms.
class FaPause : public harness::PausePoint {
 public:
  FaPause(const fa::DebugView& v, const fa::Shape& shape, uint32_t code_base)
      : v_(v), shape_(shape), code_base_(code_base) {}

  uint32_t offset() const override { return v_.offset; }
  std::string_view mnemonic() const override {
    if (v_.end) return "end";
    const fa::OpcodeInfo* info = fa::find_opcode(v_.op);
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
    if (auto p = harness::parse_pool_name(name)) {
      if (p->index >= v_.pool.size() || v_.pool[p->index].epoch != v_.epoch) return std::nullopt;
      const auto& slot = v_.pool[p->index];
      switch (p->component) {
        case 0:
        case 1:
        case 2:
          return slot.model[p->component];
        case 3:
          return slot.view.x;
        case 4:
          return slot.view.y;
        default:
          return slot.view.z;
      }
    }
    for (const auto& r : registers())
      if (r.name == name) return r.value;
    if (v_.x86_registers)
      for (const auto& r : native_registers())
        if (r.name == name) return r.value;
    for (const auto& g : fa_globals(shape_, *v_.state))
      if (g.name == name) return g.value;
    if (name == "depth") return depth();
    if (name == "faces") return static_cast<int64_t>(v_.faces);
    if (name == "steps") return static_cast<int64_t>(v_.steps);
    if (name == "offset") return v_.offset;
    return std::nullopt;
  }

  harness::Snapshot capture() const override {
    harness::Snapshot s;
    s.steps = v_.steps;
    s.offset = v_.offset;
    s.mnemonic = std::string(mnemonic());
    s.depth = depth();
    s.faces = v_.faces;
    for (const auto& f : v_.frames) s.frames.push_back({f.entry, f.call, f.resume});
    s.registers = registers();
    s.globals = fa_globals(shape_, *v_.state);
    for (uint32_t i = 0; i < v_.pool.size(); ++i) {
      const auto& slot = v_.pool[i];
      if (slot.epoch != v_.epoch) continue;
      s.pool.push_back({i,
                        {slot.model[0], slot.model[1], slot.model[2]},
                        {slot.view.x, slot.view.y, slot.view.z}});
    }
    if (v_.x86_instruction) {
      harness::NativeState n;
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

 private:
  std::vector<harness::DebugValue> registers() const {
    return {{"pos.x", v_.position[0], ""},
            {"pos.y", v_.position[1], ""},
            {"pos.z", v_.position[2], ""},
            {"texture", 0, v_.texture.empty() ? std::string("<none>") : std::string(v_.texture)}};
  }
  std::vector<harness::DebugValue> native_registers() const {
    const x86::Registers& r = *v_.x86_registers;
    return {{"eax", r.eax, ""}, {"ebx", r.ebx, ""}, {"ecx", r.ecx, ""},
            {"edx", r.edx, ""}, {"esi", r.esi, ""}, {"edi", r.edi, ""},
            {"ebp", r.ebp, ""}, {"esp", r.esp, ""}, {"eip", r.eip, ""}};
  }

  const fa::DebugView& v_;
  const fa::Shape& shape_;
  uint32_t code_base_;
};

class HookBridge : public fa::DebugHook {
 public:
  HookBridge(harness::PauseHandler& handler, const fa::Shape& shape, uint32_t code_base)
      : handler_(handler), shape_(shape), code_base_(code_base) {}
  bool pause(const fa::DebugView& view) override {
    return handler_.pause(FaPause(view, shape_, code_base_));
  }

 private:
  harness::PauseHandler& handler_;
  const fa::Shape& shape_;
  uint32_t code_base_;
};

// The listing as `shapevm disasm` prints it (fa::render_listing_text), one entry per text line so
// a line number names an instruction.
std::vector<harness::ListingLine> listing_lines(const fa::Shape& shape,
                                                const fa::Listing& listing) {
  std::vector<harness::ListingLine> out;
  for (const auto& d : listing.directives) out.push_back({std::nullopt, false, d});
  for (const auto& line : listing.lines) {
    if (!line.label.empty()) out.push_back({std::nullopt, false, line.label + ":"});
    if (line.kind == "end") continue;
    std::string body = "    " + line.text;
    if (!line.comment.empty()) {
      if (body.size() < 52) body.resize(52, ' ');
      body += " ; " + line.comment;
    }
    const bool code = line.kind == "instruction" || line.kind == "x86";
    out.push_back(
        {code ? std::optional<uint32_t>(line.offset) : std::nullopt, line.kind == "x86", body});
    for (const auto& c : line.continuation) out.push_back({std::nullopt, false, "        " + c});
  }
  (void)shape;
  return out;
}

}  // namespace

FaDebugEngine::FaDebugEngine(FaDebugOptions options)
    : options_(std::move(options)), shape_(load_fa_shape(options_.file)) {
  (void)state();  // reject bad options now, not at the first run
  interp_ = std::make_unique<fa::Interpreter>(shape_, options_.walk);
  const fa::WalkResult walk = fa::walk_shape(shape_, options_.walk);
  listing_ = listing_lines(shape_, fa::make_listing(shape_, walk));
  palette_ = load_fa_palette(options_.palette);
  if (!options_.textures.empty()) textures_ = std::make_shared<FaTextures>(options_.textures);
  code_base_ = shape_.image.image_base + shape_.image.code_va;
}

FaDebugEngine::~FaDebugEngine() = default;

fa::RunState FaDebugEngine::state() const {
  fa::RunState s = fa_run_state(options_.run, options_.height);
  // Every x86 instruction is a pause point (si); tracing does not change what the x86 does.
  s.x86_trace = true;
  return s;
}

void FaDebugEngine::run(EventSink& sink, harness::PauseHandler& pause) {
  const fa::RunState s = state();
  HookBridge bridge(pause, shape_, code_base_);
  interp_->set_debug_hook(&bridge);
  try {
    interp_->run(s, sink);
  } catch (...) {
    interp_->set_debug_hook(nullptr);
    throw;
  }
  interp_->set_debug_hook(nullptr);
}

void FaDebugEngine::set(const std::string& assignment) {
  RunOptions next = options_.run;
  next.sets.push_back(assignment);
  (void)fa_run_state(next, options_.height);  // InputError when malformed; nothing changes
  options_.run = std::move(next);
}

std::string FaDebugEngine::describe_state() const {
  return run_state_json(state()).dump();
}

harness::FrameSettings FaDebugEngine::frame_settings() const {
  harness::FrameSettings settings;
  settings.focal_pixels = options_.height;
  return settings;
}

harness::TextureLookup FaDebugEngine::textures() const {
  if (!textures_) return {};
  auto t = textures_;
  return [t](std::string_view name) { return t->find(name); };
}

}  // namespace shapevm::tools
