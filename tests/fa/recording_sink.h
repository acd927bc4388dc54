// A sink that records what a run emitted, for assertions.
#pragma once

#include <string>
#include <vector>

#include "interp/common/events.h"

namespace shapevm::testing {

struct RecordingSink : EventSink {
  bool ops = true;
  std::vector<OpEvent> op_events;
  std::vector<BranchEvent> branches;
  std::vector<uint32_t> face_offsets;
  std::vector<uint8_t> face_colors;
  std::vector<std::string> face_textures;
  std::vector<std::vector<ViewPoint>> face_views;
  std::vector<std::vector<uint32_t>> face_indices;
  std::vector<std::string> diagnostics;
  std::vector<std::string> log;  // "call", "ret", "face:<color>" in order
  EndEvent end;

  bool wants_ops() const override { return ops; }
  void on_op(const OpEvent& e) override { op_events.push_back(e); }
  void on_branch(const BranchEvent& e) override { branches.push_back(e); }
  void on_call(const CallEvent& e) override { log.push_back("call " + std::to_string(e.target)); }
  void on_return(const ReturnEvent& e) override {
    log.push_back("ret " + std::to_string(e.resume));
  }
  void on_face(const FaceEvent& e) override {
    face_offsets.push_back(e.offset);
    face_colors.push_back(e.color);
    face_textures.push_back(std::string(e.texture));
    std::vector<ViewPoint> v;
    std::vector<uint32_t> idx;
    for (const auto& c : e.corners) {
      v.push_back(c.view);
      idx.push_back(c.index);
    }
    face_views.push_back(v);
    face_indices.push_back(idx);
    log.push_back("face " + std::to_string(e.color));
  }
  void on_diagnostic(const DiagnosticEvent& e) override { diagnostics.push_back(e.message); }
  void on_end(const EndEvent& e) override { end = e; }
};

}  // namespace shapevm::testing
