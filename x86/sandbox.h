// The wall around embedded x86: a Unicorn 2.0.1 CPU (32-bit flat mode) that can only see the
// regions mapped into it, runs with an instruction budget on every call, and turns every fault,
// invalid instruction, interrupt or wild access into an outcome the caller reports — never a crash
// of the host. Engine neutral: callers map their image, globals and exit pages and interpret the
// outcome. Follows ../shared/facts/unicorn.md: one engine reused per thread, hooks installed
// before the first run, count > 0 always, no `until`/timeout exits (exits are HLT pages).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace shapevm::x86 {

inline constexpr uint32_t kPageSize = 0x1000;

enum class Access : uint8_t { kRead = 1, kWrite = 2, kExec = 4 };
inline constexpr uint8_t kReadWriteExec = 7;
inline constexpr uint8_t kReadExec = 5;
inline constexpr uint8_t kReadWrite = 3;

struct Registers {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0, esi = 0, edi = 0, ebp = 0, esp = 0, eip = 0;
};

struct Outcome {
  enum class Kind : uint8_t {
    kHalted,     // executed HLT (an exit page, or a HLT in the mapped code)
    kBudget,     // the instruction budget ran out
    kUnmapped,   // read/write/fetch of an unmapped address
    kProtected,  // write to a read-only region or fetch from a non-executable one
    kInvalid,    // an invalid instruction
    kInterrupt,  // int N or a CPU exception (0 divide, 13 GP, 14 page fault, ...)
    kPortIo,     // in/out
    kError,      // another Unicorn error
  };
  Kind kind = Kind::kHalted;
  Registers regs;  // after the run; eip = the HLT's address for kHalted
  uint64_t instructions = 0;
  uint32_t fault_address = 0;  // the accessed address for kUnmapped/kProtected
  uint32_t interrupt = 0;
  std::string detail;
};

const char* outcome_name(Outcome::Kind kind);

class Sandbox {
 public:
  // Per-instruction and per-read observers (only for --x86-trace): installed at construction.
  struct Observers {
    std::function<void(uint32_t address, uint32_t size)> on_instruction;
    std::function<void(uint32_t address, int size, uint32_t value)> on_read;
    uint32_t watch_begin = 0, watch_end = 0;  // on_read fires for reads in [begin, end)
    uint32_t code_begin = 0, code_end = 0;    // on_instruction fires in [begin, end)
  };

  Sandbox();
  explicit Sandbox(Observers observers);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // Maps host memory (shared: guest stores land in it). address and host.size() must be
  // multiples of kPageSize; `host` must outlive the mapping.
  void map(uint32_t address, std::span<uint8_t> host, uint8_t perms);
  // Unmaps every region and drops the translations made from them (the engine can then be
  // reused for another image at the same addresses).
  void unmap_all();
  // After the host rewrote code bytes in [begin, end): drop Unicorn's translations of them.
  void invalidate(uint32_t begin, uint32_t end);

  // Runs from regs.eip with at most `budget` (> 0) instructions.
  Outcome run(const Registers& regs, uint64_t budget);

  bool read32(uint32_t address, uint32_t& value) const;
  // The registers now: inside an instruction observer, the state before that instruction.
  Registers registers() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shapevm::x86
