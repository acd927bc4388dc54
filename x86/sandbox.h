// The wall around embedded x86: a Unicorn 2.0.1 CPU (32-bit flat mode) that can only see the
// regions mapped into it, runs with an instruction budget on every call, and turns every fault,
// invalid instruction, interrupt or wild access into an outcome the caller reports — never a crash
// of the host, not even where Unicorn itself would abort (abort_guard.h). Engine neutral: callers
// map their image, globals and exit pages and interpret the outcome. Follows the Unicorn notes: one
// engine reused per thread, hooks installed before the first run, count > 0 always, no
// `until`/timeout exits (exits are HLT pages).
//
// Guest code runs at ring 3 with flat 32-bit segments from a read-only descriptor table on the
// sandbox's own page (kSystemPage), CR4.TSD set and IOPL 0. The CPU itself then refuses every
// system instruction (mov crN, lgdt, cli, in/out, hlt, far transfers to other selectors, ...) with
// a general-protection fault, which the interrupt hook sees without a per-instruction hook. HLT
// faults too: a fault on an F4 byte is reported as kHalted, so HLT pages still serve as exits.
// rdtsc faults and is answered from a virtual clock, cpuid is answered with a fixed identity: a
// frame never depends on the host.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace shapevm::x86 {

inline constexpr uint32_t kPageSize = 0x1000;
// The sandbox's own page (descriptor table), read-only to the guest. Callers must not map it.
inline constexpr uint32_t kSystemPage = 0xFFFF0000;

// What the guest reads from rdtsc: the n-th read since begin_block() (n = 1, 2, ...) returns
// n * kTscTicksPerRead in EDX:EAX, so time moves forward but never depends on the host.
inline constexpr uint64_t kTscTicksPerRead = 0x10000;
// rdtsc reads answered per block; one more stops the block (each read costs a host round trip).
inline constexpr uint32_t kMaxTscReads = 16;
// What cpuid returns: leaf 0 = max leaf 1, "GenuineIntel"; leaf 1 = a Pentium (P5, family 5,
// model 2, stepping 5) with FPU VME DE PSE TSC MSR MCE CX8; every other leaf 0.
inline constexpr uint32_t kCpuidMaxLeaf = 1;
inline constexpr uint32_t kCpuidVendorEbx = 0x756E6547;  // "Genu"
inline constexpr uint32_t kCpuidVendorEdx = 0x49656E69;  // "ineI"
inline constexpr uint32_t kCpuidVendorEcx = 0x6C65746E;  // "ntel"
inline constexpr uint32_t kCpuidSignature = 0x00000525;
inline constexpr uint32_t kCpuidFeaturesEdx = 0x000001BF;

enum class Access : uint8_t { kRead = 1, kWrite = 2, kExec = 4 };
inline constexpr uint8_t kReadWriteExec = 7;
inline constexpr uint8_t kReadExec = 5;
inline constexpr uint8_t kReadWrite = 3;

struct Registers {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0, esi = 0, edi = 0, ebp = 0, esp = 0, eip = 0;
};

struct Outcome {
  enum class Kind : uint8_t {
    kHalted,      // executed HLT (an exit page, or a HLT in the mapped code)
    kBudget,      // the instruction budget ran out
    kUnmapped,    // read/write/fetch of an unmapped address
    kProtected,   // write to a read-only region or fetch from a non-executable one
    kInvalid,     // an invalid instruction
    kInterrupt,   // int N or a CPU exception (0 divide, 13 GP, 14 page fault, ...)
    kPortIo,      // in/out
    kPrivileged,  // a system instruction the CPU refused at ring 3 (general-protection fault)
    kSystemCall,  // sysenter/syscall (regs.eip = the instruction's address)
    kSegment,     // the block loaded a segment register (detail names it and the selector)
    kError,       // another Unicorn error
  };
  Kind kind = Kind::kHalted;
  Registers regs;  // after the run; eip = the HLT's address for kHalted
  uint64_t instructions = 0;
  uint32_t fault_address = 0;  // the accessed address for kUnmapped/kProtected
  uint32_t interrupt = 0;
  bool software_interrupt = false;  // kInterrupt: an `int N` / `int3` / `into` instruction
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
    // Guest stores that touch [write_begin, write_end) reach the write listener
    // (set_write_listener). The range is fixed here because Unicorn 2.0.1 applies a hook only
    // to code translated after it was added; stores outside it pay one bounds check.
    uint32_t write_begin = 0, write_end = 0;
  };
  // Called before a guest store of `size` bytes at `address` inside the watched write range.
  using WriteListener = std::function<void(uint32_t address, uint32_t size)>;

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
  // Unmaps the region mapped at `address` (its first byte) and drops its translations; nothing
  // when no region starts there.
  void unmap(uint32_t address);
  // The size of the region mapped at `address` (its first byte), 0 when none starts there.
  uint32_t mapped_size(uint32_t address) const;
  // After the host rewrote code bytes in [begin, end): drop Unicorn's translations of them.
  void invalidate(uint32_t begin, uint32_t end);
  // Who hears of guest stores in the watched write range (Observers::write_begin); nullptr for
  // nobody. A thread's shared engine is handed from owner to owner, so this can change.
  void set_write_listener(WriteListener listener);

  // Starts a block: the virtual time-stamp counter starts again (every run of a block reads the
  // same times).
  void begin_block();
  // Runs from regs.eip with at most `budget` (> 0) instructions.
  Outcome run(const Registers& regs, uint64_t budget);

  // Reads `size` guest bytes at `address` (false when they are not all mapped).
  bool read(uint32_t address, void* out, uint32_t size) const;
  bool read32(uint32_t address, uint32_t& value) const;
  // The registers now: inside an instruction observer, the state before that instruction.
  Registers registers() const;

 private:
  void open_engine();
  void replace_engine();
  void descend_to_ring3();
  void classify_interrupt(Outcome& out) const;
  bool answer_rdtsc(Outcome& out);
  void check_segments(Outcome& out) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shapevm::x86
