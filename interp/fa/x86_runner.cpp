#include "interp/fa/x86_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <optional>

#include "core/aligned_allocator.h"
#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/fa/engine_name.h"
#include "interp/fa/walker.h"
#include "interp/fa/x86_guard_memo.h"
#include "x86/disassembler.h"
#include "x86/sandbox.h"

namespace shapevm::fa {
namespace {

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

// Unicorn engines opened for runners' untraced runs (X86Runner::engines_opened).
std::atomic<uint64_t> engines_opened_count{0};
// CODE mapped into a thread's engine (X86Runner::code_maps).
std::atomic<uint64_t> code_maps_count{0};

}  // namespace

struct X86Runner::Impl {
  const Shape& shape;
  bool trace;
  uint32_t code_base = 0;
  std::vector<uint8_t> pristine;  // CODE with the import rewrites, as every run starts
  // Shared with the guest: page-aligned, so each guest page is one host page.
  using GuestPages = std::vector<uint8_t, core::AlignedAllocator<uint8_t, 4096>>;
  GuestPages code;  // page-rounded
  GuestPages globals;
  GuestPages stack;
  GuestPages exits;
  std::map<std::string, uint32_t> data_slots;      // import -> guest address
  std::map<uint32_t, std::string> function_exits;  // guest address -> import
  std::map<uint32_t, std::string> slot_names;      // guest slot address -> import
  std::unique_ptr<x86::Sandbox> own_sandbox;       // --x86-trace: its observers are this runner's
  x86::Sandbox* sandbox = nullptr;                 // own_sandbox, or the thread's engine (acquire)
  x86::Disassembler disassembler;
  EventSink* sink = nullptr;
  const RunState* state = nullptr;
  uint64_t counted = 0;
  InstructionObserver observer;    // a debugger's (set_instruction_observer)
  CodeWriteObserver code_writes;   // set_code_write_observer
  GuardMemo memo;                  // outcomes of pure guard blocks (x86_guard_memo.h)
  std::optional<WalkResult> walk;  // for diagnostics only, made at the first stop that needs it

  // The guest regions, each one host buffer mapped at one address.
  enum Region : size_t { kCode, kGlobals, kStack, kExits, kRegionCount };
  using RegionPages = std::array<GuestPages, kRegionCount>;

  GuestPages& pages(Region r) {
    switch (r) {
      case kCode:
        return code;
      case kGlobals:
        return globals;
      case kStack:
        return stack;
      default:
        return exits;
    }
  }
  uint32_t region_base(Region r) const {
    static constexpr uint32_t kFixedBases[] = {0, kX86GlobalsBase, kX86StackBase, kX86ExitBase};
    return r == kCode ? code_base : kFixedBases[r];
  }
  static uint8_t region_perms(Region r) {
    return r == kCode ? x86::kReadWriteExec : r == kExits ? x86::kReadExec : x86::kReadWrite;
  }

  // One Unicorn engine per thread for untraced runs (facts/unicorn.md: opening one costs about
  // 0.6 ms and reserves 1 GiB of virtual code buffer). The runner that last mapped its memory into
  // it owns it until another runner on the thread maps its own; a runner that is freed while it
  // owns the engine gives it up first, so `owner` never names a freed runner.
  struct ThreadEngine {
    // Buffers mapped into the engine that no runner holds: handed over by the last owner (which
    // kept copies) or left by a freed one. Declared before the engine, so freed after it.
    RegionPages parked;
    // Where CODE is mapped (0: nowhere); the other regions have fixed addresses.
    uint32_t code_mapped_at = 0;
    std::unique_ptr<x86::Sandbox> sandbox;
    Impl* owner = nullptr;
    uint32_t takeovers = 0;  // by the runners since the engine was opened
  };
  static ThreadEngine& thread_engine() {
    thread_local ThreadEngine t;
    return t;
  }

  explicit Impl(const Shape& s, bool t) : shape(s), trace(t) {}
  ~Impl() {
    if (own_sandbox) return;
    ThreadEngine& t = thread_engine();
    if (t.owner != this) return;
    // The buffers stay mapped, parked for the next owner, which keeps or unmaps each of them:
    // moving a vector keeps its storage, so the mappings stay valid.
    for (size_t r = 0; r < kRegionCount; ++r) t.parked[r] = std::move(pages(Region(r)));
    t.sandbox->set_write_listener(nullptr);
    t.owner = nullptr;
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  void map_into(x86::Sandbox& box) {
    for (size_t r = 0; r < kRegionCount; ++r)
      box.map(region_base(Region(r)), pages(Region(r)), region_perms(Region(r)));
  }

  // Makes `sandbox` this runner's: the thread's engine, with this runner's memory in it.
  // `between_runs`: no machine reads CODE through code() yet, so its buffer may be replaced.
  void acquire(bool between_runs) {
    if (own_sandbox) return;
    ThreadEngine& t = thread_engine();
    if (t.owner != this) {
      if (t.owner != nullptr) t.owner->hand_over(t.parked);
      t.owner = nullptr;
      if (t.takeovers >= kX86TakeOversPerEngine) {
        // Unicorn keeps appending new translations to its code buffer, and only a full flush
        // or a new engine gives the space back: each runner's CODE is translated afresh, about
        // 2 KB, so a long run over many shapes would grow by that much per shape.
        t.sandbox.reset();
        t.parked = RegionPages();
        t.code_mapped_at = 0;
        t.takeovers = 0;
      }
      if (!t.sandbox) {
        t.sandbox = std::make_unique<x86::Sandbox>(watching_code_writes());
        engines_opened_count.fetch_add(1, std::memory_order_relaxed);
      }
      ++t.takeovers;
      take_over(t, between_runs);
      t.sandbox->set_write_listener(write_listener());
      t.owner = this;
    }
    sandbox = t.sandbox.get();
  }

  // Another runner takes the thread's engine: the globals, stack and exit buffers mapped from
  // this runner go to `parked`, still mapped, and this runner carries on with copies of them.
  // CODE's buffer stays this runner's (the interpreter reads CODE through X86Runner::code), and
  // stays mapped until the next owner maps its own.
  void hand_over(RegionPages& parked) {
    for (Region r : {kGlobals, kStack, kExits}) {
      parked[r] = std::move(pages(r));
      pages(r) = parked[r];
    }
  }

  // Maps this runner's regions into the thread's engine. A region already mapped at the same
  // address with the same size (the globals, stack and exit pages of most images are alike)
  // stays mapped: this runner's bytes are copied into the mapped buffer, which becomes this
  // runner's. Each map and unmap makes Unicorn rebuild its memory map and flush its TLB, about
  // 8 us each, most of what it cost one runner to take the engine from another.
  void take_over(ThreadEngine& t, bool between_runs) {
    x86::Sandbox& box = *t.sandbox;
    for (size_t index = 0; index < kRegionCount; ++index) {
      const auto r = Region(index);
      GuestPages& mine = pages(r);
      const uint32_t base = region_base(r);
      GuestPages& held = t.parked[r];
      // `held` is the buffer mapped at `base` when the sizes agree (the last owner's, parked).
      // CODE's is parked only by a runner that was freed (one that lives on keeps reading its
      // own), and is taken only between runs (a machine in a run holds this runner's CODE
      // address): for a fresh shape after a freed one of the same layout, as in a corpus,
      // keeping it saves the map and unmap that were 3% of rendering a generated corpus.
      const bool keep = held.size() == mine.size() && box.mapped_size(base) == mine.size() &&
                        (r != kCode || (between_runs && t.code_mapped_at == base));
      if (keep) {
        copy_changed_pages(box, base, mine, held, r == kCode || r == kExits);
        mine.swap(held);
      } else {
        box.unmap(r == kCode ? t.code_mapped_at : base);  // nothing when nothing is mapped there
      }
      held = GuestPages();  // unmapped now, or this runner's old copy
      if (!keep) {
        box.map(base, mine, region_perms(r));
        if (r == kCode) {
          t.code_mapped_at = base;
          code_maps_count.fetch_add(1, std::memory_order_relaxed);
        }
      }
    }
  }

  // Makes `to` (mapped at `base`) hold the bytes of `from`, the same size, page by page: a page
  // that holds them already is left alone. In an executable region the translations of the
  // pages written are dropped, and only those. Unicorn keeps its translations true to the mapped
  // bytes (a guest store drops them, and so does every host write here), so the pages that
  // stay the same (the exit pages of every runner, CODE of another runner for the same shape)
  // keep theirs: translating them again was most of what a take-over cost.
  static void copy_changed_pages(x86::Sandbox& box, uint32_t base, const GuestPages& from,
                                 GuestPages& to, bool executable) {
    for (size_t page = 0; page < from.size(); page += x86::kPageSize) {
      const size_t n = std::min<size_t>(x86::kPageSize, from.size() - page);
      if (std::memcmp(from.data() + page, to.data() + page, n) == 0) continue;
      std::memcpy(to.data() + page, from.data() + page, n);
      const uint32_t at = base + static_cast<uint32_t>(page);
      if (executable) box.invalidate(at, at + static_cast<uint32_t>(n));
    }
  }

  // Every image's CODE lies below the globals region (layout), so one write range fixed when an
  // engine is opened serves every runner that later borrows it.
  static x86::Sandbox::Observers watching_code_writes() {
    x86::Sandbox::Observers obs;
    obs.write_begin = 0;
    obs.write_end = kX86GlobalsBase;
    return obs;
  }

  x86::Sandbox::WriteListener write_listener() {
    return [this](uint32_t address, uint32_t size) {
      const uint64_t begin = std::max<uint64_t>(address, code_base);
      const uint64_t end = std::min<uint64_t>(uint64_t{address} + size, code_base + code.size());
      if (begin < end)
        code_changed(static_cast<uint32_t>(begin - code_base), static_cast<uint32_t>(end - begin));
    };
  }

  // CODE bytes [offset, offset + size) changed (a guest store, or the restore between runs).
  void code_changed(uint32_t offset, uint32_t size) {
    memo.invalidate(offset, size);
    if (code_writes) code_writes(offset, size);
  }

  GuardMemory memory() const {
    GuardMemory m;
    m.code_base = code_base;
    m.code = std::span<const uint8_t>(code.data(), pristine.size());
    m.globals_base = kX86GlobalsBase;
    m.globals_size = static_cast<uint32_t>(globals.size());
    m.exits_base = kX86ExitBase;
    m.exits_size = static_cast<uint32_t>(exits.size());
    return m;
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
    uint32_t k = 0, functions = 0;
    for (const auto& imp : img.imports) {
      if (imp.is_function) {
        function_exits[kX86ExitBase + kX86ExitSlotSize * ++functions] = imp.name;
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
      put_u32(pristine, site, value);
    }
    code.assign(round_up_pages(std::max<size_t>(pristine.size(), 1)), 0);
    std::copy(pristine.begin(), pristine.end(), code.begin());
    globals.assign(round_up_pages(std::max<size_t>(
                       kX86GlobalSlotSize * std::max<size_t>(img.imports.size(), 1), 1)),
                   0);
    if (uint64_t{kX86GlobalsBase} + globals.size() > kX86StackBase - kX86StackGuard)
      throw InputError(shape.source(),
                       fmt::format("{} imports need 0x{:x} bytes of import slots; the x86 "
                                   "sandbox's globals region holds 0x{:x}",
                                   img.imports.size(), globals.size(),
                                   kX86StackBase - kX86StackGuard - kX86GlobalsBase));
    stack.assign(kX86StackSize, 0);
    // HLT everywhere: each function import exits here.
    exits.assign(round_up_pages(uint64_t{kX86ExitSlotSize} * (function_exits.size() + 1)), 0xF4);
  }

  void make_sandbox() {
    x86::Sandbox::Observers obs = watching_code_writes();
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
    own_sandbox->set_write_listener(write_listener());
    sandbox = own_sandbox.get();
  }

  // "0xADDR (CODE 0xOFF: text)"; without the instruction's text when `with_text` is false.
  std::string describe(uint32_t eip, bool with_text = true) {
    if (eip >= code_base && eip < code_base + code.size()) {
      const uint32_t off = eip - code_base;
      const std::string where = bytecode_note(off);
      const std::string text = with_text ? instruction_text(eip) : std::string();
      if (!text.empty()) return fmt::format("0x{:x} (CODE 0x{:x}: {}{})", eip, off, text, where);
      return fmt::format("0x{:x} (CODE 0x{:x}{})", eip, off, where);
    }
    return fmt::format("0x{:x}", eip);
  }

  // The x86 text of the instruction at `eip` in CODE ("" when it does not decode).
  std::string instruction_text(uint32_t eip) {
    if (eip < code_base || eip >= code_base + code.size()) return {};
    const uint32_t off = eip - code_base;
    const size_t n = std::min<size_t>(15, code.size() - off);
    auto insns = disassembler.disassemble(std::span<const uint8_t>(code.data() + off, n), eip);
    return insns.empty() ? std::string() : insns.front().text;
  }

  // CODE is one executable section, so x86 may jump into the bytecode and run its bytes as
  // instructions (as the engine's CPU would). Say so when a stop lands there.
  std::string bytecode_note(uint32_t off) {
    if (!walk) walk = walk_shape(shape);
    for (const auto& item : walk->items) {
      if (off < item.offset || off - item.offset >= item.size) continue;
      if (item.kind == ItemKind::kX86) return {};
      if (item.kind == ItemKind::kInstruction)
        return fmt::format("; inside the bytecode instruction at CODE 0x{:x}, not an x86 block",
                           item.offset);
      return fmt::format("; outside every x86 block");
    }
    return {};
  }

  // A rep-prefixed string instruction at `eip`: its name and element size.
  struct RepString {
    std::string name;
    uint32_t element = 0;
  };
  std::optional<RepString> rep_string(uint32_t eip) {
    if (eip < code_base || eip >= code_base + code.size()) return std::nullopt;
    const uint8_t* b = code.data() + (eip - code_base);
    const size_t n = std::min<size_t>(15, code.size() - (eip - code_base));
    uint8_t rep = 0;  // F3 rep/repe, F2 repne
    bool word = false;
    size_t i = 0;
    for (; i < n; ++i) {
      if (b[i] == 0xF3 || b[i] == 0xF2) {
        rep = b[i];
      } else if (b[i] == 0x66) {
        word = true;
      } else if (b[i] != 0x67 && b[i] != 0x26 && b[i] != 0x2E && b[i] != 0x36 && b[i] != 0x3E &&
                 b[i] != 0x64 && b[i] != 0x65) {
        break;
      }
    }
    if (!rep || i >= n || b[i] < 0xA4 || b[i] > 0xAF || b[i] == 0xA8 || b[i] == 0xA9)
      return std::nullopt;
    static const char* const kNames[] = {"movs", "cmps", "", "stos", "lods", "scas"};
    const uint8_t op = b[i];
    const bool compares = op == 0xA6 || op == 0xA7 || op == 0xAE || op == 0xAF;
    const char* prefix = !compares ? "rep" : rep == 0xF3 ? "repe" : "repne";
    const uint32_t element = (op & 1) == 0 ? 1 : (word ? 2 : 4);
    const char suffix = element == 1 ? 'b' : element == 2 ? 'w' : 'd';
    return RepString{fmt::format("{} {}{}", prefix, kNames[(op - 0xA4) / 2], suffix), element};
  }

  std::string interrupt_reason(const x86::Outcome& out) {
    if (out.software_interrupt) {
      const uint32_t n = out.interrupt;
      // EIP is past the instruction: `int n` (CD n) is two bytes, int3 (CC) and into (CE) one.
      const uint32_t e = out.regs.eip;
      const bool two_bytes = e >= code_base + 2 && e <= code_base + code.size() &&
                             code[e - code_base - 2] == 0xCD && code[e - code_base - 1] == n;
      const uint32_t at = e - (two_bytes || (n != 3 && n != 4) ? 2 : 1);
      std::string what;
      if (n == 0x21)
        what = "DOS extender interface int 0x21 not provided";
      else if (n == 0x31)
        what = "DPMI interface int 0x31 not provided";
      else if (n == 3)
        what = "int3 breakpoint";
      else
        what = fmt::format("software interrupt int 0x{:x}: the sandbox has no handlers", n);
      return fmt::format("interrupt {} ({}) at {}", n, what, describe(at));
    }
    static const std::map<uint32_t, const char*> kExceptions = {
        {0, "divide error"},         {1, "debug exception"},       {5, "bound range exceeded"},
        {6, "invalid opcode"},       {7, "no math coprocessor"},   {10, "invalid TSS"},
        {11, "segment not present"}, {12, "stack-segment fault"},  {13, "general protection"},
        {14, "page fault"},          {16, "floating-point error"}, {17, "alignment check"}};
    auto it = kExceptions.find(out.interrupt);
    return fmt::format("interrupt {} ({}) at {}", out.interrupt,
                       it != kExceptions.end() ? it->second : "CPU exception",
                       describe(out.regs.eip));
  }

  std::string memory_reason(const x86::Outcome& out) {
    const uint32_t a = out.fault_address;
    const uint32_t stack_top = kX86StackBase + kX86StackSize;
    if (out.kind == x86::Outcome::Kind::kUnmapped) {
      if (a < kX86StackBase && a >= kX86StackBase - kX86StackGuard)
        return fmt::format(
            "stack exhausted: access to 0x{:x} below the sandbox's 0x{:x}-byte stack at 0x{:x} "
            "(ESP 0x{:x}) at {}",
            a, kX86StackSize, kX86StackBase, out.regs.esp, describe(out.regs.eip));
      if (a >= stack_top && a < stack_top + kX86StackGuard)
        return fmt::format(
            "stack underflow: access to 0x{:x} above the top of the sandbox's stack (ESP 0x{:x}) "
            "at {}",
            a, out.regs.esp, describe(out.regs.eip));
    }
    const char* what = out.kind == x86::Outcome::Kind::kUnmapped ? "access to unmapped address"
                                                                 : "protected access to";
    if (auto rep = rep_string(out.regs.eip))
      return fmt::format("{} with ECX = 0x{:x} ({} bytes) still to go: {} 0x{:x} at {}", rep->name,
                         out.regs.ecx, uint64_t{out.regs.ecx} * rep->element, what, a,
                         describe(out.regs.eip));
    return fmt::format("{} 0x{:x} at {}", what, a, describe(out.regs.eip));
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
    acquire(false);
    X86BlockResult result;
    counted = 0;
    sandbox->begin_block();
    x86::Registers regs;
    regs.esi = code_base + f0_offset + 2;  // do_start_asm: push esi; ret
    regs.eip = regs.esi;
    regs.esp = kX86StackBase + kX86StackSize - 16;
    store32(regs.esp, kX86ReturnSentinel);
    GuardMemo::Entry* guard =
        !trace && state->x86_memo ? &memo.entry(f0_offset, memory()) : nullptr;
    const bool memoise = guard != nullptr && guard->proof;
    // Kept apart from the proof, which a store into CODE during the run would forget.
    const uint32_t pushes = memoise ? guard->proof->pushes : 0;
    if (memoise) {
      if (const GuardMemo::Outcome* known = memo.find(*guard, globals, kX86GlobalsBase)) {
        // What the block would do again: leave its pushes on the stack and re-enter.
        std::copy(known->stack.begin(), known->stack.end(),
                  stack.end() - 16 - static_cast<ptrdiff_t>(known->stack.size()));
        // Built whole: the reason constructed from the literal is a copy in place, where
        // assigning it to the empty string was a library call of its own.
        return X86BlockResult{true, known->resume, 0, false, "do_start_interp"};
      }
    }
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
        if (memoise && calls == 0) {
          const auto pushed = static_cast<ptrdiff_t>(4 * pushes);
          memo.record(*guard, globals, kX86GlobalsBase,
                      {result.resume_offset,
                       std::vector<uint8_t>(stack.end() - 16 - pushed, stack.end() - 16)});
        }
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
        if (!out.detail.empty())
          return fmt::format("{} (budget) at {}", out.detail, describe(out.regs.eip));
        if (auto rep = rep_string(out.regs.eip))
          return fmt::format(
              "{} with ECX = 0x{:x} ({} bytes) still to go exhausted the instruction budget of {} "
              "at {}",
              rep->name, out.regs.ecx, uint64_t{out.regs.ecx} * rep->element, kX86BlockBudget,
              describe(out.regs.eip));
        return fmt::format("instruction budget of {} exhausted at {}", kX86BlockBudget,
                           describe(out.regs.eip));
      case x86::Outcome::Kind::kUnmapped:
      case x86::Outcome::Kind::kProtected:
        return memory_reason(out);
      case x86::Outcome::Kind::kInvalid:
        if (!out.detail.empty())
          return fmt::format("invalid instruction at {}: {}", describe(out.regs.eip), out.detail);
        return fmt::format("invalid instruction at {}", describe(out.regs.eip));
      case x86::Outcome::Kind::kInterrupt:
        return interrupt_reason(out);
      case x86::Outcome::Kind::kPortIo:
        return fmt::format("port I/O at {}", describe(out.regs.eip));
      case x86::Outcome::Kind::kPrivileged:
        return fmt::format(
            "privileged instruction {} at {}: the CPU refused it (general-protection fault; "
            "blocks run at ring 3 with the sandbox's fixed flat segments)",
            instruction_text(out.regs.eip), describe(out.regs.eip, false));
      case x86::Outcome::Kind::kSystemCall:
        return fmt::format(
            "system call instruction {} at {}: the DOS extender's system interface is not "
            "provided",
            instruction_text(out.regs.eip), describe(out.regs.eip, false));
      case x86::Outcome::Kind::kSegment:
        return fmt::format(
            "segment register load ({}): the sandbox's flat segments are fixed; found when the "
            "block stopped at {}",
            out.detail, describe(out.regs.eip));
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
  m.acquire(true);
  m.sink = sink;
  m.state = &state;
  // memcmp first: nearly every run finds CODE as it left it, and memcmp compares many bytes at
  // a time where std::mismatch takes them one by one (microseconds for a large CODE).
  if (std::memcmp(m.pristine.data(), m.code.data(), m.pristine.size()) != 0) {
    // The last run's x86 wrote into CODE: restore it and drop stale translations, and tell the
    // interpreter which bytes changed back.
    const auto first = std::mismatch(m.pristine.begin(), m.pristine.end(), m.code.begin());
    const auto last = std::mismatch(m.pristine.rbegin(), m.pristine.rend(),
                                    m.code.rbegin() + (m.code.size() - m.pristine.size()));
    const auto begin = static_cast<uint32_t>(first.first - m.pristine.begin());
    const auto end = static_cast<uint32_t>(m.pristine.rend() - last.first);
    std::copy(m.pristine.begin() + begin, m.pristine.begin() + end, m.code.begin() + begin);
    m.sandbox->invalidate(m.code_base, m.code_base + static_cast<uint32_t>(m.code.size()));
    m.code_changed(begin, end - begin);
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

uint64_t X86Runner::engines_opened() {
  return engines_opened_count.load(std::memory_order_relaxed);
}

uint64_t X86Runner::code_maps() {
  return code_maps_count.load(std::memory_order_relaxed);
}

uint64_t X86Runner::memo_hits() const {
  return impl_->memo.hits();
}

uint64_t X86Runner::memo_misses() const {
  return impl_->memo.misses();
}

void X86Runner::set_code_write_observer(CodeWriteObserver observer) {
  impl_->code_writes = std::move(observer);
}

void X86Runner::set_instruction_observer(InstructionObserver observer) {
  impl_->observer = std::move(observer);
}

}  // namespace shapevm::fa
