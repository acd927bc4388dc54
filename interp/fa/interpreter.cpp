#include "interp/fa/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "core/byte_reader.h"
#include "interp/common/budget_option.h"
#include "interp/fa/assumptions.h"
#include "interp/fa/branch_kinds.h"
#include "interp/fa/engine_globals.h"
#include "interp/fa/engine_name.h"
#include "interp/fa/instruction.h"
#include "interp/fa/merged_harvest.h"
#include "interp/fa/opcodes.h"
#include "interp/fa/precision_shift.h"
#include "interp/fa/predecoded_code.h"

namespace shapevm::fa {

namespace {

// The handler list: one entry per distinct behaviour. Both dispatch builds are generated from it.
#define SHAPEVM_FA_HANDLERS(X) \
  X(EndObject)                 \
  X(OrderPlane)                \
  X(Unmask)                    \
  X(UnmaskLong)                \
  X(ShortEof)                  \
  X(ShortJump)                 \
  X(JumpToFrame)               \
  X(Jump)                      \
  X(LongJump)                  \
  X(OrderField)                \
  X(VertexBuffer)              \
  X(JumpToDetail)              \
  X(JumpToDamage)              \
  X(XformUnmask)               \
  X(JumpToLod)                 \
  X(TextureIndex)              \
  X(TextureFile)               \
  X(X86Code)                   \
  X(VertexInfo)                \
  X(Face)                      \
  X(Skip)                      \
  X(EngineOnly)                \
  X(Unassigned)

enum class Handler : uint8_t {
#define SHAPEVM_ENUM(name) k##name,
  SHAPEVM_FA_HANDLERS(SHAPEVM_ENUM)
#undef SHAPEVM_ENUM
};

// Which handler an (even) opcode's vector_table entry points at.
constexpr Handler handler_for(uint8_t op) {
  switch (op) {
    case 0x00:
      return Handler::kEndObject;
    case 0x06:
    case 0x0C:
    case 0x0E:
    case 0x10:
      return Handler::kOrderPlane;
    case 0x12:
      return Handler::kUnmask;
    case 0x6E:
      return Handler::kUnmaskLong;
    case 0x1E:
      return Handler::kShortEof;
    case 0x38:
      return Handler::kShortJump;
    case 0x40:
      return Handler::kJumpToFrame;
    case 0x48:
      return Handler::kJump;
    case 0x50:
      return Handler::kLongJump;
    case 0x6C:
      return Handler::kOrderField;
    case 0x82:
      return Handler::kVertexBuffer;
    case 0xA6:
      return Handler::kJumpToDetail;
    case 0xAC:
      return Handler::kJumpToDamage;
    case 0xC4:
    case 0xC6:
      return Handler::kXformUnmask;
    case 0xC8:
      return Handler::kJumpToLod;
    case 0xE0:
      return Handler::kTextureIndex;
    case 0xE2:
      return Handler::kTextureFile;
    case 0xF0:
      return Handler::kX86Code;
    case 0xF6:
      return Handler::kVertexInfo;
    case 0xFC:
      return Handler::kFace;
    default:
      break;
  }
  const OpcodeInfo* info = find_opcode(op);
  if (info == nullptr) return Handler::kUnassigned;
  if (info->rule == SizeRule::kUnknown) return Handler::kEngineOnly;
  return Handler::kSkip;
}

}  // namespace

// A pool slot (debug_hook.h) is "written" in the current run when its epoch matches the run's.
using Slot = PoolSlot;
using Frame = CallFrame;  // rel: the object position the caller used (XformUnmask changes it)

namespace {

// The run's call stack, up to the call-depth budget's `limit` frames: a push writes the frame's
// fields in place. (std::vector's push_back, where the compiler did not inline it, built the frame
// on the stack and copied it in pieces the pop's loads could not take from the store buffer: a
// stall per return.) The default budget's 64 frames live in the stack itself, neither allocated
// nor cleared per run (a jet frame's whole run takes about a microsecond); a larger budget's
// frames move to the heap as calls go deeper, so a huge --max-depth costs nothing up front.
class FrameStack {
 public:
  explicit FrameStack(uint32_t limit) : limit_(limit) {}
  FrameStack(const FrameStack&) = delete;
  FrameStack& operator=(const FrameStack&) = delete;
  ~FrameStack() { ::operator delete(heap_); }

  // The caller checks full() first: the call-depth budget.
  void push(uint32_t resume, const std::array<int64_t, 3>& rel, uint32_t call, uint32_t entry) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    Frame& f = frames_[size_++];
    f.resume = resume;
    f.rel = rel;
    f.call = call;
    f.entry = entry;
  }
  bool full() const { return size_ >= limit_; }
  Frame& back() { return frames_[size_ - 1]; }
  void pop_back() { --size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  std::span<const Frame> frames() const { return {frames_, size_}; }

 private:
  static constexpr uint32_t kInlineFrames = 64;
  // Frame is an implicit-lifetime aggregate: raw storage holds frames once push() writes them.
  static_assert(std::is_aggregate_v<Frame> && std::is_trivially_copyable_v<Frame>);
  void grow() {
    const uint32_t capacity = capacity_ > limit_ / 2 ? limit_ : capacity_ * 2;
    auto* heap = static_cast<Frame*>(::operator new (size_t{capacity} * sizeof(Frame)));
    std::memcpy(static_cast<void*>(heap), frames_, size_t{size_} * sizeof(Frame));
    ::operator delete(heap_);
    heap_ = heap;
    frames_ = heap;
    capacity_ = capacity;
  }

  uint32_t limit_;
  uint32_t capacity_ = kInlineFrames;
  uint32_t size_ = 0;
  alignas(Frame) unsigned char inline_[kInlineFrames * sizeof(Frame)];
  Frame* frames_ = reinterpret_cast<Frame*>(inline_);
  Frame* heap_ = nullptr;
};

}  // namespace

struct Interpreter::Machine {
  Machine(Interpreter& in, const RunState& st, EventSink& s, X86Runner* x86_runner, Dispatch d,
          RunObserver* obs)
      : interp(in),
        code(x86_runner ? x86_runner->code() : in.shape_.code().data()),
        x86(x86_runner),
        code_size(static_cast<uint32_t>(in.shape_.code().size())),
        state(st),
        sink(s),
        hook(in.hook_),
        sink_ops(s.wants_ops()),
        want_ops(sink_ops || hook != nullptr),
        want_control(s.wants_control()),
        observer(obs),
        slow_fetch(want_ops || observer != nullptr),
        dispatch_kind(d),
        pool(in.pool_),
        epoch(++in.epoch_),
        stack(st.call_depth_limit) {
    face_event.engine = kEngine;
    view = in.shape_view(st);
    rel = {view.xv, view.yv, view.zv};
    // Queue time (GRAddBrentObj): the shift is chosen once per object from the radius and the
    // viewer-relative position; the camera is already in shape units (FA-51).
    shift = precision_shift(in.shape_.header.radius, rel);
    if (st.lod) projected_override = in.synthetic_projected_size(*st.lod);
  }

  Interpreter& interp;
  const uint8_t* code;  // shared with the x86 sandbox when it runs
  X86Runner* x86;
  uint32_t code_size;
  const RunState& state;
  EventSink& sink;
  DebugHook* hook;  // a debugger, or nullptr
  bool sink_ops;
  bool want_ops;          // op events and/or the debugger
  bool want_control;      // branch/call/return events are skipped for sinks that do not want them
  RunObserver* observer;  // a driver watching the run (--merged: merged_harvest.h), or nullptr
  bool slow_fetch;        // want_ops || observer: fetch leaves its fast path (see fetch)
  Dispatch dispatch_kind;
  DiagnosticLevel fail_level = DiagnosticLevel::kError;  // of the diagnostic fail() reports
  std::vector<Slot>& pool;
  uint32_t epoch;
  FrameStack stack;
  std::string texture;
  ViewSetup view;
  std::array<int64_t, 3> rel{};
  int shift = 0;  // GRAddBrentObj's precision shift (precision_shift.h)
  std::optional<int64_t> projected_override;
  uint32_t pos = kHeaderSize;  // GRAddBrentObj hands the interpreter header + 0x0E
  uint64_t steps = 0;
  uint64_t faces = 0;
  uint32_t frame_modulus = 0, frame_index = 0;  // exec_frame's last table length and its index
  FaceEvent face_event;                         // draw_face's, engine set once
  RunResult result;

  // ---- helpers -------------------------------------------------------------------------------

  uint16_t u16(uint32_t at) const { return load_u16(code + at); }
  int16_t i16(uint32_t at) const { return load_i16(code + at); }
  int32_t i32(uint32_t at) const { return load_i32(code + at); }

  bool stop(uint32_t off, std::string reason, StopReason why, bool clean) {
    result.reason = std::move(reason);
    result.stop = why;
    result.clean = clean;
    result.end_offset = off;
    return false;
  }

  bool fail(uint32_t off, std::string message, StopReason why = StopReason::kFault) {
    sink.on_diagnostic({kEngine, off, fail_level, message});
    return stop(off, std::move(message), why, false);
  }

  // Whether the sinks' work budgets (faces, pixels, trace bytes) still hold after an event; when
  // one is exhausted the run stops at `off` with its reason.
  bool within_work_budget(uint32_t off) {
    const std::string_view reason = sink.stop_requested();
    if (reason.empty()) [[likely]]
      return true;
    return stop_for_work_budget(off, reason);
  }
  // Kept out of line so that the question above, asked after every face, stays two instructions.
  [[gnu::noinline, gnu::cold]] bool stop_for_work_budget(uint32_t off, std::string_view reason) {
    sink.on_diagnostic({kEngine, off, DiagnosticLevel::kError,
                        fmt::format("{} ({} raises it)", reason, budget_option(reason))});
    return stop(off, std::string(reason), StopReason::kWorkBudget, false);
  }

  void warn(uint32_t off, std::string message) {
    sink.on_diagnostic({kEngine, off, DiagnosticLevel::kWarning, std::move(message)});
  }

  bool need(uint32_t off, uint32_t size, std::string_view what) {
    if (uint64_t{off} + size <= code_size) return true;
    return fail(off, fmt::format("{} at 0x{:x} needs {} bytes but CODE ends at 0x{:x}", what, off,
                                 size, code_size));
  }

  bool go(uint32_t off, int64_t target) {
    if (target < 0 || target >= code_size)
      return fail(off, fmt::format("control transfer to 0x{:x}, outside CODE [0, 0x{:x})", target,
                                   code_size));
    pos = static_cast<uint32_t>(target);
    return true;
  }

  // `global`: the engine global the test read, named in the event with its address.
  bool branch(uint32_t off, std::string_view kind, bool taken, int64_t target, uint32_t fallthrough,
              int64_t value, int64_t limit, const EngineAddress* global = nullptr) {
    const int64_t next = taken ? target : fallthrough;
    if (want_control)
      sink.on_branch({kEngine, off, kind, taken, static_cast<uint32_t>(std::max<int64_t>(next, 0)),
                      value, limit, global ? global->name : std::string_view(),
                      global ? global->address : 0});
    return go(off, next);
  }

  // Calls `target`; its ShortEOF resumes at `resume`.
  bool call(uint32_t off, int64_t target, uint32_t resume) {
    if (stack.full())
      return fail(off, fmt::format("call depth limit {} reached (budget)", state.call_depth_limit),
                  StopReason::kCallDepthBudget);
    stack.push(resume, rel, off, 0);
    if (!go(off, target)) return false;
    stack.back().entry = pos;
    if (want_control)
      sink.on_call({kEngine, off, pos, resume, static_cast<uint32_t>(stack.size())});
    return true;
  }

  void emit_op(uint32_t off, uint8_t op) {
    const OpcodeInfo* info = find_opcode(op);
    OpEvent e;
    e.engine = kEngine;
    e.offset = off;
    e.op = op;
    e.depth = static_cast<uint32_t>(stack.size());
    if (info) {
      e.name = info->mnemonic;
      e.handler = info->handler;
      e.handler_address = info->handler_address;
      e.untraced = info->knowledge == Knowledge::kUntraced;
    } else {
      e.name = "?";
    }
    sink.on_op(e);
  }

  // A model vertex to view space for the run's current view, position and precision shift:
  // view_k = sum_i (v_i + rel_i) * M[i][k]; Q15 matrix, 8 fractional bits kept. The vertex and
  // the offset are each reduced by the precision shift first and the result scaled back, so a
  // far object loses its low bits as in the engine (assumptions.h, kPrecisionBits).
  //
  // Made once per VertexBuffer with the matrix, the reduced offset and the scale in locals: read
  // through the machine, they were loaded again for every vertex (a pool slot's stores might
  // have changed them, as far as the compiler could tell), and the vertex loop was a fifth of a
  // geometry-heavy run.
  struct VertexTransform {
    std::array<int64_t, 9> m;
    std::array<int64_t, 3> offset;  // rel >> shift
    int shift;
    int down;  // the right shift that keeps 8 fractional bits (negative: a left shift)

    // kShiftsDown: down >= 0, decided once per buffer (write_vertices) rather than per axis.
    template <bool kShiftsDown>
    ViewPoint apply(const std::array<int16_t, 3>& v) const {
      const int64_t p0 = (v[0] >> shift) + offset[0];
      const int64_t p1 = (v[1] >> shift) + offset[1];
      const int64_t p2 = (v[2] >> shift) + offset[2];
      // Written out per axis: as a loop GCC kept the three sums in memory and read them back.
      return {scaled<kShiftsDown>(p0 * m[0] + p1 * m[3] + p2 * m[6]),
              scaled<kShiftsDown>(p0 * m[1] + p1 * m[4] + p2 * m[7]),
              scaled<kShiftsDown>(p0 * m[2] + p1 * m[5] + p2 * m[8])};
    }

    template <bool kShiftsDown>
    int32_t scaled(int64_t sum) const {
      const int64_t x = kShiftsDown ? sum >> down : sum * (int64_t{1} << -down);
      // As two comparisons: through std::clamp, both bounds were loaded again for every axis.
      constexpr int64_t kLow = INT32_MIN / 2, kHigh = INT32_MAX / 2;
      return static_cast<int32_t>(x < kLow ? kLow : (x > kHigh ? kHigh : x));
    }
  };

  VertexTransform vertex_transform() const {
    VertexTransform t;
    for (size_t i = 0; i < 9; ++i) t.m[i] = view.m[i];
    for (size_t k = 0; k < 3; ++k) t.offset[k] = rel[k] >> shift;
    t.shift = shift;
    t.down = assumed::kMatrixFractionBits - 8 - shift;
    return t;
  }

  // ---- handlers (each returns false to stop) -------------------------------------------------

  bool h_EndObject(uint32_t off) { return stop(off, "EndObject", StopReason::kEndObject, true); }

  bool h_ShortEof(uint32_t off) {
    // At top level the run ends; pos is already past the ShortEOF, where a --merged harvest walk
    // goes on (merged_harvest.cpp).
    if (stack.empty())
      return stop(off, "ShortEOF at top level", StopReason::kTopLevelShortEof, true);
    return pop_frame(off);
  }

  bool pop_frame(uint32_t off) {
    resume_caller();
    if (want_control) sink.on_return({kEngine, off, pos, static_cast<uint32_t>(stack.size())});
    return true;
  }

  // The return itself, without its event: the caller's position back, and on at its resume
  // offset. Read in place before the pop (a copy of the whole frame through the stack made the
  // compiler store and reload it in overlapping halves, a store-forwarding stall per return).
  void resume_caller() {
    const Frame& f = stack.back();
    rel = f.rel;
    pos = f.resume;
    stack.pop_back();
  }

  bool h_Jump(uint32_t off) {
    if (!need(off, 4, "Jump")) return false;
    return branch(off, branch_kind::kJump, true, int64_t{off} + 4 + i16(off + 2), off + 4, 0, 0);
  }

  bool h_ShortJump(uint32_t off) {
    // do_short_ijmp: DEC ESI, then the 0x48 body reads the rel16 from the second byte.
    pos -= 1;
    if (!need(off, 3, "ShortJump")) return false;
    return branch(off, branch_kind::kJump, true, int64_t{off} + 3 + i16(off + 1), off + 3, 0, 0);
  }

  bool h_LongJump(uint32_t off) {
    if (!need(off, 6, "LongJump")) return false;
    return branch(off, branch_kind::kJump, true, int64_t{off} + 6 + i32(off + 2), off + 6, 0, 0);
  }

  bool h_Unmask(uint32_t off) {
    if (!need(off, 4, "Unmask")) return false;
    return call(off, int64_t{off} + 4 + i16(off + 2), off + 4);
  }

  bool h_UnmaskLong(uint32_t off) {
    if (!need(off, 6, "UnmaskLong")) return false;
    return call(off, int64_t{off} + 6 + i32(off + 2), off + 6);
  }

  bool h_XformUnmask(uint32_t off) {
    const bool is_long = code[off] == 0xC6;
    const uint32_t size = is_long ? 18 : 16;
    if (!need(off, size, "XformUnmask")) return false;
    const int64_t target = int64_t{off} + size + (is_long ? i32(off + 14) : i16(off + 14));
    return exec_xform(off, target, off + size);
  }

  bool exec_xform(uint32_t off, int64_t target, uint32_t resume) {
    if (!call(off, target, resume)) return false;
    // The called chain renders at the object position moved by t (assumptions.h).
    for (int k = 0; k < 3; ++k) rel[k] += i16(off + 2 + 2 * k);
    return true;
  }

  bool h_JumpToFrame(uint32_t off) {
    if (!need(off, 4, "JumpToFrame")) return false;
    const uint32_t n = u16(off + 2);
    if (!need(off, 4 + 2 * n, "JumpToFrame table")) return false;
    if (n == 0) return fail(off, "JumpToFrame with 0 frames (the engine would divide by zero)");
    return exec_frame(off, n, off + 4 + 2 * n);
  }

  // The frame table is read here, as the run reaches it (pre-decoding keeps only its length).
  bool exec_frame(uint32_t off, uint32_t n, uint32_t after_table) {
    // The counter is fixed for the run: the remainder is kept for the last table length seen,
    // since a division costs more than the rest of the handler.
    if (n != frame_modulus) {
      frame_modulus = n;
      frame_index = state.frame_counter() % n;
    }
    static const EngineAddress& counter = engine_global("_frameCounter");
    return branch(off, branch_kind::kFrame, true, frame_target(off), after_table, frame_index, n,
                  &counter);
  }

  // Where the JumpToFrame at `off` goes for the run's frame: its table's slot frame_index, a
  // rel16 relative to the slot (frame_index is that of the table length seen last).
  int64_t frame_target(uint32_t off) const {
    const uint32_t slot = off + 4 + 2 * frame_index;
    return int64_t{slot} + i16(slot);
  }

  bool h_JumpToDamage(uint32_t off) {
    if (!need(off, 4, "JumpToDamage")) return false;
    return exec_damage(off, int64_t{off} + 4 + i16(off + 2), off + 4);
  }

  bool exec_damage(uint32_t off, int64_t target, uint32_t next) {
    const bool destroyed = state.destroyed_flag();
    static const EngineAddress& flag = engine_global("_destroyed");
    return branch(off, branch_kind::kDamage, destroyed, target, next, destroyed, 0, &flag);
  }

  bool h_JumpToDetail(uint32_t off) {
    if (!need(off, 6, "JumpToDetail")) return false;
    return exec_detail(off, u16(off + 4), int64_t{off} + 6 + i16(off + 2), off + 6);
  }

  bool exec_detail(uint32_t off, uint16_t threshold, int64_t target, uint32_t next) {
    const bool low = state.detail < threshold;
    static const EngineAddress& detail = engine_global("_detail");
    return branch(off, branch_kind::kDetail, low, target, next, state.detail, threshold, &detail);
  }

  int64_t projected_size(uint16_t size) const {
    if (projected_override) return *projected_override;
    // depth = -(xv*m3 + yv*m6 + zv*m9), clamped >= 20 (seed); Q15 matrix (assumptions.h).
    int64_t depth = -(rel[0] * view.m[2] + rel[1] * view.m[5] + rel[2] * view.m[8]);
    depth >>= assumed::kMatrixFractionBits;
    depth = std::max<int64_t>(depth, 20);
    return int64_t{size} * state.aspecty * state.scrh / depth / 2;
  }

  bool h_JumpToLod(uint32_t off) {
    if (!need(off, 8, "JumpToLOD")) return false;
    return exec_lod(off, u16(off + 2), u16(off + 4), int64_t{off} + 8 + i16(off + 6), off + 8);
  }

  bool exec_lod(uint32_t off, uint16_t size, uint16_t thr, int64_t target, uint32_t next) {
    if (state.effects & 0x20000) {
      // _effects & 0x20000 forces the finest detail: the operand is skipped, the block renders.
      static const EngineAddress& effects = engine_global("_effects");
      return branch(off, branch_kind::kLod, false, target, next, -1, thr, &effects);
    }
    const int64_t projected = projected_size(size);
    const int64_t threshold = (int64_t{thr} * state.size_adjust) >> 8;
    return branch(off, branch_kind::kLod, projected < threshold, target, next, projected,
                  threshold);
  }

  bool h_OrderField(uint32_t off) {
    DecodeError error;
    Instruction insn;
    if (!decode_instruction({code, code_size}, off, insn, error))
      return fail(error.offset, error.expected);
    return exec_order_field(off, u16(off + 2), u16(off + 4), int64_t{off} + 10 + i16(off + 8),
                            int64_t{off} + 8 + i16(off + 6));
  }

  // a: the call arm; b: the continue arm.
  bool exec_order_field(uint32_t off, uint16_t field, uint16_t cmp, int64_t a, int64_t b) {
    if (field + 1u >= state.object_record.size())
      return fail(
          off, fmt::format("OrderField reads object-record word 0x{:x}, beyond the record", field));
    const uint16_t value =
        static_cast<uint16_t>(state.object_record[field] | (state.object_record[field + 1] << 8));
    const bool natural = (value == cmp) == assumed::kOrderFieldNaturalWhenEqual;
    return selector(off, natural, a, b, value, cmp);
  }

  bool selector(uint32_t off, bool natural, int64_t a, int64_t b, int64_t value, int64_t limit) {
    const int64_t first = natural ? a : b;
    const int64_t second = natural ? b : a;
    if (second < 0 || second >= code_size)
      return fail(off, fmt::format("selector continues at 0x{:x}, outside CODE", second));
    if (want_control)
      sink.on_branch({kEngine, off, branch_kind::kSelector, !natural,
                      static_cast<uint32_t>(std::max<int64_t>(first, 0)), value, limit});
    return call(off, first, static_cast<uint32_t>(second));
  }

  bool h_OrderPlane(uint32_t off) {
    const uint8_t op = code[off];
    const uint32_t rel_at = op == 0x06 ? 16 : 12;
    if (!need(off, rel_at, "plane selector")) return false;
    const uint32_t size = rel_at + u16(off + rel_at - 2);
    if (!need(off, size, "plane selector")) return false;
    if (size < rel_at + 2)
      return fail(off, "plane selector whose size field leaves no call displacement");
    return exec_order_plane(off, op, int64_t{off} + rel_at + 2 + i16(off + rel_at),
                            int64_t{off} + size);
  }

  // The plane's operand words follow the opcode (0x06: normal then point; the others: two
  // coefficients then two point coordinates). a: the call arm; b: the instruction's end.
  bool exec_order_plane(uint32_t off, uint8_t op, int64_t a, int64_t b) {
    int64_t test = 0;
    if (op == 0x06) {
      for (int k = 0; k < 3; ++k)
        test += int64_t{i16(off + 2 + 2 * k)} * (i16(off + 8 + 2 * k) + rel[k]);
    } else {
      const int axis_a = op == 0x0C ? 1 : 0;
      const int axis_b = op == 0x10 ? 1 : 2;
      test = int64_t{i16(off + 2)} * (i16(off + 6) + rel[axis_a]) +
             int64_t{i16(off + 4)} * (i16(off + 8) + rel[axis_b]);
    }
    return selector(off, test >= 0, a, b, test, 0);
  }

  bool h_VertexBuffer(uint32_t off) {
    const auto vb = vertex_buffer_operands(off);
    if (!vb) return false;
    write_vertices(off, *vb);
    return true;
  }

  // VertexBuffer's checks (MachineAccess exposes both halves to the --merged harvest).
  std::optional<VertexBufferOperands> vertex_buffer_operands(uint32_t off) {
    if (!need(off, 6, "VertexBuffer")) return std::nullopt;
    const uint32_t count = u16(off + 2);
    const uint32_t push_at = u16(off + 4);
    if (!need(off, 6 + 6 * count, "VertexBuffer")) return std::nullopt;
    const uint32_t first = push_at / 8;
    if (push_at % 8)
      warn(off, fmt::format("VertexBuffer push_at {} is not a multiple of 8", push_at));
    if (first + count > assumed::kPoolSlots) {
      fail(off, fmt::format("VertexBuffer writes slots {}..{}, beyond the {}-slot pool", first,
                            first + count - 1, assumed::kPoolSlots));
      return std::nullopt;
    }
    return VertexBufferOperands{first, count, off + 6 + 6 * count};
  }

  void write_vertices(uint32_t off, const VertexBufferOperands& vb) {
    // The pool grows to the highest slot written (within assumed::kPoolSlots, checked by
    // vertex_buffer_operands); slots never written read as unwritten, like those past its end.
    if (vb.first + vb.count > pool.size()) pool.resize(vb.first + vb.count);
    const VertexTransform transform = vertex_transform();
    const uint32_t run_epoch = epoch;
    Slot* slots = pool.data() + vb.first;
    const auto write = [&](auto shifts_down) {
      for (uint32_t i = 0; i < vb.count; ++i) {
        Slot& s = slots[i];
        const uint32_t at = off + 6 + 6 * i;
        s.model = {i16(at), i16(at + 2), i16(at + 4)};
        s.view = transform.apply<decltype(shifts_down)::value>(s.model);
        s.epoch = run_epoch;
      }
    };
    if (transform.down >= 0) {
      write(std::true_type{});
    } else {
      write(std::false_type{});
    }
    pos = vb.next;
    sink.on_vertices({kEngine, off, vb.first, vb.count});
  }

  bool h_VertexInfo(uint32_t off) {
    pos -= 1;  // byte-magic: operands start at byte 1
    if (!need(off, 7, "VertexInfo")) return false;
    pos = off + 7;
    return true;
  }

  bool h_TextureFile(uint32_t off) {
    if (!need(off, 16, "TextureFile")) return false;
    texture = texture_file_name({code, code_size}, off);
    pos = off + 16;
    return true;
  }

  bool h_TextureIndex(uint32_t off) {
    if (!need(off, 4, "TextureIndex")) return false;
    pos = off + 4;
    return true;
  }

  bool h_Face(uint32_t off) {
    // do_new_poly: byte-magic, operands start at byte 1. Parsed in place (no allocation: this is
    // the hot path of geometry-heavy shapes).
    DecodeError error;
    const uint32_t size = face_size({code, code_size}, off, error);
    if (size == 0) return fail(error.offset, error.expected);
    pos = off + size;
    const uint8_t content = code[off + 1];
    const uint8_t layout = code[off + 2];
    return draw_face(off, face_count_at(content, layout), content, layout);
  }

  // The Face at `off` whose size was checked (pos is already past it), its corner count at
  // off + count_at: its corners are read here, as the run reaches it. In line in each dispatch
  // loop: as a call, saving and restoring registers took 12 of a face's 170 instructions.
  [[gnu::always_inline]] bool draw_face(uint32_t off, uint32_t count_at, uint8_t content,
                                        uint8_t layout) {
    const uint32_t n = code[off + count_at];
    const uint32_t at = off + count_at + 1;
    const bool short_indices = (layout & kLayoutShortIndices) != 0;
    std::vector<FaceCorner>& buffer = interp.corners_;
    if (n > buffer.size()) buffer.resize(n);
    FaceCorner* out = buffer.data();
    if (!(short_indices ? gather_corners<true>(off, at, n, out)
                        : gather_corners<false>(off, at, n, out)))
      return true;
    // Untextured corners keep the zero texcoord gather_corners gave them.
    const bool textured = (content & kFaceHaveTexcoords) != 0;
    if (textured) {
      uint32_t tc = at + n * (short_indices ? 2 : 1);
      if (layout & kLayoutByteTexcoords) {
        for (uint32_t i = 0; i < n; ++i, tc += 2) out[i].texcoord = {code[tc], code[tc + 1]};
      } else {
        for (uint32_t i = 0; i < n; ++i, tc += 4) out[i].texcoord = {u16(tc), u16(tc + 2)};
      }
    }
    // One event reused by every face of the run: only these fields vary, and constructing the
    // whole event (about 150 bytes of defaults) per face was a third of a face's cost.
    FaceEvent& e = face_event;
    e.offset = off;
    e.sequence = static_cast<uint32_t>(faces++);
    e.color = code[off + 3];
    e.content_flags = content;
    e.layout_flags = layout;
    e.is_shadow = code[off + 4] != 0;
    e.textured = textured;
    e.perspective = (content & assumed::kContentFlagPerspective) != 0;
    e.texture = texture;
    e.corners = std::span<const FaceCorner>(out, n);
    sink.on_face(e);
    return within_work_budget(off);
  }

  // The pool slots of a Face's n corner indices (bytes, or u16 when kShortIndices) at `at`, into
  // out[0..n), texcoords zero: false, with a warning, at the first slot no VertexBuffer of this
  // run has written. One loop per index width: the width was a branch in every corner. A slot is
  // copied whole over the corner's first bytes (PoolSlot is laid out for it): copied field by
  // field, with the texcoords zeroed in a loop of their own, a face took a tenth longer.
  static_assert(offsetof(Slot, model) == offsetof(FaceCorner, model) &&
                    offsetof(Slot, view) == offsetof(FaceCorner, view) &&
                    sizeof(Slot) <= offsetof(FaceCorner, texcoord) &&
                    std::is_trivially_copyable_v<Slot> && std::is_trivially_copyable_v<FaceCorner>,
                "a pool slot is copied whole over the start of a face corner");
  // gather_corners' warning, out of line: formatted in the loop, its arguments took registers
  // every corner's copy needed. Returns false (the face is not drawn).
  [[gnu::cold, gnu::noinline]] bool unwritten_slot(uint32_t off, uint32_t idx) {
    warn(off,
         fmt::format("Face uses pool slot {}, which no VertexBuffer has written; face not drawn",
                     idx));
    return false;
  }
  template <bool kShortIndices>
  bool gather_corners(uint32_t off, uint32_t at, uint32_t n, FaceCorner* out) {
    const Slot* slots = pool.data();
    const size_t slot_count = pool.size();
    // In locals: the compiler took the copy's stores to write anything, and read both again for
    // every corner (6 instructions a face).
    const uint8_t* const bytes = code;
    const uint32_t run_epoch = epoch;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t idx = kShortIndices ? load_u16(bytes + at + 2 * i) : bytes[at + i];
      if (idx >= slot_count || slots[idx].epoch != run_epoch) [[unlikely]]
        return unwritten_slot(off, idx);
      std::memcpy(static_cast<void*>(&out[i]), &slots[idx], sizeof(Slot));
      out[i].index = idx;  // over the slot's epoch
      out[i].texcoord = {0, 0};
    }
    return true;
  }

  // Moves past the Face at `off` without drawing it, as h_Face does before it draws (false when
  // the encoding stops the run). For the --merged harvest's dropped faces (MachineAccess).
  bool skip_face(uint32_t off) {
    DecodeError error;
    const uint32_t size = face_size({code, code_size}, off, error);
    if (size == 0) return fail(error.offset, error.expected);
    pos = off + size;
    return true;
  }

  bool h_X86Code(uint32_t off) {
    if (x86 == nullptr) {
      // --no-x86: continue where the static walker ends the x86 region (assumptions.h).
      auto it = interp.x86_ends_.find(off);
      const uint32_t resume = it != interp.x86_ends_.end() ? it->second : off + 2;
      warn(off, fmt::format("x86 at 0x{:x} not executed (--no-x86): skipped statically to 0x{:x}",
                            off + 2, resume));
      return branch(off, branch_kind::kX86Skip, true, resume, off + 2, 0, 0);
    }
    NativeEvent enter;
    enter.engine = kEngine;
    enter.offset = off;
    enter.payload = off + 2;  // the x86 starts after the X86Code opcode word
    sink.on_native(enter);
    const X86BlockResult r = x86->run_block(off);
    NativeEvent exit;
    exit.engine = kEngine;
    exit.offset = off;
    exit.enter = false;
    exit.instructions = r.instructions;
    exit.counted = r.counted;
    exit.resumed = r.resumed;
    exit.resume = r.resume_offset;
    exit.reason = r.reason;
    sink.on_native(exit);
    if (!r.resumed)
      return fail(off, fmt::format("x86 block at 0x{:x} stopped: {}", off + 2, r.reason),
                  StopReason::kX86Stopped);
    return go(off, r.resume_offset);
  }

  bool h_Skip(uint32_t off) {
    Instruction insn;
    DecodeError error;
    if (!decode_instruction({code, code_size}, off, insn, error))
      return fail(error.offset, error.expected);
    pos = off + insn.size;
    return true;
  }

  bool h_EngineOnly(uint32_t off) {
    const OpcodeInfo* info = find_opcode(code[off]);
    return fail(
        off, fmt::format(
                 "opcode 0x{:02X} dispatches to the engine-only handler {}, which no shipped shape "
                 "uses and whose operand size is untraced",
                 code[off], info->handler));
  }

  bool h_Unassigned(uint32_t off) {
    return fail(
        off, fmt::format(
                 "opcode 0x{:02X} dispatches to vector_table entry 0x{:X}: an unassigned slot (the "
                 "common stub 0x{:X}, or a handler no source names)",
                 code[off], vector_table_entry_address(code[off]), kUnassignedStubAddress));
  }

  bool odd_opcode(uint32_t off) {
    const uint8_t op = code[off];
    return fail(
        off,
        fmt::format("odd opcode 0x{:02X}: the engine would jump through the misaligned dword at "
                    "vector_table+0x{:X} (0x{:X}), straddling two handler entries{}",
                    op, op * 2, vector_table_entry_address(op),
                    op == 0x01 || op == 0xFF
                        ? " (0x01/0xFF never reach the table in well-formed streams)"
                        : ""));
  }

  // ---- dispatch ------------------------------------------------------------------------------

  // Fetches the next opcode: the engine reads [opcode][first operand byte] and consumes both.
  // The fast path is the bare engine. Everything else a run may ask for (per-opcode events, the
  // debugger, a run observer such as the --merged harvest) waits behind the one `slow_fetch`
  // test, so a plain run pays a single well-predicted branch per opcode for all of them.
  bool fetch(uint32_t& off, uint8_t& op) {
    for (;;) {
      if (steps >= state.step_limit) {
        sink.on_diagnostic({kEngine, pos, DiagnosticLevel::kError,
                            fmt::format("step limit {} reached (budget)", state.step_limit)});
        return stop(pos, "budget: steps", StopReason::kStepBudget, false);
      }
      // The engine fetches two bytes; a one-byte opcode may be CODE's last byte (its handler
      // reads no operand), so only the opcode itself must lie inside CODE. Handlers check their
      // operands.
      if (pos >= code_size) return fail(pos, "execution ran off the end of CODE");
      if (!slow_fetch) [[likely]] {
        ++steps;
        off = pos;
        op = code[off];
        pos += 2;  // every fetch consumes [op][first operand byte]
        return true;
      }
      switch (fetch_slow(off, op)) {
        case RunObserver::Action::kDispatch:
          return true;
        case RunObserver::Action::kStop:
          return false;
        case RunObserver::Action::kDone:
          break;  // the observer executed this instruction itself: fetch the next one
      }
    }
  }

  RunObserver::Action fetch_slow(uint32_t& off, uint8_t& op) {
    if (observer) {
      MachineAccess access(*this);
      if (!observer->before_fetch(access)) return RunObserver::Action::kStop;
    }
    ++steps;
    off = pos;
    op = code[off];
    pos += 2;
    if (hook && hook->pause(debug_view(off))) {
      stop(off, "stopped by the debugger", StopReason::kDebugger, true);
      return RunObserver::Action::kStop;
    }
    if (sink_ops) {
      emit_op(off, op);
      if (!within_work_budget(off)) return RunObserver::Action::kStop;
    }
    if (observer) {
      MachineAccess access(*this);
      return observer->before_dispatch(access, off, op);
    }
    return RunObserver::Action::kDispatch;
  }

  DebugView debug_view(uint32_t off) const {
    DebugView v;
    v.offset = off;
    v.op = off < code_size ? code[off] : 0;
    v.steps = steps > 0 ? steps - 1 : 0;  // the current opcode is counted but not yet executed
    v.faces = faces;
    v.frames = stack.frames();
    v.position = rel;
    v.pool = pool;
    v.epoch = epoch;
    v.texture = texture;
    v.code = {code, code_size};
    v.state = &state;
    v.view = &view;
    return v;
  }

  bool dispatch(Handler h, uint32_t off) {
    switch (h) {
#define SHAPEVM_CASE(name) \
  case Handler::k##name:   \
    return h_##name(off);
      SHAPEVM_FA_HANDLERS(SHAPEVM_CASE)
#undef SHAPEVM_CASE
    }
    return false;
  }

  void run_switch() {
    uint32_t off = 0;
    uint8_t op = 0;
    while (fetch(off, op)) {
      if (op & 1) {
        odd_opcode(off);
        return;
      }
      if (!dispatch(handler_for(op), off)) return;
    }
  }

  void execute() {
    if (dispatch_kind == Dispatch::kSwitch) {
      run_switch();
    } else if (hook != nullptr || observer != nullptr || !PredecodedCode::serves(code_size)) {
      // The debugger and --merged see every fetch; CODE too large for a table is fetched too.
      run_threaded();
    } else if (sink_ops) {
      want_control ? run_predecoded<true, true>() : run_predecoded<true, false>();
    } else {
      want_control ? run_predecoded<false, true>() : run_predecoded<false, false>();
    }
  }

  // Runs the opcode at `off` through its ordinary handler, as a fetch would have left it.
  bool legacy(uint32_t off) {
    pos = off + 2;
    if (code[off] & 1) return odd_opcode(off);
    return dispatch(handler_for(code[off]), off);
  }

  bool budget_stop() {
    sink.on_diagnostic({kEngine, pos, DiagnosticLevel::kError,
                        fmt::format("step limit {} reached (budget)", state.step_limit)});
    return stop(pos, "budget: steps", StopReason::kStepBudget, false);
  }

  // Direct-threaded dispatch over the pre-decoded code (predecoded_code.h): per opcode, the step
  // budget, one table load and a jump to the executor, which takes its operands from the entry.
  // Same events, diagnostics and step counts as the fetch loop; `kOps` adds the op events.
  //
  // `kControl`: the sink wants branch, call and return events. Without them, a jump, a call, a
  // return and a frame table the run has seen the length of are done here in a few instructions,
  // where the handlers check again what decoding checked: a chain of such opcodes is bound by how
  // many instructions each one takes, not by one slow step. What the shortcuts cannot settle (the
  // call-depth budget, a return at top level, a new table length, a frame slot leaving CODE) goes
  // to the handler.
  //
  // Two values live in registers here rather than in the machine. The step count is kept in a
  // local and stored back when the loop ends (nothing this loop calls reads it: the debugger's
  // view, which does, runs the fetch loop). And an executor whose next offset its entry already
  // holds (a jump, a call, a face, a vertex buffer, an instruction stepped over) goes on from
  // that value: taking it back from `pos`, just stored, made each opcode wait for the store.
  template <bool kOps, bool kControl>
  void run_predecoded() {
#if defined(__GNUC__)
    static void* const labels[] = {
#define SHAPEVM_LABEL(name) &&P_##name,
        SHAPEVM_FA_FAST_OPS(SHAPEVM_LABEL)
#undef SHAPEVM_LABEL
    };
    PredecodedCode& table = interp.predecoded_;
    table.prepare(code, code_size);
    const uint64_t step_limit = state.step_limit;
    struct StepCount {
      uint64_t& machine;
      uint64_t value;
      ~StepCount() { machine = value; }
    } counted{steps, steps};
    uint32_t off = 0;
    DecodedOp* d = nullptr;
    // Dispatches the opcode whose entry `locate` finds (setting d and off).
#define SHAPEVM_DISPATCH(locate)                    \
  do {                                              \
    if (counted.value >= step_limit) [[unlikely]] { \
      budget_stop();                                \
      return;                                       \
    }                                               \
    locate;                                         \
    if constexpr (kOps) {                           \
      if (d->kind != FastOp::kOffEnd) {             \
        ++counted.value;                            \
        emit_op(off, code[off]);                    \
        if (!within_work_budget(off)) return;       \
      }                                             \
    } else {                                        \
      ++counted.value;                              \
    }                                               \
    goto* labels[static_cast<size_t>(d->kind)];     \
  } while (0)
    // The opcode at pos, its entry found by at(); and the one an entry's next_entry or
    // target_entry names (pos already holds its offset), found by one add.
#define SHAPEVM_NEXT() SHAPEVM_DISPATCH(off = pos; d = &table.at(off))
#define SHAPEVM_NEXT_ENTRY(entry)                                        \
  SHAPEVM_DISPATCH(const uint32_t e_ = (entry); d = &table.at_entry(e_); \
                   off = e_ >> kDecodedOpShift)
#define SHAPEVM_DONE(ok) \
  do {                   \
    if (!(ok)) return;   \
    SHAPEVM_NEXT();      \
  } while (0)
#define SHAPEVM_DONE_AT(ok, entry) \
  do {                             \
    if (!(ok)) return;             \
    SHAPEVM_NEXT_ENTRY(entry);     \
  } while (0)
    SHAPEVM_NEXT();
  P_Decode:
    d = &table.decode(off);
    goto* labels[static_cast<size_t>(d->kind)];
  P_OffEnd:
    if constexpr (!kOps) --counted.value;  // nothing was fetched
    fail(pos, "execution ran off the end of CODE");
    return;
  P_Legacy:
    SHAPEVM_DONE(legacy(off));
  P_EndObject:
    pos = off + 2;
    h_EndObject(off);
    return;
  P_ShortEof:
    if constexpr (!kControl) {
      // A return without its event; at top level the handler ends the run.
      if (!stack.empty()) [[likely]] {
        resume_caller();
        SHAPEVM_NEXT();
      }
    }
    pos = off + 2;
    SHAPEVM_DONE(h_ShortEof(off));
  P_Jump:
    if constexpr (!kControl) {
      // The target was checked at decode: a jump without its event is a move.
      pos = d->target();
      SHAPEVM_NEXT_ENTRY(d->target_entry);
    }
    SHAPEVM_DONE_AT(branch(off, branch_kind::kJump, true, d->target(), d->next(), 0, 0),
                    d->target_entry);
  P_Call:
    if constexpr (!kControl) {
      // A push and a move (the target was checked at decode); call() reports the depth budget.
      if (!stack.full()) [[likely]] {
        stack.push(d->next(), rel, off, d->target());
        pos = d->target();
        SHAPEVM_NEXT_ENTRY(d->target_entry);
      }
    }
    SHAPEVM_DONE_AT(call(off, d->target(), d->next()), d->target_entry);
  P_XformCall:
    SHAPEVM_DONE(exec_xform(off, d->target(), d->next()));
  P_Frame:
    if constexpr (!kControl) {
      // The table's length seen last, so its remainder is known: one slot read and a move.
      // exec_frame() takes a new length and reports a slot that leaves CODE.
      if (d->a == frame_modulus) [[likely]] {
        const int64_t target = frame_target(off);
        if (target >= 0 && target < code_size) [[likely]] {
          pos = static_cast<uint32_t>(target);
          SHAPEVM_NEXT_ENTRY(pos << kDecodedOpShift);
        }
      }
    }
    SHAPEVM_DONE(exec_frame(off, d->a, d->next()));
  P_Damage:
    SHAPEVM_DONE(exec_damage(off, d->target(), d->next()));
  P_Detail:
    SHAPEVM_DONE(exec_detail(off, d->a, d->target(), d->next()));
  P_Lod:
    SHAPEVM_DONE(exec_lod(off, d->a, d->b, d->target(), d->next()));
  P_OrderField:
    SHAPEVM_DONE(exec_order_field(off, d->a, d->b, d->target(), d->next()));
  P_OrderPlane:
    SHAPEVM_DONE(exec_order_plane(off, d->op, d->target(), d->next()));
  P_Next:
    pos = d->next();
    SHAPEVM_NEXT_ENTRY(d->next_entry);
  P_VertexBuffer:
    write_vertices(off, {d->b, d->a, d->next()});
    SHAPEVM_NEXT_ENTRY(d->next_entry);
  P_Face:
    pos = d->next();
    SHAPEVM_DONE_AT(
        draw_face(off, d->a, static_cast<uint8_t>(d->b), static_cast<uint8_t>(d->b >> 8)),
        d->next_entry);
#undef SHAPEVM_DONE_AT
#undef SHAPEVM_DONE
#undef SHAPEVM_NEXT
#undef SHAPEVM_NEXT_ENTRY
#undef SHAPEVM_DISPATCH
#else
    run_switch();
#endif
  }

  void run_threaded() {
#if defined(__GNUC__)
    static void* const labels[] = {
#define SHAPEVM_LABEL(name) &&L_##name,
        SHAPEVM_FA_HANDLERS(SHAPEVM_LABEL)
#undef SHAPEVM_LABEL
    };
    // vector_table: entry i serves opcode 2*i.
    void* vector_table[kVectorTableSlots];
    for (size_t i = 0; i < kVectorTableSlots; ++i)
      vector_table[i] = labels[static_cast<size_t>(handler_for(static_cast<uint8_t>(2 * i)))];
    uint32_t off = 0;
    uint8_t op = 0;
#define SHAPEVM_NEXT()           \
  do {                           \
    if (!fetch(off, op)) return; \
    if (op & 1) goto L_odd;      \
    goto* vector_table[op >> 1]; \
  } while (0)
    SHAPEVM_NEXT();
#define SHAPEVM_BODY(name)               \
  L_##name : if (!h_##name(off)) return; \
  SHAPEVM_NEXT();
    SHAPEVM_FA_HANDLERS(SHAPEVM_BODY)
#undef SHAPEVM_BODY
  L_odd:
    odd_opcode(off);
#undef SHAPEVM_NEXT
#else
    run_switch();
#endif
  }
};

Interpreter::Interpreter(const Shape& shape, const WalkOptions& walk_options)
    : shape_(shape), walk_options_(walk_options) {
  // The outline is enough for what a run needs before it starts; the whole walk is made only
  // for --merged (walk()). Walking whole and keeping it was a fifth of a fresh 400-face frame.
  take_walk_facts(walk_outline(shape, walk_options));
}

Interpreter::Interpreter(const Shape& shape, std::shared_ptr<const WalkResult> walk)
    : shape_(shape), walk_(std::move(walk)) {
  if (!walk_) throw std::invalid_argument("fa::Interpreter: a shared walk is required");
  take_walk_facts(outline_of(*walk_));
}

namespace {
// The opcodes whose items the interpreter takes facts from: VertexBuffer (0x82), the two
// XformUnmask forms (0xC4, 0xC6), the LOD threshold (0xC8) and X86Code (0xF0). Every other item,
// nearly all of them faces, passes one lookup in this table (items that are not instructions have
// opcode 0, which is not in it).
constexpr std::array<bool, 256> kFactOpcodes = [] {
  std::array<bool, 256> table{};
  for (const uint8_t op : {0x82, 0xC4, 0xC6, 0xC8, 0xF0}) table[op] = true;
  return table;
}();
}  // namespace

void Interpreter::take_walk_facts(const std::vector<OutlineItem>& items) {
  // Every vertex any LOD or variant loads: the bounds the default camera frames. Counted in the
  // first pass, so the list is allocated once (growing it vertex by vertex was most of this
  // constructor), and copied in a second over the vertex buffers alone.
  const Shape& shape = shape_;
  const uint8_t* const code = shape.code().data();
  size_t vertex_count = 0;
  bool moves_parts = false;
  std::set<uint16_t, std::greater<>> thresholds;
  for (size_t i = 0; i < items.size(); ++i) {
    const auto& item = items[i];
    if (!kFactOpcodes[item.op] || item.kind != ItemKind::kInstruction) continue;
    switch (item.op) {
      case 0x82:
        vertex_count += parse_vertex_buffer(shape.code(), item.offset).count;
        break;
      case 0xC4:
      case 0xC6:
        moves_parts = true;
        break;
      case 0xC8:
        if (const uint16_t thr = load_u16(code + item.offset + 4)) thresholds.insert(thr);
        break;
      case 0xF0: {
        const uint32_t payload = item.offset + 2;
        const bool has_region = i + 1 < items.size() && items[i + 1].kind == ItemKind::kX86;
        x86_ends_[item.offset] = has_region ? items[i + 1].offset + items[i + 1].size : payload;
        break;
      }
      default:
        break;
    }
  }
  model_vertices_.reserve(vertex_count + (moves_parts ? 8 : 0));
  model_vertices_.resize(vertex_count);
  std::array<int16_t, 3>* vertex = model_vertices_.data();
  for (size_t i = 0; i < items.size() && vertex_count > 0; ++i) {
    const auto& item = items[i];
    if (item.op != 0x82 || item.kind != ItemKind::kInstruction) continue;
    // The walk found the instruction whole, so its vertices lie inside CODE.
    const VertexBufferView vb = parse_vertex_buffer(shape.code(), item.offset);
    const uint8_t* at = code + item.offset + 6;
    for (uint32_t k = 0; k < vb.count; ++k, at += 6)
      *vertex++ = {load_i16(at), load_i16(at + 2), load_i16(at + 4)};
    vertex_count -= vb.count;
  }
  lod_thresholds_.assign(thresholds.begin(), thresholds.end());
  // Parts an XformUnmask moves sit outside their buffers' coordinates; for a shape that has one,
  // the header's extents (half sizes about the origin) stand for them.
  const auto& e = shape.header.extents;
  for (int k = 0; k < (moves_parts ? 8 : 0); ++k)
    model_vertices_.push_back({static_cast<int16_t>(k & 1 ? e[0] : -e[0]),
                               static_cast<int16_t>(k & 2 ? e[1] : -e[1]),
                               static_cast<int16_t>(k & 4 ? e[2] : -e[2])});
}

Interpreter::~Interpreter() = default;

const WalkResult& Interpreter::walk() {
  if (!walk_) walk_ = std::make_shared<const WalkResult>(walk_shape(shape_, walk_options_));
  return *walk_;
}

int32_t Interpreter::fit_distance(const CameraSpec& camera, int width, int height) const {
  // Every run without a camera distance asks again, with the same view almost always: the last
  // answer is kept (fitting walks every vertex of the shape).
  const std::array<int, 4> key = {camera.heading, camera.pitch, width, height};
  if (!last_fit_ || last_fit_->first != key)
    last_fit_.emplace(key, fit_camera_distance(model_vertices_, camera, width, height));
  return last_fit_->second;
}

ViewSetup Interpreter::shape_view(const RunState& state) const {
  CameraSpec camera = state.camera;
  if (camera.distance <= 0)
    camera.distance = fit_distance(camera, state.frame_width, state.frame_height);
  return make_view(camera);
}

int64_t Interpreter::synthetic_projected_size(uint32_t level) const {
  // Level 0 exceeds every threshold; level k sits just below the k-th largest (seed, FA-50).
  if (level == 0 || lod_thresholds_.empty()) return INT32_MAX;
  const size_t k = std::min<size_t>(level, lod_thresholds_.size());
  return int64_t{lod_thresholds_[k - 1]} - 1;
}

RunResult Interpreter::run(const RunState& state, EventSink& sink, Dispatch dispatch) {
  X86Runner* runner = nullptr;
  if (state.run_x86 && !x86_ends_.empty()) {
    // One sandbox per interpreter, reused by every run (Unicorn engines are costly to open).
    if (!x86_ || x86_trace_ != state.x86_trace) {
      x86_ = std::make_unique<X86Runner>(shape_, state.x86_trace);
      x86_trace_ = state.x86_trace;
      // A new CODE buffer (its address may be the last one's): decode it afresh, and drop what
      // was decoded from bytes the x86 rewrites.
      predecoded_.clear();
      x86_->set_code_write_observer(
          [this](uint32_t offset, uint32_t size) { predecoded_.invalidate(offset, size); });
    }
    runner = x86_.get();
    runner->begin_run(state, &sink);
  }
  // --merged: the harvest driver (merged_harvest.h) watches the base run and then walks the
  // relocation targets it did not reach; it sees the machine's events first. A plain run has no
  // observer and the machine emits straight to `sink`.
  std::optional<MergedHarvest> harvest;
  if (state.merged) harvest.emplace(shape_, walk(), x86_ends_, articulations_, sink);
  Machine m(*this, state, harvest ? harvest->machine_sink() : sink, runner, dispatch,
            harvest ? &*harvest : nullptr);
  if (runner) {
    if (hook_) {
      // The debugger sees every x86 instruction (traced runs only) with the registers before it.
      runner->set_instruction_observer(
          [&m](const NativeInstructionEvent& e, const x86::Registers& regs) {
            DebugView v = m.debug_view(m.pos - 2);
            v.x86_instruction = &e;
            v.x86_registers = &regs;
            m.hook->pause(v);
          });
    } else {
      runner->set_instruction_observer(nullptr);
    }
  }
  m.execute();
  if (harvest && m.result.clean && m.result.stop != StopReason::kDebugger) {
    MachineAccess access(m);
    harvest->walk_unreached_targets(access);
  }
  m.result.ops = m.steps;
  m.result.faces = m.faces;
  m.result.precision_shift = m.shift;
  if (hook_) {
    DebugView v = m.debug_view(m.result.end_offset);
    v.steps = m.steps;
    v.end = &m.result;
    hook_->pause(v);
    if (runner) runner->set_instruction_observer(nullptr);
  }
  sink.on_end({kEngine, m.result.end_offset, m.result.reason, m.result.clean, m.result.ops,
               m.result.faces});
  return m.result;
}

// ---- MachineAccess: what a driver may do with the running machine ------------------------------

void MachineAccess::run_loop() {
  m_.execute();
}
const RunResult& MachineAccess::result() const {
  return m_.result;
}
void MachineAccess::set_result(const RunResult& r) {
  m_.result = r;
}
uint32_t MachineAccess::pos() const {
  return m_.pos;
}
void MachineAccess::set_pos(uint32_t at) {
  m_.pos = at;
}
uint32_t MachineAccess::code_size() const {
  return m_.code_size;
}
const RunState& MachineAccess::state() const {
  return m_.state;
}

void MachineAccess::reset_frames() {
  m_.stack.clear();
  m_.rel = {m_.view.xv, m_.view.yv, m_.view.zv};
}

bool MachineAccess::at_top_level() const {
  return m_.stack.empty();
}
void MachineAccess::return_from_call(uint32_t off) {
  m_.pop_frame(off);
}
const std::string& MachineAccess::texture() const {
  return m_.texture;
}
void MachineAccess::set_texture(std::string name) {
  m_.texture = std::move(name);
}

bool MachineAccess::stop(uint32_t off, std::string reason, StopReason why, bool clean) {
  return m_.stop(off, std::move(reason), why, clean);
}

bool MachineAccess::fail(uint32_t off, std::string message) {
  return m_.fail(off, std::move(message));
}

void MachineAccess::set_failure_level(DiagnosticLevel level) {
  m_.fail_level = level;
}

std::optional<VertexBufferOperands> MachineAccess::vertex_buffer_operands(uint32_t off) {
  return m_.vertex_buffer_operands(off);
}

void MachineAccess::write_vertices(uint32_t off, const VertexBufferOperands& vb) {
  m_.write_vertices(off, vb);
}

bool MachineAccess::skip_face(uint32_t off) {
  return m_.skip_face(off);
}

}  // namespace shapevm::fa
