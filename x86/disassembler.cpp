#include "x86/disassembler.h"

#include <fmt/format.h>

#include <stdexcept>

#include "x86/capstone_library.h"

namespace shapevm::x86 {

namespace {
// Every Capstone call goes through the table loaded on first use (capstone_library.h).
const CapstoneLibrary& capstone() {
  return capstone_library();
}
}  // namespace

struct Disassembler::Impl {
  csh handle = 0;
  cs_insn* scratch = nullptr;
};

Disassembler::Disassembler() : impl_(std::make_unique<Impl>()) {
  if (capstone().cs_open(CS_ARCH_X86, CS_MODE_32, &impl_->handle) != CS_ERR_OK) {
    throw std::runtime_error("cannot open Capstone for 32-bit x86");
  }
  impl_->scratch = capstone().cs_malloc(impl_->handle);
  if (impl_->scratch == nullptr) {
    capstone().cs_close(&impl_->handle);
    throw std::runtime_error("Capstone could not allocate an instruction");
  }
}

Disassembler::~Disassembler() {
  capstone().cs_free(impl_->scratch, 1);
  capstone().cs_close(&impl_->handle);
}

std::vector<X86Instruction> Disassembler::disassemble(std::span<const uint8_t> bytes,
                                                      uint32_t address) const {
  std::vector<X86Instruction> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    const uint8_t* code = bytes.data() + pos;
    size_t remaining = bytes.size() - pos;
    uint64_t addr = uint64_t{address} + pos;
    X86Instruction insn;
    insn.address = static_cast<uint32_t>(address + pos);
    insn.offset = static_cast<uint32_t>(pos);
    if (capstone().cs_disasm_iter(impl_->handle, &code, &remaining, &addr, impl_->scratch)) {
      const cs_insn& ci = *impl_->scratch;
      insn.size = static_cast<uint8_t>(ci.size);
      insn.valid = true;
      insn.text = ci.op_str[0] ? fmt::format("{} {}", ci.mnemonic, ci.op_str) : ci.mnemonic;
    } else {
      insn.size = 1;
      insn.valid = false;
      insn.text = fmt::format("db 0x{:02x}", bytes[pos]);
    }
    pos += insn.size;
    out.push_back(std::move(insn));
  }
  return out;
}

}  // namespace shapevm::x86
