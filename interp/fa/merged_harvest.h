// The `--merged` reloc harvest (the seed's sub-stream harvest; docs/fa-articulation.md, "Merged
// harvest"): after the base run, every relocation target in CODE that no walk has executed yet
// is walked in ascending order, so all articulation variants of a shape are drawn at once.
//
// Why a separate driver: the harvest is not something the engine does, it is a way of running
// the engine many times over one pool and one event stream, with rules of its own (walk on
// through a top-level ShortEOF, stop at code already walked, vertices append-only, drop the faces
// after a skipped VertexBuffer, FA-23 selection). Kept inside the interpreter's machine, those
// rules were fields and branches on every opcode of every run, and the harvest decided when to
// give up by comparing the run's reason text. As a driver it works the machine only through
// MachineAccess and RunObserver (interpreter.h): a plain run carries none of it (its one cost is
// the `slow_fetch` test the fetch already had for op events and the debugger), and the harvest
// decides on the typed StopReason.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "interp/common/events.h"
#include "interp/fa/articulation.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape.h"
#include "interp/fa/walker.h"

namespace shapevm::fa {

class MergedHarvest final : public RunObserver {
 public:
  // All references must outlive the driver (one Interpreter::run). `articulations` is the
  // interpreter's cache, filled on first use.
  MergedHarvest(const Shape& shape, const WalkResult& walk,
                const std::map<uint32_t, uint32_t>& x86_ends,
                std::unique_ptr<ArticulationAnalysis>& articulations, EventSink& sink);

  // The sink the machine emits to in a merged run: it forwards everything to `sink` as the
  // machine would (control events only if `sink` wants them) and notes whether the base run took
  // a LOD, low-detail or damage branch.
  EventSink& machine_sink() { return tap_; }

  // After a clean base run: the harvest walks (or, on a coarse path, an info diagnostic). The
  // machine's result ends as the base run's, unless a walk exhausted the step budget.
  void walk_unreached_targets(MachineAccess& m);

  // RunObserver: the executed-offset map and the walk rules (called on the fetch slow path).
  bool before_fetch(MachineAccess& m) override;
  Action before_dispatch(MachineAccess& m, uint32_t off, uint8_t op) override;

 private:
  class Tap final : public EventSink {
   public:
    explicit Tap(EventSink& inner) : inner_(inner), inner_control_(inner.wants_control()) {}
    bool wants_ops() const override { return inner_.wants_ops(); }
    bool wants_control() const override { return true; }  // the harvest watches the branches
    void on_op(const OpEvent& e) override { inner_.on_op(e); }
    void on_branch(const BranchEvent& e) override;
    void on_call(const CallEvent& e) override {
      if (inner_control_) inner_.on_call(e);
    }
    void on_return(const ReturnEvent& e) override {
      if (inner_control_) inner_.on_return(e);
    }
    void on_vertices(const VerticesEvent& e) override { inner_.on_vertices(e); }
    void on_face(const FaceEvent& e) override { inner_.on_face(e); }
    void on_diagnostic(const DiagnosticEvent& e) override { inner_.on_diagnostic(e); }
    void on_end(const EndEvent& e) override { inner_.on_end(e); }
    void on_native(const NativeEvent& e) override { inner_.on_native(e); }
    void on_native_instruction(const NativeInstructionEvent& e) override {
      inner_.on_native_instruction(e);
    }
    void on_import_read(const ImportReadEvent& e) override { inner_.on_import_read(e); }

    EventSink& inner_;
    const bool inner_control_;  // as the machine would have asked it
    bool coarse_ = false;       // a LOD, low-detail or damage branch was taken
  };

  const Shape& shape_;
  const WalkResult& walk_;
  const std::map<uint32_t, uint32_t>& x86_ends_;  // X86Code offset -> end of its x86 region
  std::unique_ptr<ArticulationAnalysis>& articulations_;
  EventSink& sink_;
  Tap tap_;

  std::vector<uint8_t> executed_;  // CODE offsets fetched so far, base run and walks
  bool walking_ = false;           // in the harvest walks (after the base run)
  uint32_t slots_written_ = 0;     // one past the highest pool slot the base run wrote
  uint32_t append_floor_ = 0;      // walks: VertexBuffers below this slot are skipped ...
  bool drop_faces_ = false;        // ... and the faces after them in the same walk dropped
  std::vector<std::pair<uint32_t, std::string>> texture_at_x86_;  // base: texture at each F0
};

}  // namespace shapevm::fa
