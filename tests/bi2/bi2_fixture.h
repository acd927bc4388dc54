// Test helpers for the Battle Isle 2 engine: meshes built from the bi2 text form, programs opened
// through the registry from bytes written to a scratch folder, and a sink that keeps what a run
// emitted (steps with their fields, faces with their corners, diagnostics).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/byte_reader.h"
#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/bi2/text.h"
#include "interp/common/events.h"
#include "interp/common/registry.h"
#include "tests/tools/run_cli.h"

namespace shapevm::testing {

inline std::vector<uint8_t> bi2_bytes(const std::string& text) {
  return bi2::assemble_text(text, "test.bi2");
}

struct Bi2Step {
  std::string name;
  uint32_t offset = 0;
  std::map<std::string, int64_t> fields;
};
struct Bi2Face {
  uint32_t offset = 0;
  uint8_t color = 0;
  std::vector<std::array<int32_t, 3>> model;  // posed model coordinates (+y down)
  std::vector<uint32_t> indices;
};

class Bi2Recorder : public EventSink {
 public:
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent& e) override {
    Bi2Step s{std::string(e.name), e.offset, {}};
    for (const auto& f : e.fields) s.fields[std::string(f.name)] = f.value;
    steps.push_back(std::move(s));
  }
  void on_face(const FaceEvent& e) override {
    Bi2Face f{e.offset, e.color, {}, {}};
    for (const auto& c : e.corners) {
      f.model.push_back(c.model_wide);
      f.indices.push_back(c.index);
    }
    faces.push_back(std::move(f));
  }
  void on_diagnostic(const DiagnosticEvent& e) override { diagnostics.push_back(e); }
  void on_end(const EndEvent& e) override { end = e.reason, clean = e.clean; }
  std::vector<Bi2Step> steps;
  std::vector<Bi2Face> faces;
  std::vector<DiagnosticEvent> diagnostics;
  std::string end;
  bool clean = false;
};

// Writes `files` into a scratch folder and opens `spec` (relative to it) through the registry.
struct Bi2Files {
  ScratchDir dir;
  std::string path(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::vector<uint8_t>& bytes) const {
    write_file_atomic(dir / name, bytes);
  }
  std::unique_ptr<Program> open(const std::string& spec, const StateRequest& state = {},
                                const std::string& palette = "") const {
    OpenOptions o;
    o.palette = palette.empty() ? "" : path(palette);
    o.state = state;
    return open_program(path(spec), o);
  }
};

inline StateRequest bi2_state(std::vector<std::string> sets, std::vector<Setting> options = {}) {
  StateRequest r;
  r.sets = std::move(sets);
  r.options = std::move(options);
  return r;
}

inline Bi2Recorder bi2_run(Program& program, const StateRequest& state = {}) {
  validate_state(program, state);
  Bi2Recorder rec;
  program.run(state, rec);
  return rec;
}

}  // namespace shapevm::testing
