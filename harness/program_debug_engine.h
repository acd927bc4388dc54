// The debugger's view of any engine's program (debug_engine.h): runs the program with the
// debugger's pause handler, applies `set NAME=VALUE` after checking it against the program's
// knobs, and draws partial frames with the program's render setup. Its vocabulary is what the
// program's first pause point declares, taken during the first run.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/debug_engine.h"
#include "interp/common/engine.h"

namespace shapevm::harness {

class ProgramDebugEngine : public DebugEngine {
 public:
  // `state` is checked against the program's knobs (InputError).
  ProgramDebugEngine(std::unique_ptr<Program> program, StateRequest state);

  std::string_view engine() const override { return program_->engine(); }
  std::string source() const override { return program_->source(); }
  void run(EventSink& sink, PauseHandler& pause) override;
  DebugVocabulary vocabulary() override;
  void set(const std::string& assignment) override;
  std::string describe_state() const override;
  const std::vector<ListingLine>& listing() const override { return listing_; }
  raster::Palette palette() const override { return setup_.palette; }
  FrameSettings frame_settings() const override { return setup_.frame; }
  TextureLookup textures() const override { return setup_.textures; }
  std::pair<int, int> frame_size() const override { return {state_.width, state_.height}; }
  uint8_t background() const override { return program_->example_background(); }

 private:
  std::unique_ptr<Program> program_;
  StateRequest state_;
  std::vector<ListingLine> listing_;
  RenderSetup setup_;
  std::optional<DebugVocabulary> vocabulary_;  // once a run has reached a pause point
};

}  // namespace shapevm::harness
