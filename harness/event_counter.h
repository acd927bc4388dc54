// A counting sink: how many opcodes a run executed and how many faces it emitted, taken from
// the event stream itself (the viewer's status line; DESIGN.md "one event stream, many sinks").
#pragma once

#include <cstdint>

#include "interp/common/events.h"

namespace shapevm::harness {

class EventCounter : public EventSink {
 public:
  bool wants_ops() const override { return true; }
  bool wants_control() const override { return false; }
  void on_op(const OpEvent&) override { ++ops_; }
  void on_face(const FaceEvent&) override { ++faces_; }
  void on_diagnostic(const DiagnosticEvent&) override { ++diagnostics_; }

  uint64_t ops() const { return ops_; }
  uint64_t faces() const { return faces_; }  // emitted; the frame renderer counts those filled
  uint64_t diagnostics() const { return diagnostics_; }

 private:
  uint64_t ops_ = 0;
  uint64_t faces_ = 0;
  uint64_t diagnostics_ = 0;
};

}  // namespace shapevm::harness
