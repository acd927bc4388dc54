// One opened FA shape as the engine interface's Program (interp/common/engine.h): its info and
// listing, its knobs (the engine's plus the imports it names), runs into a sink with an optional
// debugger, and the palette/textures a frame is drawn with.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/common/engine.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/shape.h"
#include "interp/fa/shape_info.h"
#include "interp/fa/textures.h"
#include "interp/fa/walker.h"

namespace shapevm::fa {

class FaProgram : public Program {
 public:
  // InputError on a malformed --objend, palette or textures argument.
  FaProgram(Shape shape, const OpenOptions& options);
  ~FaProgram() override;

  std::string_view engine() const override { return "fa"; }
  std::string source() const override { return shape_->source(); }
  std::string summary() const override;
  std::string info_text() const override;
  nlohmann::json info_json() const override;
  std::string listing_text() const override;
  nlohmann::json listing_json() const override;
  std::vector<shapevm::ListingLine> listing_lines() const override;
  std::vector<std::string> static_errors() const override;
  std::vector<Knob> knobs() const override;
  nlohmann::json state_json(const StateRequest& state) const override;
  RunOutcome run(const StateRequest& state, EventSink& sink, PauseHandler* pause) override;
  RenderSetup render_setup(int width, int height) override;
  double export_scale() const override { return shape_->header.scale_factor(); }
  std::unique_ptr<ViewerModel> viewer(const StateRequest& opening,
                                      double frames_per_second) override;

  const Shape& shape() const { return *shape_; }

 private:
  std::unique_ptr<Shape> shape_;  // stable address: the interpreter keeps a reference
  WalkOptions walk_options_;
  // The whole walk and what info reports, made on first use (info, listing, static errors,
  // knobs, the summary line): rendering, tracing or a regress case needs neither, and an
  // interpreter made before them takes only the walk's outline. Shared with an interpreter made
  // after.
  const WalkResult& walk() const;
  const ShapeInfo& info() const;
  mutable std::shared_ptr<const WalkResult> walk_;
  mutable std::optional<ShapeInfo> info_;
  // Made on first use: describing or listing a shape (`info`, `disasm` over a corpus) never
  // runs it, and a run's pre-decoded table alone takes 16 bytes per CODE byte.
  mutable std::unique_ptr<Interpreter> interp_;
  Interpreter& interpreter() const;
  std::string palette_path_;
  std::string textures_path_;
  std::optional<raster::Palette> palette_;  // read on first use
  std::shared_ptr<FaTextures> textures_;    // opened on first use
};

}  // namespace shapevm::fa
