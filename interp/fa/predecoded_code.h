// The FA bytecode decoded once per shape, for the interpreter's direct-threaded dispatch: one
// entry per CODE offset, filled the first time execution reaches it, holding which executor runs
// it and its operands already parsed and checked. A run then costs, per opcode, one table load
// and one indirect jump instead of FA.EXE's fetch, bounds checks and vector_table lookup.
//
// Only what cannot fail is cached: an instruction whose checks depend on CODE alone and pass
// (operands inside CODE, transfer targets inside CODE, a pool range that fits). Everything else
// (bad operands, odd or unknown opcodes, TextureFile, X86Code) is a kLegacy entry: the
// interpreter runs its ordinary handler, which re-reads CODE and reports exactly as before.
//
// Embedded x86 may write into CODE. invalidate() drops every entry decoded from the bytes
// written, so the next visit decodes the new bytes (X86Runner::set_code_write_observer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace shapevm::fa {

// The executors, and what each takes from its entry:
//   Decode      not decoded yet (or invalidated)
//   OffEnd      the offsets at and past CODE's end
//   Legacy      nothing: the opcode's ordinary handler runs
//   EndObject   0x00;  ShortEof 0x1E
//   Jump        0x38, 0x48, 0x50: target
//   Call        0x12, 0x6E: target, next = resume
//   XformCall   0xC4, 0xC6: target, next = resume (the translation is read from CODE)
//   Frame       0x40: a = frame count, next = past the table (the table is read from CODE)
//   Damage      0xAC: target, next;  Detail 0xA6: the same and a = threshold
//   Lod         0xC8: target, next, a = size, b = threshold
//   OrderField  0x6C: target = call arm, next = continue arm, a = field, b = cmp
//   OrderPlane  0x06, 0x0C, 0x0E, 0x10: target = call arm, next = the other arm
//   Next        VertexInfo, TextureIndex and the opcodes stepped over: next
//   VertexBuffer 0x82: a = count, b = first slot, next (the vertices are read from CODE)
//   Face        0xFC: next (the flags and corners are read from CODE)
#define SHAPEVM_FA_FAST_OPS(X) \
  X(Decode)                    \
  X(OffEnd)                    \
  X(Legacy)                    \
  X(EndObject)                 \
  X(ShortEof)                  \
  X(Jump)                      \
  X(Call)                      \
  X(XformCall)                 \
  X(Frame)                     \
  X(Damage)                    \
  X(Detail)                    \
  X(Lod)                       \
  X(OrderField)                \
  X(OrderPlane)                \
  X(Next)                      \
  X(VertexBuffer)              \
  X(Face)

enum class FastOp : uint8_t {
#define SHAPEVM_FAST_ENUM(name) k##name,
  SHAPEVM_FA_FAST_OPS(SHAPEVM_FAST_ENUM)
#undef SHAPEVM_FAST_ENUM
};

// log2 of an entry's size: the table has one entry per CODE byte.
inline constexpr unsigned kDecodedOpShift = 4;

// 16 bytes. Operands the executors can read from CODE as cheaply as from here (XformUnmask's
// translation, a plane's coefficients) are read there, inside the entry's span.
struct DecodedOp {
  FastOp kind = FastOp::kDecode;
  uint8_t op = 0;
  // How many bytes from the entry's offset its fields were read from: a write to any of them
  // invalidates it (at most kMaxDecodedSpan; longer instructions are kLegacy).
  uint8_t span = 0;
  // Always 0: the byte padding would hold, named so that an entry has no padding and a cleared
  // entry is sixteen zero bytes (PredecodedCode::decode tests it as two words).
  uint8_t unused = 0;
  // The offset after the instruction (a call's resume; a selector's arm) and the transfer target
  // (inside CODE), each held as the byte offset of its entry in the table, the CODE offset times
  // 16. The dispatch reaches the next entry with one add: a chain of jumps waits at each one for
  // the entry the last one loaded, and a shift on that path was a quarter of a jump's time.
  uint32_t next_entry = 0;
  uint32_t target_entry = 0;
  uint16_t a = 0, b = 0;

  uint32_t next() const { return next_entry >> kDecodedOpShift; }
  uint32_t target() const { return target_entry >> kDecodedOpShift; }
  void set_next(uint32_t offset) { next_entry = offset << kDecodedOpShift; }
  void set_target(uint32_t offset) { target_entry = offset << kDecodedOpShift; }
};
static_assert(sizeof(DecodedOp) == size_t{1} << kDecodedOpShift);
static_assert(std::has_unique_object_representations_v<DecodedOp>);

inline constexpr uint32_t kMaxDecodedSpan = 32;

class PredecodedCode {
 public:
  // The largest CODE a table serves: its entries' offsets, times 16, must fit 32 bits, and the
  // table takes 16 bytes per CODE byte (64 MiB here). Larger CODE runs the fetch loop.
  static constexpr uint32_t kMaxCodeSize = uint32_t{1} << 22;
  static bool serves(uint32_t size) { return size <= kMaxCodeSize; }

  PredecodedCode() = default;
  PredecodedCode(const PredecodedCode&) = delete;
  PredecodedCode& operator=(const PredecodedCode&) = delete;
  // Leaves its storage to the next table this thread prepares (see Storage).
  ~PredecodedCode();

  // Makes the table serve `code` (size bytes, serves(size)): kept when it already does, emptied
  // otherwise. Throws std::length_error for a size it does not serve.
  void prepare(const uint8_t* code, uint32_t size);
  // Forgets everything (the bytes behind the same pointer were replaced wholesale).
  void clear();

  // The entry for `pos`; every pos >= size shares the kOffEnd entry.
  DecodedOp& at(uint32_t pos) { return storage_.ops[pos < size_ ? pos : size_]; }
  // The entry an entry's next_entry or target_entry names, which decode() checked to be at most
  // size: without the clamp and the shift, which were on every dispatch's critical path.
  DecodedOp& at_entry(uint32_t entry) {
    return *reinterpret_cast<DecodedOp*>(reinterpret_cast<char*>(storage_.ops.get()) + entry);
  }
  // Decodes the instruction at `off` (< size) into its entry and returns it.
  DecodedOp& decode(uint32_t off);
  // CODE bytes [offset, offset + size) changed: drops the entries decoded from any of them.
  void invalidate(uint32_t offset, uint32_t size);

  // How many storages this thread has allocated: a table that took a kept one allocated none.
  static uint64_t storages_allocated();

 private:
  const uint8_t* code_ = nullptr;
  uint32_t size_ = 0;
  // One entry per CODE byte and the kOffEnd entry after them, or null before prepare(). Not a
  // vector: the entries are raw storage whose all-zero bytes are DecodedOp{} (an
  // implicit-lifetime aggregate), where constructing them one by one was 6% of rendering a
  // generated corpus.
  //
  // Every entry of the storage is all zero except those listed in `written`: a run decodes only
  // the instructions it reaches, so serving the next CODE resets those few entries instead of
  // clearing 16 bytes per CODE byte, which was 3% of rendering a generated corpus (one table per
  // fresh shape). For the same reason the storage outlives its table: a destroyed table leaves
  // it to the next one the thread prepares for a CODE of the same size class.
  struct FreeEntries {
    void operator()(DecodedOp* ops) const { ::operator delete(ops); }
  };
  struct Storage {
    std::unique_ptr<DecodedOp[], FreeEntries> ops;
    size_t capacity = 0;            // entries
    std::vector<uint32_t> written;  // the entries that may hold anything but zero bytes
    void reset_written();           // makes every entry zero again
  };
  Storage storage_;

  // Storage comes in size classes: 2^k entries for the smallest k that holds a CODE's entries,
  // so a table's storage is at most twice what the CODE it was made for needs (a small shape's
  // table that lives long, a viewer's or a regress case's, must not keep a large one's). A
  // thread keeps one destroyed table's storage per class for the next table of that class. With
  // one storage kept for every size, a corpus of mixed sizes allocated and cleared a new storage
  // for two shapes in three (every shape under half the largest seen), 6% of its instructions.
  // Classes above kMaxKeptClass (a CODE of 256 KiB and more) are allocated to size and not
  // kept: what a thread keeps stays under 8 MiB.
  static constexpr unsigned kMaxKeptClass = 18;
  static unsigned size_class(size_t entries);
  // The storage a destroyed table left for this thread's next table of class k (empty when
  // there is none; null once the thread is exiting).
  static Storage* spare(unsigned k);
  // Leaves `storage` to the next table of its class when that class keeps none yet.
  static void keep(Storage&& storage);
};

}  // namespace shapevm::fa
