// The boundary between loading and drawing a Starlancer model. Program::run (engine.cpp) executes
// model_load's chunk requests (loader.h), then hands the loaded Model to draw_model, then emits the
// run's end event and end pause itself. Everything declared here is implemented by the drawing
// side (draw.cpp and the files beside it): raster depth test, shading modes, lighting, textures,
// LOD choice, parts placement, animation clips, render setup, the viewer model and export.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/engine.h"
#include "interp/shp/model.h"

namespace shapevm::shp {

// What drawing shares with the run it continues.
struct DrawContext {
  explicit DrawContext(EventSink& events) : sink(events) {}
  EventSink& sink;
  PauseHandler* pause = nullptr;         // offer pause points through it when set
  std::string source;                    // the program's source, for diagnostics
  const OpenOptions* options = nullptr;  // --palette / --textures given when the program opened
  uint64_t steps = 0;        // steps executed so far (the loader's requests); drawing adds its own
  uint64_t max_steps = 0;    // the run's step budget (--max-steps), loader steps included
  uint64_t pause_ticks = 0;  // pause points offered so far in this run
  uint32_t end_offset = 0;   // the model image's size: the run's end offset unless drawing stops
  bool stopped = false;      // set when the pause handler asked the run to end
};

// The --set names and state options drawing takes (caps, light, clip, lod, camera, ...). The
// loader's own knob (--max-steps) is declared by engine.cpp; these must not repeat it.
std::vector<Knob> draw_knobs();

// Draws `model` for `state` into ctx.sink (FaceEvents, diagnostics; ops if it has steps). Does
// not emit the end event: the caller does, from the outcome returned.
RunOutcome draw_model(const Model& model, const StateRequest& state, DrawContext& ctx);

// The drawing state for `state` as JSON (part of the trace's "state"); InputError when malformed.
nlohmann::json draw_state_json(const Model& model, const StateRequest& state);

// Palette, textures and projection for a frame of this size. `source` is the program's source
// (Program::source(), FILE:MEMBER is fine): palette.tga and tcachehw.dat are looked for beside
// its file when the options name none.
RenderSetup draw_render_setup(const Model& model, const OpenOptions& options,
                              const std::string& source, int width, int height);

// The viewer's model of `model`.
std::unique_ptr<ViewerModel> draw_viewer(std::shared_ptr<const Model> model,
                                         const OpenOptions& options, std::string source,
                                         const StateRequest& opening, double frames_per_second);

// The part tree `export` writes (export.h): a node per part, the level --lod names.
std::optional<ExportScene> draw_export_scene(const Model& model, const OpenOptions& options,
                                             const StateRequest& state, const std::string& source);

}  // namespace shapevm::shp
