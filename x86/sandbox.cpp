#include "x86/sandbox.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "core/byte_writer.h"
#include "x86/abort_guard.h"
#include "x86/unicorn_library.h"

namespace shapevm::x86 {

const char* outcome_name(Outcome::Kind kind) {
  switch (kind) {
    case Outcome::Kind::kHalted:
      return "halted";
    case Outcome::Kind::kBudget:
      return "budget";
    case Outcome::Kind::kUnmapped:
      return "unmapped access";
    case Outcome::Kind::kProtected:
      return "protected access";
    case Outcome::Kind::kInvalid:
      return "invalid instruction";
    case Outcome::Kind::kInterrupt:
      return "interrupt";
    case Outcome::Kind::kPortIo:
      return "port I/O";
    case Outcome::Kind::kPrivileged:
      return "privileged instruction";
    case Outcome::Kind::kSystemCall:
      return "system call";
    case Outcome::Kind::kSegment:
      return "segment register load";
    case Outcome::Kind::kError:
      return "error";
  }
  return "?";
}

namespace {

// Every Unicorn call goes through the table loaded with the first sandbox (unicorn_library.h).
const UnicornLibrary& unicorn() {
  return unicorn_library();
}

// The descriptor table on kSystemPage: null, ring-0 flat code (0x08) and data (0x10) used only to
// climb down to ring 3 once, ring-3 flat code (0x1B) and data (0x23) the guest runs with. The
// accessed bits are preset so loading a selector never writes the (read-only) table.
constexpr uint64_t kGdt[] = {0, 0x00CF9B000000FFFF, 0x00CF93000000FFFF, 0x00CFFB000000FFFF,
                             0x00CFF3000000FFFF};
constexpr uint32_t kRing0Code = 0x08, kRing0Data = 0x10, kRing3Code = 0x1B, kRing3Data = 0x23;
// Where the descent runs (inside kSystemPage, executable only while the sandbox is built).
constexpr uint32_t kDescentCode = kSystemPage + 0x100;
constexpr uint32_t kDescentStackTop = kSystemPage + kPageSize;
constexpr uint32_t kDescentTarget = kSystemPage + 0x200;  // ring-3 EIP after the iretd (never run)

// push ss; push esp; push eflags (IOPL 0, IF 0); push cs; push eip; iretd: six instructions.
std::vector<uint8_t> descent_code() {
  std::vector<uint8_t> c{0x6A, kRing3Data, 0x68};
  append_u32(c, kDescentStackTop - 0x40);
  c.push_back(0x68);
  append_u32(c, 0x2);
  c.insert(c.end(), {0x6A, kRing3Code, 0x68});
  append_u32(c, kDescentTarget);
  c.push_back(0xCF);
  return c;
}
constexpr uint64_t kDescentInstructions = 6;

// The segment registers compared after every stop, with their names.
constexpr std::array<std::pair<int, const char*>, 6> kSegments = {{{UC_X86_REG_CS, "CS"},
                                                                   {UC_X86_REG_DS, "DS"},
                                                                   {UC_X86_REG_ES, "ES"},
                                                                   {UC_X86_REG_FS, "FS"},
                                                                   {UC_X86_REG_GS, "GS"},
                                                                   {UC_X86_REG_SS, "SS"}}};

// Skips operand/address-size, rep and segment prefixes.
size_t skip_prefixes(const uint8_t* b, size_t n) {
  size_t i = 0;
  while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xF2 || b[i] == 0xF3 || b[i] == 0x26 ||
                   b[i] == 0x2E || b[i] == 0x36 || b[i] == 0x3E || b[i] == 0x64 || b[i] == 0x65))
    ++i;
  return i;
}

bool is_port_io(uint8_t op) {
  return (op >= 0xE4 && op <= 0xE7) || (op >= 0xEC && op <= 0xEF) || (op >= 0x6C && op <= 0x6F);
}

}  // namespace

struct Sandbox::Impl {
  uc_engine* uc = nullptr;
  uc_context* clean = nullptr;
  Observers observers;
  WriteListener write_listener;
  struct Region {
    uint32_t address = 0, size = 0;
    uint8_t* host = nullptr;
    uint32_t uc_perms = 0;
  };
  std::vector<Region> mapped;  // what a replacement engine maps again
  // What the hooks saw during the current run.
  bool faulted = false;
  Outcome::Kind fault_kind = Outcome::Kind::kError;
  uint32_t fault_address = 0;
  uint32_t interrupt = 0;
  uint64_t counted = 0;
  bool counting = false;
  uint32_t system_call_size = 0;  // kSystemCall: the instruction's length (EIP is past it)
  uint32_t tsc_reads = 0;         // since begin_block()
  std::array<uint32_t, 6> clean_segments{};

  // syscall and sysenter: Unicorn calls this instead of executing them, with EIP past them.
  static void on_syscall(uc_engine* uc, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kSystemCall;
    impl->system_call_size = 2;  // 0F 05 / 0F 34
    unicorn().uc_emu_stop(uc);
  }

  // A fixed identity (sandbox.h), whatever the host is; returning 1 skips the real cpuid.
  static int on_cpuid(uc_engine* uc, void*) {
    uint32_t leaf = 0;
    unicorn().uc_reg_read(uc, UC_X86_REG_EAX, &leaf);
    uint32_t a = 0, b = 0, c = 0, d = 0;
    if (leaf == 0) {
      a = kCpuidMaxLeaf;
      b = kCpuidVendorEbx;
      d = kCpuidVendorEdx;
      c = kCpuidVendorEcx;
    } else if (leaf == 1) {
      a = kCpuidSignature;
      d = kCpuidFeaturesEdx;
    }
    unicorn().uc_reg_write(uc, UC_X86_REG_EAX, &a);
    unicorn().uc_reg_write(uc, UC_X86_REG_EBX, &b);
    unicorn().uc_reg_write(uc, UC_X86_REG_ECX, &c);
    unicorn().uc_reg_write(uc, UC_X86_REG_EDX, &d);
    return 1;
  }

  static bool on_invalid_memory(uc_engine*, uc_mem_type type, uint64_t address, int, int64_t,
                                void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_address = static_cast<uint32_t>(address);
    const bool prot =
        type == UC_MEM_WRITE_PROT || type == UC_MEM_FETCH_PROT || type == UC_MEM_READ_PROT;
    impl->fault_kind = prot ? Outcome::Kind::kProtected : Outcome::Kind::kUnmapped;
    return false;  // do not map anything: the run stops with an error
  }

  static void on_interrupt(uc_engine* uc, uint32_t intno, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kInterrupt;
    impl->interrupt = intno;
    unicorn().uc_emu_stop(uc);  // never write EIP here (facts: the stop would be lost)
  }

  static uint32_t on_in(uc_engine* uc, uint32_t, int, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kPortIo;
    unicorn().uc_emu_stop(uc);
    return 0;
  }

  static void on_out(uc_engine* uc, uint32_t, int, uint32_t, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kPortIo;
    unicorn().uc_emu_stop(uc);
  }

  static void on_code(uc_engine*, uint64_t address, uint32_t size, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->observers.on_instruction(static_cast<uint32_t>(address), size);
  }

  static void on_write(uc_engine*, uc_mem_type, uint64_t address, int size, int64_t, void* self) {
    auto* impl = static_cast<Impl*>(self);
    if (impl->write_listener)
      impl->write_listener(static_cast<uint32_t>(address), static_cast<uint32_t>(size));
  }

  static void on_read(uc_engine* uc, uc_mem_type, uint64_t address, int size, int64_t, void* self) {
    auto* impl = static_cast<Impl*>(self);
    uint32_t value = 0;
    unicorn().uc_mem_read(uc, address, &value, static_cast<size_t>(std::min(size, 4)));
    impl->observers.on_read(static_cast<uint32_t>(address), size, value);
  }
};

Sandbox::Sandbox() : Sandbox(Observers{}) {}

Sandbox::Sandbox(Observers observers) : impl_(std::make_unique<Impl>()) {
  impl_->observers = std::move(observers);
  open_engine();
}

// A new engine with the sandbox's hooks, at ring 3, its clean context saved; no regions mapped.
void Sandbox::open_engine() {
  if (unicorn().uc_open(UC_ARCH_X86, UC_MODE_32, &impl_->uc) != UC_ERR_OK)
    throw std::runtime_error("cannot open Unicorn x86-32");
  uc_hook h;
  // All hooks before the first run (facts: later hooks miss already-translated code).
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_MEM_INVALID,
                        reinterpret_cast<void*>(&Impl::on_invalid_memory), impl_.get(), 1, 0);
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&Impl::on_interrupt),
                        impl_.get(), 1, 0);
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_in),
                        impl_.get(), 1, 0, UC_X86_INS_IN);
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_out),
                        impl_.get(), 1, 0, UC_X86_INS_OUT);
  if (impl_->observers.on_instruction) {
    unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&Impl::on_code),
                          impl_.get(), impl_->observers.code_begin, impl_->observers.code_end - 1);
  }
  if (impl_->observers.on_read) {
    unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_MEM_READ, reinterpret_cast<void*>(&Impl::on_read),
                          impl_.get(), impl_->observers.watch_begin,
                          impl_->observers.watch_end - 1);
  }
  if (impl_->observers.write_end > impl_->observers.write_begin) {
    // A ranged memory hook: Unicorn checks the range before calling, so stores elsewhere (the
    // stack, the globals) never reach on_write.
    unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_MEM_WRITE,
                          reinterpret_cast<void*>(&Impl::on_write), impl_.get(),
                          impl_->observers.write_begin, impl_->observers.write_end - 1);
  }
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_syscall),
                        impl_.get(), 1, 0, UC_X86_INS_SYSCALL);
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_syscall),
                        impl_.get(), 1, 0, UC_X86_INS_SYSENTER);
  unicorn().uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_cpuid),
                        impl_.get(), 1, 0, UC_X86_INS_CPUID);
  descend_to_ring3();
  unicorn().uc_context_alloc(impl_->uc, &impl_->clean);
  unicorn().uc_context_save(impl_->uc, impl_->clean);
}

// Unicorn starts at ring 0 with segment caches that do not match any descriptor; guest code must
// not start there (it could rewrite CR0 or the descriptor table, and rdtsc would read the host's
// clock). Load real ring-0 descriptors, set CR4.TSD, then iretd to ring 3 once; every run starts
// from the context saved here. The descent stops by count, not by a fault: a context saved right
// after an exception would turn the next fault into a double fault.
void Sandbox::descend_to_ring3() {
  uc_engine* uc = impl_->uc;
  auto check = [](uc_err err, const char* what) {
    if (err != UC_ERR_OK)
      throw std::runtime_error(
          fmt::format("x86 sandbox setup: {}: {}", what, unicorn().uc_strerror(err)));
  };
  check(unicorn().uc_mem_map(uc, kSystemPage, kPageSize, UC_PROT_ALL), "map the system page");
  check(unicorn().uc_mem_write(uc, kSystemPage, kGdt, sizeof kGdt), "write the descriptor table");
  const std::vector<uint8_t> code = descent_code();
  check(unicorn().uc_mem_write(uc, kDescentCode, code.data(), code.size()), "write the descent");
  uc_x86_mmr gdtr{0, kSystemPage, sizeof kGdt - 1, 0};
  check(unicorn().uc_reg_write(uc, UC_X86_REG_GDTR, &gdtr), "load GDTR");
  uint32_t cr4 = 0;
  unicorn().uc_reg_read(uc, UC_X86_REG_CR4, &cr4);
  cr4 |= 0x4;  // TSD: rdtsc outside ring 0 faults
  check(unicorn().uc_reg_write(uc, UC_X86_REG_CR4, &cr4), "set CR4.TSD");
  uint32_t selector = kRing0Data;
  check(unicorn().uc_reg_write(uc, UC_X86_REG_SS, &selector), "load SS");
  selector = kRing3Data;  // data segments the ring-3 code keeps (iretd nulls more privileged ones)
  for (int reg : {UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_FS, UC_X86_REG_GS})
    check(unicorn().uc_reg_write(uc, reg, &selector), "load a data segment");
  selector = kRing0Code;
  check(unicorn().uc_reg_write(uc, UC_X86_REG_CS, &selector), "load CS");
  uint32_t esp = kDescentStackTop;
  unicorn().uc_reg_write(uc, UC_X86_REG_ESP, &esp);
  check(unicorn().uc_emu_start(uc, kDescentCode, 0, 0, kDescentInstructions), "descend to ring 3");
  uint32_t cs = 0, ss = 0;
  unicorn().uc_reg_read(uc, UC_X86_REG_CS, &cs);
  unicorn().uc_reg_read(uc, UC_X86_REG_SS, &ss);
  if ((cs & 0xFFFF) != kRing3Code || (ss & 0xFFFF) != kRing3Data || impl_->faulted)
    throw std::runtime_error("x86 sandbox setup: the CPU did not reach ring 3");
  // From now on the guest may read the table but neither write nor execute the page.
  check(unicorn().uc_mem_protect(uc, kSystemPage, kPageSize, UC_PROT_READ),
        "protect the system page");
  unicorn().uc_ctl(uc, UC_CTL_WRITE(UC_CTL_TB_REMOVE_CACHE, 2), kSystemPage,
                   uint64_t{kSystemPage} + kPageSize);
  for (size_t i = 0; i < kSegments.size(); ++i) {
    uint32_t v = 0;
    unicorn().uc_reg_read(uc, kSegments[i].first, &v);
    impl_->clean_segments[i] = v & 0xFFFF;
  }
}

Sandbox::~Sandbox() {
  if (impl_->clean) unicorn().uc_context_free(impl_->clean);
  if (impl_->uc) unicorn().uc_close(impl_->uc);
}

// After Unicorn aborted during a run (abort_guard.h): the engine stands where the abort left it
// and is closed unused. A new one gets the same hooks and the same regions, so callers carry on
// as if nothing had happened to the engine.
void Sandbox::replace_engine() {
  if (impl_->clean) unicorn().uc_context_free(impl_->clean);
  impl_->clean = nullptr;
  unicorn().uc_close(impl_->uc);
  impl_->uc = nullptr;
  open_engine();
  for (const Impl::Region& region : impl_->mapped) {
    if (unicorn().uc_mem_map_ptr(impl_->uc, region.address, region.size, region.uc_perms,
                                 region.host) != UC_ERR_OK)
      throw std::runtime_error(fmt::format("x86 sandbox: cannot map 0x{:x} bytes at 0x{:x} again",
                                           region.size, region.address));
  }
}

void Sandbox::map(uint32_t address, std::span<uint8_t> host, uint8_t perms) {
  if (address % kPageSize || host.size() % kPageSize || host.empty())
    throw std::invalid_argument("sandbox mappings must be whole pages");
  uint32_t uc_perms = 0;
  if (perms & static_cast<uint8_t>(Access::kRead)) uc_perms |= UC_PROT_READ;
  if (perms & static_cast<uint8_t>(Access::kWrite)) uc_perms |= UC_PROT_WRITE;
  if (perms & static_cast<uint8_t>(Access::kExec)) uc_perms |= UC_PROT_EXEC;
  if (unicorn().uc_mem_map_ptr(impl_->uc, address, host.size(), uc_perms, host.data()) != UC_ERR_OK)
    throw std::invalid_argument(
        fmt::format("cannot map 0x{:x} bytes at 0x{:x}", host.size(), address));
  impl_->mapped.push_back({address, static_cast<uint32_t>(host.size()), host.data(), uc_perms});
}

void Sandbox::unmap_all() {
  while (!impl_->mapped.empty()) unmap(impl_->mapped.back().address);
}

void Sandbox::unmap(uint32_t address) {
  auto& mapped = impl_->mapped;
  const auto it = std::find_if(mapped.begin(), mapped.end(),
                               [address](const auto& region) { return region.address == address; });
  if (it == mapped.end()) return;
  const uint32_t size = it->size;
  // Drop the translations of the range, not the whole cache: a full translation-block flush
  // clears megabytes of Unicorn's tables and costs far more than the remap itself.
  unicorn().uc_ctl(impl_->uc, UC_CTL_WRITE(UC_CTL_TB_REMOVE_CACHE, 2), address,
                   uint64_t{address} + size);
  unicorn().uc_mem_unmap(impl_->uc, address, size);
  mapped.erase(it);
}

uint32_t Sandbox::mapped_size(uint32_t address) const {
  for (const auto& region : impl_->mapped)
    if (region.address == address) return region.size;
  return 0;
}

void Sandbox::invalidate(uint32_t begin, uint32_t end) {
  // Unicorn reads both as uint64_t (its variadic arguments): passed as such, not as uint32_t.
  unicorn().uc_ctl(impl_->uc, UC_CTL_WRITE(UC_CTL_TB_REMOVE_CACHE, 2), uint64_t{begin},
                   uint64_t{end});
}

void Sandbox::set_write_listener(WriteListener listener) {
  impl_->write_listener = std::move(listener);
}

bool Sandbox::read(uint32_t address, void* out, uint32_t size) const {
  // The caller's own regions are read where they live: the same bytes uc_mem_read would copy
  // (it ignores protections too), without its search of Unicorn's memory map, which was a
  // tenth of a warm block. Anything else (the sandbox's own page, a read across regions) asks
  // Unicorn.
  for (const Impl::Region& region : impl_->mapped) {
    if (address >= region.address &&
        uint64_t{address} + size <= uint64_t{region.address} + region.size) {
      std::memcpy(out, region.host + (address - region.address), size);
      return true;
    }
  }
  return unicorn().uc_mem_read(impl_->uc, address, out, size) == UC_ERR_OK;
}

bool Sandbox::read32(uint32_t address, uint32_t& value) const {
  return read(address, &value, 4);
}

void Sandbox::begin_block() {
  impl_->tsc_reads = 0;
}

namespace {

// The registers a block starts from and ends with, in Registers' order. Read and written in one
// batch call each: one call per register was about a sixth of a warm block. Not const: the batch
// calls take the ids through an int*.
constexpr int kRegisterCount = 9;
int register_ids[kRegisterCount] = {UC_X86_REG_EAX, UC_X86_REG_EBX, UC_X86_REG_ECX,
                                    UC_X86_REG_EDX, UC_X86_REG_ESI, UC_X86_REG_EDI,
                                    UC_X86_REG_EBP, UC_X86_REG_ESP, UC_X86_REG_EIP};

void write_registers(uc_engine* uc, const Registers& r) {
  uint32_t in[kRegisterCount] = {r.eax, r.ebx, r.ecx, r.edx, r.esi, r.edi, r.ebp, r.esp, r.eip};
  void* values[kRegisterCount];
  for (int i = 0; i < kRegisterCount; ++i) values[i] = &in[i];
  unicorn().uc_reg_write_batch(uc, register_ids, values, kRegisterCount);
}

Registers read_registers(uc_engine* uc) {
  uint32_t v[kRegisterCount] = {};
  void* values[kRegisterCount];
  for (int i = 0; i < kRegisterCount; ++i) values[i] = &v[i];
  unicorn().uc_reg_read_batch(uc, register_ids, values, kRegisterCount);
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
}

}  // namespace

Registers Sandbox::registers() const {
  return read_registers(impl_->uc);
}

Outcome Sandbox::run(const Registers& r, uint64_t budget) {
  if (budget == 0) budget = 1;  // count > 0 always (facts: a count=0 run breaks later budgets)
  uc_engine* uc = impl_->uc;
  // A clean CPU for every block, at ring 3 with the sandbox's segments.
  unicorn().uc_context_restore(uc, impl_->clean);
  write_registers(uc, r);
  Outcome out;
  uint32_t start = r.eip;
  for (;;) {
    impl_->faulted = false;
    impl_->interrupt = 0;
    impl_->fault_address = 0;
    struct EmuStart {
      uc_engine* uc;
      uint32_t start;
      uint64_t budget;
      uc_err err;
    } call{uc, start, budget, UC_ERR_OK};
    const bool returned = call_surviving_abort(
        [](void* p) {
          auto* c = static_cast<EmuStart*>(p);
          c->err = unicorn().uc_emu_start(c->uc, c->start, 0, 0, c->budget);
        },
        &call);
    if (!returned) {
      // Unicorn aborted translating the guest's code (abort_guard.h): the instruction it could
      // not translate is one the CPU refuses, so the block stops as an invalid instruction.
      out = Outcome{};
      out.kind = Outcome::Kind::kInvalid;
      out.regs = read_registers(uc);
      out.detail =
          "the emulator aborted translating the code here (Unicorn 2.0.1 cannot translate some "
          "instructions the CPU refuses, such as FF /3 or FF /5 with a register operand: a far "
          "call or jump through a register); a new engine carries on";
      replace_engine();
      return out;
    }
    const uc_err err = call.err;
    out = Outcome{};
    out.regs = read_registers(uc);
    out.fault_address = impl_->fault_address;
    out.interrupt = impl_->interrupt;
    if (impl_->faulted) {
      out.kind = impl_->fault_kind;
    } else if (err == UC_ERR_INSN_INVALID) {
      out.kind = Outcome::Kind::kInvalid;
    } else if (err != UC_ERR_OK) {
      out.kind = Outcome::Kind::kError;
      out.detail = unicorn().uc_strerror(err);
    } else {
      out.kind = Outcome::Kind::kBudget;  // UC_ERR_OK without a hook: the count ran out
    }
    if (out.kind == Outcome::Kind::kSystemCall) out.regs.eip -= impl_->system_call_size;
    if (out.kind == Outcome::Kind::kInterrupt) classify_interrupt(out);
    check_segments(out);  // before any resume: the clean context would hide a segment load
    if (!answer_rdtsc(out)) break;
    // rdtsc answered: continue after it from the clean context (a context that took a fault
    // would make the next fault a double fault), keeping the guest's registers and flags.
    uint32_t eflags = 0;
    unicorn().uc_reg_read(uc, UC_X86_REG_EFLAGS, &eflags);
    unicorn().uc_context_restore(uc, impl_->clean);
    write_registers(uc, out.regs);
    unicorn().uc_reg_write(uc, UC_X86_REG_EFLAGS, &eflags);
    start = out.regs.eip;
  }
  return out;
}

// Interrupt 13 at ring 3 is the CPU refusing an instruction: say which kind. `int N`, `int3` and
// `into` leave EIP after the instruction; faults leave it on the instruction.
void Sandbox::classify_interrupt(Outcome& out) const {
  const uint32_t eip = out.regs.eip;
  // The hot path first: every exit through an exit page is a refused HLT. (An `int 0x0d` right
  // before an F4 byte would read as that HLT; both stop the block.)
  uint8_t first = 0;
  if (out.interrupt == 13 && read(eip, &first, 1) && first == 0xF4) {
    out.kind = Outcome::Kind::kHalted;
    return;
  }
  uint8_t before[2] = {};
  if (eip >= 2 && read(eip - 2, before, 2) && before[0] == 0xCD && before[1] == out.interrupt) {
    out.software_interrupt = true;
    return;
  }
  if ((out.interrupt == 3 && before[1] == 0xCC) || (out.interrupt == 4 && before[1] == 0xCE)) {
    out.software_interrupt = true;
    return;
  }
  if (out.interrupt != 13) return;
  uint8_t bytes[15] = {};
  uint32_t n = sizeof bytes;
  if (!read(eip, bytes, n)) {  // near the end of a mapping (or of the address space): bytewise
    n = 0;
    while (n < sizeof bytes && uint64_t{eip} + n <= UINT32_MAX && read(eip + n, bytes + n, 1)) ++n;
  }
  const size_t op = skip_prefixes(bytes, n);
  if (op < n && is_port_io(bytes[op])) {
    out.kind = Outcome::Kind::kPortIo;
  } else {
    out.kind = Outcome::Kind::kPrivileged;
  }
}

// rdtsc (0F 31) faults at ring 3 (CR4.TSD): answer it from the virtual clock and step over it.
// Returns true when the run should continue; a block reading it too often stops on budget.
bool Sandbox::answer_rdtsc(Outcome& out) {
  if (out.kind != Outcome::Kind::kPrivileged) return false;
  uint8_t bytes[2] = {};
  if (!read(out.regs.eip, bytes, 2) || bytes[0] != 0x0F || bytes[1] != 0x31) return false;
  if (impl_->tsc_reads >= kMaxTscReads) {
    out.kind = Outcome::Kind::kBudget;
    out.detail = fmt::format("more than {} rdtsc reads in one block", kMaxTscReads);
    return false;
  }
  const uint64_t now = uint64_t{++impl_->tsc_reads} * kTscTicksPerRead;
  out.regs.eax = static_cast<uint32_t>(now);
  out.regs.edx = static_cast<uint32_t>(now >> 32);
  out.regs.eip += 2;
  return true;
}

// A block that loaded a segment register (mov ds, pop es, lss, ...) changed what every later
// access means, even when the selector was valid: report it whatever stopped the run. (A load of
// the null selector does not fault at ring 3 until used, and Unicorn does not check null data
// segments on access, so this is found after the run, without a per-instruction hook.)
void Sandbox::check_segments(Outcome& out) const {
  for (size_t i = 0; i < kSegments.size(); ++i) {
    uint32_t v = 0;
    unicorn().uc_reg_read(impl_->uc, kSegments[i].first, &v);
    if ((v & 0xFFFF) == impl_->clean_segments[i]) continue;
    out.kind = Outcome::Kind::kSegment;
    out.detail = fmt::format("{} = 0x{:x}", kSegments[i].second, v & 0xFFFF);
    return;
  }
}

}  // namespace shapevm::x86
