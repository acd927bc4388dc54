#include "interp/fa/x86_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "x86/disassembler.h"
#include "x86/sandbox.h"

namespace shapevm::fa {
namespace {

constexpr std::string_view kEngine = "fa";

uint32_t round_up_pages(uint64_t size) {
  return static_cast<uint32_t>((size + x86::kPageSize - 1) / x86::kPageSize * x86::kPageSize);
}

// Bytes the callee pops: `_f@N` stdcall pops N; `@f@N` fastcall passes 8 bytes in ECX/EDX.
uint32_t callee_pops(const std::string& name) {
  const auto at = name.rfind('@');
  if (at == std::string::npos || at == 0) return 0;
  const uint32_t n = static_cast<uint32_t>(std::atoi(name.c_str() + at + 1));
  if (name[0] == '@') return n > 8 ? n - 8 : 0;
  return n;
}

// One Unicorn engine per thread for untraced runs (facts/unicorn.md: opening one costs about
// 0.6 ms and reserves 1 GiB of virtual code buffer). The runner that last mapped its memory into
// it owns it until another runner on the thread maps its own. Owners are told apart by a
// process-wide serial, never by address: a freed runner's address can come back.
struct ThreadSandbox {
  std::unique_ptr<x86::Sandbox> sandbox;
  uint64_t owner = 0;
};

ThreadSandbox& thread_sandbox() {
  thread_local ThreadSandbox t;
  return t;
}

std::atomic<uint64_t> next_runner_serial{1};

}  // namespace

struct X86Runner::Impl {
  const Shape& shape;
  bool trace;
  uint32_t code_base = 0;
  std::vector<uint8_t> pristine;  // CODE with the import rewrites, as every run starts
  std::vector<uint8_t> code;      // shared with the guest (page-rounded)
  std::vector<uint8_t> globals;
  std::vector<uint8_t> stack;
  std::vector<uint8_t> exits;
  std::map<std::string, uint32_t> data_slots;      // import -> guest address
  std::map<uint32_t, std::string> function_exits;  // guest address -> import
  std::map<uint32_t, std::string> slot_names;      // guest slot address -> import
  const uint64_t serial = next_runner_serial++;
  std::unique_ptr<x86::Sandbox> own_sandbox;  // --x86-trace: its observers are this runner's
  x86::Sandbox* sandbox = nullptr;            // own_sandbox, or the thread's engine (acquire)
  x86::Disassembler disassembler;
  EventSink* sink = nullptr;
  const RunState* state = nullptr;
  uint64_t counted = 0;
  InstructionObserver observer;  // a debugger's (set_instruction_observer)

  explicit Impl(const Shape& s, bool t) : shape(s), trace(t) {}
  ~Impl() {
    if (own_sandbox) return;
    ThreadSandbox& t = thread_sandbox();
    if (t.owner == serial) {  // do not leave this runner's buffers mapped
      t.sandbox->unmap_all();
      t.owner = 0;
    }
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void map_into(x86::Sandbox& box) {
    box.map(code_base, code, x86::kReadWriteExec);
    box.map(kX86GlobalsBase, globals, x86::kReadWrite);
    box.map(kX86StackBase, stack, x86::kReadWrite);
    box.map(kX86ExitBase, exits, x86::kReadExec);
  }

  // Makes `sandbox` this runner's: the thread's engine, remapped (which also drops every cached
  // translation) when another runner used it last.
  void acquire() {
    if (own_sandbox) return;
    ThreadSandbox& t = thread_sandbox();
    if (t.owner != serial || !t.sandbox) {
      if (t.sandbox) {
        t.sandbox->unmap_all();
      } else {
        t.sandbox = std::make_unique<x86::Sandbox>();
      }
      t.owner = 0;
      map_into(*t.sandbox);
      t.owner = serial;
    }
    sandbox = t.sandbox.get();
  }

  void layout() {
    const auto& img = shape.image;
    code_base = img.image_base + img.code_va;
    if (code_base % x86::kPageSize != 0 || code_base == 0)
      throw InputError(shape.source(),
                       fmt::format("CODE's load address 0x{:x} is not a non-zero page boundary; "
                                   "the x86 sandbox cannot map it",
                                   code_base));
    const uint64_t code_end =
        uint64_t{code_base} + round_up_pages(std::max<size_t>(img.code.size(), 1));
    if (code_end > kX86GlobalsBase)
      throw InputError(shape.source(), "CODE would overlap the sandbox's globals region");
    pristine = img.code;
    uint32_t k = 0;
    for (const auto& imp : img.imports) {
      if (imp.is_function) {
        function_exits[kX86ExitBase + 16 * k] = imp.name;
      } else {
        data_slots[imp.name] = kX86GlobalsBase + kX86GlobalSlotSize * k;
        slot_names[kX86GlobalsBase + kX86GlobalSlotSize * k] = imp.name;
      }
      ++k;
    }
    // Strategy B: relocated operands naming a trampoline are redirected.
    for (const auto& r : img.relocations) {
      if (!r.site_code_offset || !r.target_code_offset) continue;
      const uint32_t site = *r.site_code_offset;
      if (site >= img.stub_area_offset || uint64_t{site} + 4 > pristine.size()) continue;
      const PeTrampoline* t = img.trampoline_at(*r.target_code_offset);
      if (t == nullptr) continue;
      uint32_t value = 0;
      if (t->is_function) {
        for (const auto& [address, name] : function_exits)
          if (name == t->import_name) value = address;
      } else {
        value = data_slots.at(t->import_name);
      }
      for (int i = 0; i < 4; ++i) pristine[site + i] = static_cast<uint8_t>(value >> (8 * i));
    }
    code.assign(round_up_pages(std::max<size_t>(pristine.size(), 1)), 0);
    std::copy(pristine.begin(), pristine.end(), code.begin());
    globals.assign(round_up_pages(std::max<size_t>(
                       kX86GlobalSlotSize * std::max<size_t>(img.imports.size(), 1), 1)),
                   0);
    stack.assign(kX86StackSize, 0);
    exits.assign(x86::kPageSize, 0xF4);  // HLT everywhere: each function import exits here
  }

  void make_sandbox() {
    x86::Sandbox::Observers obs;
    if (trace) {
      obs.code_begin = code_base;
      obs.code_end = code_base + static_cast<uint32_t>(code.size());
      obs.on_instruction = [this](uint32_t address, uint32_t size) {
        ++counted;
        if (!sink && !observer) return;
        const uint32_t off = address - code_base;
        NativeInstructionEvent e;
        e.engine = kEngine;
        e.address = address;
        if (uint64_t{off} + size <= code.size()) {
          e.bytes = std::span<const uint8_t>(code.data() + off, size);
          auto insns = disassembler.disassemble(e.bytes, address);
          if (!insns.empty()) e.text = insns.front().text;
        }
        if (sink) sink->on_native_instruction(e);
        if (observer) observer(e, sandbox->registers());
      };
      obs.watch_begin = kX86GlobalsBase;
      obs.watch_end = kX86GlobalsBase + static_cast<uint32_t>(globals.size());
      obs.on_read = [this](uint32_t address, int size, uint32_t value) {
        if (!sink) return;
        auto it = slot_names.upper_bound(address);
        if (it == slot_names.begin()) return;
        --it;
        const int64_t masked = size >= 4 ? value : (value & ((1u << (8 * size)) - 1));
        sink->on_import_read({kEngine, it->second, address, size, masked});
      };
    }
    if (!trace) return;  // untraced runs use the thread's engine (acquire)
    own_sandbox = std::make_unique<x86::Sandbox>(obs);
    map_into(*own_sandbox);
    sandbox = own_sandbox.get();
  }

  std::string describe(uint32_t eip) {
    if (eip >= code_base && eip < code_base + code.size()) {
      const uint32_t off = eip - code_base;
      const size_t n = std::min<size_t>(15, code.size() - off);
      auto insns = disassembler.disassemble(std::span<const uint8_t>(code.data() + off, n), eip);
      if (!insns.empty())
        return fmt::format("0x{:x} (CODE 0x{:x}: {})", eip, off, insns.front().text);
    }
    return fmt::format("0x{:x}", eip);
  }

  std::string read_c_string(uint32_t address) {
    std::string out;
    for (uint32_t i = 0; i < 200; ++i) {
      const uint64_t a = uint64_t{address} + i;
      if (a < code_base || a >= code_base + code.size()) break;
      const char c = static_cast<char>(code[a - code_base]);
      if (c == 0) break;
      out.push_back(c);
    }
    return out;
  }

  X86BlockResult run(uint32_t f0_offset) {
    acquire();
    X86BlockResult result;
    counted = 0;
    x86::Registers regs;
    regs.esi = code_base + f0_offset + 2;  // do_start_asm: push esi; ret
    regs.eip = regs.esi;
    regs.esp = kX86StackBase + kX86StackSize - 16;
    store32(regs.esp, kX86ReturnSentinel);
    uint64_t budget = kX86BlockBudget;
    for (int calls = 0;; ++calls) {
      x86::Outcome out = sandbox->run(regs, budget);
      result.instructions = counted;
      result.counted = trace;
      if (out.kind != x86::Outcome::Kind::kHalted) {
        result.reason = stop_reason(out);
        return result;
      }
      const uint32_t eip = out.regs.eip;
      uint32_t top = 0;
      load32(out.regs.esp, top);
      auto fn = function_exits.find(eip);
      if (eip == kX86ReturnSentinel) {
        result.reason = "the x86 returned without re-entering the bytecode (no do_start_interp)";
        return result;
      }
      if (fn == function_exits.end()) {
        result.reason = fmt::format("hlt at {}", describe(eip));
        return result;
      }
      const std::string& name = fn->second;
      if (name == "do_start_interp") {
        if (top < code_base || top >= code_base + pristine.size()) {
          result.reason = fmt::format("do_start_interp re-entry at 0x{:x}, outside CODE", top);
          return result;
        }
        result.resumed = true;
        result.resume_offset = top - code_base;
        result.reason = "do_start_interp";
        return result;
      }
      if (name == "_ErrorExit") {
        result.reason = fmt::format("_ErrorExit: \"{}\"", read_c_string(top));
        return result;
      }
      if (calls >= kX86MaxHostCalls) {
        result.reason =
            fmt::format("more than {} host calls in one block (budget)", kX86MaxHostCalls);
        return result;
      }
      // A known function: return its configured value to the continuation it was handed.
      regs = out.regs;
      regs.eax = static_cast<uint32_t>(default_import_value(name, *state));
      regs.eip = top;
      regs.esp = out.regs.esp + 4 + callee_pops(name);
      budget = std::max<uint64_t>(1, budget > 64 ? budget - 64 : 1);
    }
  }

  std::string stop_reason(const x86::Outcome& out) {
    switch (out.kind) {
      case x86::Outcome::Kind::kBudget:
        return fmt::format("instruction budget of {} exhausted at {}", kX86BlockBudget,
                           describe(out.regs.eip));
      case x86::Outcome::Kind::kUnmapped:
        return fmt::format("access to unmapped address 0x{:x} at {}", out.fault_address,
                           describe(out.regs.eip));
      case x86::Outcome::Kind::kProtected:
        return fmt::format("protected access to 0x{:x} at {}", out.fault_address,
                           describe(out.regs.eip));
      case x86::Outcome::Kind::kInvalid:
        return fmt::format("invalid instruction at {}", describe(out.regs.eip));
      case x86::Outcome::Kind::kInterrupt:
        return fmt::format("interrupt {} at {}", out.interrupt, describe(out.regs.eip));
      case x86::Outcome::Kind::kPortIo:
        return fmt::format("port I/O at {}", describe(out.regs.eip));
      default:
        return fmt::format("{} ({}) at {}", x86::outcome_name(out.kind), out.detail,
                           describe(out.regs.eip));
    }
  }

  void store32(uint32_t address, uint32_t value) {
    if (address >= kX86StackBase && address + 4 <= kX86StackBase + kX86StackSize)
      std::memcpy(stack.data() + (address - kX86StackBase), &value, 4);
  }
  bool load32(uint32_t address, uint32_t& value) { return sandbox->read32(address, value); }
};

X86Runner::X86Runner(const Shape& shape, bool trace) : impl_(std::make_unique<Impl>(shape, trace)) {
  impl_->layout();
  impl_->make_sandbox();
}

X86Runner::~X86Runner() = default;

int64_t X86Runner::default_import_value(const std::string& name, const RunState& state) {
  if (auto it = state.imports.find(name); it != state.imports.end()) return it->second;
  if (name == "_effects" || name == "_effectsAllowed") return state.effects;
  if (name == "_nightHazing") return 1;
  if (name == "brentObjId") return 0x4000;
  if (name == "@HARDNumLoaded@8") return 1;
  if (name == "@HardpointAngle@4" || name == "_InsectWingAngle@0") return 256;
  return 0;
}

void X86Runner::begin_run(const RunState& state, EventSink* sink) {
  Impl& m = *impl_;
  m.acquire();
  m.sink = sink;
  m.state = &state;
  if (!std::equal(m.pristine.begin(), m.pristine.end(), m.code.begin())) {
    // The last run's x86 wrote into CODE: restore it and drop stale translations.
    std::copy(m.pristine.begin(), m.pristine.end(), m.code.begin());
    m.sandbox->invalidate(m.code_base, m.code_base + static_cast<uint32_t>(m.code.size()));
  }
  std::fill(m.globals.begin(), m.globals.end(), 0);
  for (const auto& [name, address] : m.data_slots) {
    uint8_t* slot = m.globals.data() + (address - kX86GlobalsBase);
    if (name == "_v") {
      // The object record (0x100 bytes), as OrderField reads it too.
      std::copy(state.object_record.begin(), state.object_record.end(), slot);
      continue;
    }
    const int64_t v = default_import_value(name, state);
    for (int i = 0; i < 8; ++i) slot[i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
  }
}

const uint8_t* X86Runner::code() const {
  return impl_->code.data();
}

X86BlockResult X86Runner::run_block(uint32_t x86code_offset) {
  return impl_->run(x86code_offset);
}

void X86Runner::set_instruction_observer(InstructionObserver observer) {
  impl_->observer = std::move(observer);
}

}  // namespace shapevm::fa
