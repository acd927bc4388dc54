#include "x86/sandbox.h"

#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include <stdexcept>

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
    case Outcome::Kind::kError:
      return "error";
  }
  return "?";
}

struct Sandbox::Impl {
  uc_engine* uc = nullptr;
  uc_context* clean = nullptr;
  Observers observers;
  std::vector<std::pair<uint32_t, uint32_t>> mapped;  // address, size
  // What the hooks saw during the current run.
  bool faulted = false;
  Outcome::Kind fault_kind = Outcome::Kind::kError;
  uint32_t fault_address = 0;
  uint32_t interrupt = 0;
  uint64_t counted = 0;
  bool counting = false;

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
    uc_emu_stop(uc);  // never write EIP here (facts: the stop would be lost)
  }

  static uint32_t on_in(uc_engine* uc, uint32_t, int, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kPortIo;
    uc_emu_stop(uc);
    return 0;
  }

  static void on_out(uc_engine* uc, uint32_t, int, uint32_t, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->faulted = true;
    impl->fault_kind = Outcome::Kind::kPortIo;
    uc_emu_stop(uc);
  }

  static void on_code(uc_engine*, uint64_t address, uint32_t size, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->observers.on_instruction(static_cast<uint32_t>(address), size);
  }

  static void on_read(uc_engine* uc, uc_mem_type, uint64_t address, int size, int64_t, void* self) {
    auto* impl = static_cast<Impl*>(self);
    uint32_t value = 0;
    uc_mem_read(uc, address, &value, static_cast<size_t>(std::min(size, 4)));
    impl->observers.on_read(static_cast<uint32_t>(address), size, value);
  }
};

Sandbox::Sandbox() : Sandbox(Observers{}) {}

Sandbox::Sandbox(Observers observers) : impl_(std::make_unique<Impl>()) {
  impl_->observers = std::move(observers);
  if (uc_open(UC_ARCH_X86, UC_MODE_32, &impl_->uc) != UC_ERR_OK)
    throw std::runtime_error("cannot open Unicorn x86-32");
  uc_hook h;
  // All hooks before the first run (facts: later hooks miss already-translated code).
  uc_hook_add(impl_->uc, &h, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&Impl::on_invalid_memory),
              impl_.get(), 1, 0);
  uc_hook_add(impl_->uc, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&Impl::on_interrupt),
              impl_.get(), 1, 0);
  uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_in), impl_.get(), 1, 0,
              UC_X86_INS_IN);
  uc_hook_add(impl_->uc, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_out), impl_.get(), 1,
              0, UC_X86_INS_OUT);
  if (impl_->observers.on_instruction) {
    uc_hook_add(impl_->uc, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&Impl::on_code), impl_.get(),
                impl_->observers.code_begin, impl_->observers.code_end - 1);
  }
  if (impl_->observers.on_read) {
    uc_hook_add(impl_->uc, &h, UC_HOOK_MEM_READ, reinterpret_cast<void*>(&Impl::on_read),
                impl_.get(), impl_->observers.watch_begin, impl_->observers.watch_end - 1);
  }
  uc_context_alloc(impl_->uc, &impl_->clean);
  uc_context_save(impl_->uc, impl_->clean);
}

Sandbox::~Sandbox() {
  if (impl_->clean) uc_context_free(impl_->clean);
  if (impl_->uc) uc_close(impl_->uc);
}

void Sandbox::map(uint32_t address, std::span<uint8_t> host, uint8_t perms) {
  if (address % kPageSize || host.size() % kPageSize || host.empty())
    throw std::invalid_argument("sandbox mappings must be whole pages");
  uint32_t uc_perms = 0;
  if (perms & static_cast<uint8_t>(Access::kRead)) uc_perms |= UC_PROT_READ;
  if (perms & static_cast<uint8_t>(Access::kWrite)) uc_perms |= UC_PROT_WRITE;
  if (perms & static_cast<uint8_t>(Access::kExec)) uc_perms |= UC_PROT_EXEC;
  if (uc_mem_map_ptr(impl_->uc, address, host.size(), uc_perms, host.data()) != UC_ERR_OK)
    throw std::invalid_argument(
        fmt::format("cannot map 0x{:x} bytes at 0x{:x}", host.size(), address));
  impl_->mapped.push_back({address, static_cast<uint32_t>(host.size())});
}

void Sandbox::unmap_all() {
  // Drop the translations of every mapped range, not the whole cache: a full translation-block
  // flush clears megabytes of Unicorn's tables and costs far more than the remap itself.
  for (auto [address, size] : impl_->mapped) {
    uc_ctl_remove_cache(impl_->uc, address, uint64_t{address} + size);
    uc_mem_unmap(impl_->uc, address, size);
  }
  impl_->mapped.clear();
}

void Sandbox::invalidate(uint32_t begin, uint32_t end) {
  uc_ctl_remove_cache(impl_->uc, begin, end);
}

bool Sandbox::read32(uint32_t address, uint32_t& value) const {
  return uc_mem_read(impl_->uc, address, &value, 4) == UC_ERR_OK;
}

Registers Sandbox::registers() const {
  const int ids[] = {UC_X86_REG_EAX, UC_X86_REG_EBX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_ESI,
                     UC_X86_REG_EDI, UC_X86_REG_EBP, UC_X86_REG_ESP, UC_X86_REG_EIP};
  uint32_t v[9] = {};
  for (int i = 0; i < 9; ++i) uc_reg_read(impl_->uc, ids[i], &v[i]);
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
}

Outcome Sandbox::run(const Registers& r, uint64_t budget) {
  if (budget == 0) budget = 1;  // count > 0 always (facts: a count=0 run breaks later budgets)
  uc_engine* uc = impl_->uc;
  // A clean CPU for every block: hostile code at ring 0 may have changed control registers.
  uc_context_restore(uc, impl_->clean);
  const int regs_ids[] = {UC_X86_REG_EAX, UC_X86_REG_EBX, UC_X86_REG_ECX,
                          UC_X86_REG_EDX, UC_X86_REG_ESI, UC_X86_REG_EDI,
                          UC_X86_REG_EBP, UC_X86_REG_ESP, UC_X86_REG_EIP};
  uint32_t in[9] = {r.eax, r.ebx, r.ecx, r.edx, r.esi, r.edi, r.ebp, r.esp, r.eip};
  for (int i = 0; i < 9; ++i) uc_reg_write(uc, regs_ids[i], &in[i]);
  impl_->faulted = false;
  impl_->interrupt = 0;
  impl_->fault_address = 0;
  const uc_err err = uc_emu_start(uc, r.eip, 0, 0, budget);
  Outcome out;
  uint32_t regs_out[9];
  for (int i = 0; i < 9; ++i) uc_reg_read(uc, regs_ids[i], &regs_out[i]);
  out.regs = {regs_out[0], regs_out[1], regs_out[2], regs_out[3], regs_out[4],
              regs_out[5], regs_out[6], regs_out[7], regs_out[8]};
  out.fault_address = impl_->fault_address;
  out.interrupt = impl_->interrupt;
  if (impl_->faulted) {
    out.kind = impl_->fault_kind;
  } else if (err == UC_ERR_INSN_INVALID) {
    out.kind = Outcome::Kind::kInvalid;
  } else if (err != UC_ERR_OK) {
    out.kind = Outcome::Kind::kError;
    out.detail = uc_strerror(err);
  } else {
    // UC_ERR_OK: either a HLT stopped the run or the count ran out. HLT leaves EIP after it.
    uint8_t previous = 0;
    if (out.regs.eip > 0 && uc_mem_read(uc, out.regs.eip - 1, &previous, 1) == UC_ERR_OK &&
        previous == 0xF4) {
      out.kind = Outcome::Kind::kHalted;
      out.regs.eip -= 1;
    } else {
      out.kind = Outcome::Kind::kBudget;
    }
  }
  return out;
}

}  // namespace shapevm::x86
