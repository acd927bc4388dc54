// Capstone-backed 32-bit x86 disassembly for the code embedded in shapes. Bytes Capstone cannot
// decode come back one at a time as invalid entries (shown as `db` by listings), so a region is
// always covered exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace shapevm::x86 {

struct X86Instruction {
  uint32_t address = 0;  // the address the bytes were decoded at
  uint32_t offset = 0;   // offset of the first byte within the decoded span
  uint8_t size = 0;
  bool valid = false;  // false: one byte Capstone could not decode
  std::string text;    // "cmp word ptr [0xaa004d70], 1", or "db 0xff"
};

class Disassembler {
 public:
  Disassembler();  // throws std::runtime_error if Capstone cannot be opened
  ~Disassembler();
  Disassembler(const Disassembler&) = delete;
  Disassembler& operator=(const Disassembler&) = delete;

  // Decodes all of `bytes`, as if loaded at `address`. An instruction that would extend past the
  // end of `bytes` is not decoded: its bytes come back as invalid single bytes.
  std::vector<X86Instruction> disassemble(std::span<const uint8_t> bytes, uint32_t address) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shapevm::x86
