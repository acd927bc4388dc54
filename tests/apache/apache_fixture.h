// Test helpers for the Apache engine: assemble text into an in-memory archive (with its palette
// tables and textures) and record what a run emitted.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/apache/archive.h"
#include "interp/apache/assembler.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/palette.h"
#include "interp/apache/textures.h"
#include "interp/common/events.h"

namespace shapevm::testing {

struct ApacheFixture {
  explicit ApacheFixture(const std::string& text)
      : assembled(apache::assemble_apache(text, "test.apa")),
        archive(assembled.archive, "test.BIN"),
        tables(apache::build_shading_tables(apache::read_3dpal(assembled.palette, "3DPAL.RGB"))) {
    if (!assembled.textures.empty()) textures.emplace(assembled.textures, "OBJTEXT.BIN");
  }
  uint32_t label(uint32_t record, const std::string& name) const {
    return assembled.labels.at(std::to_string(record) + ":" + name);
  }
  apache::AssembledArchive assembled;
  apache::Archive archive;
  apache::ShadingTables tables;
  std::optional<apache::TextureArchive> textures;
};

struct ApacheFace {
  uint32_t offset = 0;
  uint8_t color = 0, color2 = 0;
  uint16_t pattern = 0xFFFF;
  bool alternates = false, shadow = false, textured = false, remap = false, shaded = false;
  FaceShape shape = FaceShape::kPolygon;
  std::string texture;
  std::vector<uint32_t> indices;
  std::vector<ViewPoint> view;
  std::vector<int32_t> shade;  // rows (shade >> 16)
};

struct ApacheSink : EventSink {
  std::vector<OpEvent> ops;
  std::vector<BranchEvent> branches;
  std::vector<CallEvent> calls;
  std::vector<ApacheFace> faces;
  std::vector<DiagnosticEvent> diagnostics;
  EndEvent end;
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent& e) override { ops.push_back(e); }
  void on_branch(const BranchEvent& e) override { branches.push_back(e); }
  void on_call(const CallEvent& e) override { calls.push_back(e); }
  void on_face(const FaceEvent& e) override {
    ApacheFace f;
    f.offset = e.offset;
    f.color = e.color;
    f.color2 = e.color2;
    f.pattern = e.pattern;
    f.alternates = e.pattern_alternates;
    f.shadow = e.is_shadow;
    f.textured = e.textured;
    f.remap = !e.remap.empty();
    f.shaded = !e.shade_rows.empty();
    f.shape = e.shape;
    f.texture = std::string(e.texture);
    for (const auto& c : e.corners) {
      f.indices.push_back(c.index);
      f.view.push_back(c.view);
      f.shade.push_back(c.shade >> 16);
    }
    faces.push_back(std::move(f));
  }
  void on_diagnostic(const DiagnosticEvent& e) override { diagnostics.push_back(e); }
  void on_end(const EndEvent& e) override { end = e; }

  std::vector<ApacheFace> model_faces() const {
    std::vector<ApacheFace> out;
    for (const auto& f : faces)
      if (!f.shadow) out.push_back(f);
    return out;
  }
  bool has_diagnostic(const std::string& needle) const {
    for (const auto& d : diagnostics)
      if (d.message.find(needle) != std::string::npos) return true;
    return false;
  }
};

// Runs record `index` with shadows off unless the state says otherwise.
inline apache::RunResult run_apache(const ApacheFixture& f, uint32_t index, apache::RunState state,
                                    ApacheSink& sink) {
  apache::Interpreter interp(f.archive, f.tables, f.textures ? &*f.textures : nullptr);
  return interp.run(index, state, sink);
}

inline apache::RunState no_shadows() {
  apache::RunState s;
  s.shadows = false;
  return s;
}

// A unit box's eight vertices (x -50..50, y 0..100, z -50..50) as assembler lines, faces
// front "3 2 1 0", back "6 7 4 5", right "2 6 5 1", left "7 3 0 4", top "7 6 2 3".
inline std::string box_vertices() {
  return "  vertex -50 0 -50\n  vertex 50 0 -50\n  vertex 50 100 -50\n  vertex -50 100 -50\n"
         "  vertex -50 0 50\n  vertex 50 0 50\n  vertex 50 100 50\n  vertex -50 100 50\n";
}

}  // namespace shapevm::testing
