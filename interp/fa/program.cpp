#include "interp/fa/program.h"

#include <fmt/format.h>

#include "interp/fa/debug_pause.h"
#include "interp/fa/listing.h"
#include "interp/fa/state_knobs.h"
#include "interp/fa/viewer_model.h"

namespace shapevm::fa {

namespace {

// The listing as `shapevm disasm` prints it (render_listing_text), one entry per text line so a
// line number names an instruction.
std::vector<shapevm::ListingLine> listing_lines_of(const Listing& listing) {
  std::vector<shapevm::ListingLine> out;
  for (const auto& d : listing.directives) out.push_back({std::nullopt, false, d});
  for (const auto& line : listing.lines) {
    if (!line.label.empty()) out.push_back({std::nullopt, false, line.label + ":"});
    if (line.kind == "end") continue;
    std::string body = "    " + line.text;
    if (!line.comment.empty()) {
      if (body.size() < 52) body.resize(52, ' ');
      body += " ; " + line.comment;
    }
    const bool code = line.kind == "instruction" || line.kind == "x86";
    out.push_back({code ? std::optional<uint32_t>(line.offset) : std::nullopt, line.kind == "x86",
                   body, line.x86_text});
    for (const auto& c : line.continuation) out.push_back({std::nullopt, false, "        " + c});
  }
  return out;
}

}  // namespace

FaProgram::FaProgram(Shape shape, const OpenOptions& options)
    : shape_(std::make_unique<Shape>(std::move(shape))),
      walk_options_(walk_options_for(options.state)),
      palette_path_(options.palette),
      textures_path_(options.textures) {}

FaProgram::~FaProgram() = default;

const WalkResult& FaProgram::walk() const {
  if (!walk_) walk_ = std::make_shared<const WalkResult>(walk_shape(*shape_, walk_options_));
  return *walk_;
}

const ShapeInfo& FaProgram::info() const {
  if (!info_) info_ = analyze_shape(*shape_, walk());
  return *info_;
}

Interpreter& FaProgram::interpreter() const {
  if (!interp_) {
    interp_ = walk_ ? std::make_unique<Interpreter>(*shape_, walk_)
                    : std::make_unique<Interpreter>(*shape_, walk_options_);
  }
  return *interp_;
}

std::string FaProgram::summary() const {
  return shape_summary_line(*shape_, info());
}

std::string FaProgram::info_text() const {
  return shape_info_text(*shape_, walk(), info());
}

nlohmann::json FaProgram::info_json() const {
  return shape_info_json(*shape_, walk(), info());
}

std::string FaProgram::listing_text() const {
  return render_listing_text(*shape_, make_listing(*shape_, walk()));
}

nlohmann::json FaProgram::listing_json() const {
  return render_listing_json(*shape_, make_listing(*shape_, walk(), true));
}

std::vector<shapevm::ListingLine> FaProgram::listing_lines() const {
  return listing_lines_of(make_listing(*shape_, walk()));
}

std::vector<std::string> FaProgram::static_errors() const {
  std::vector<std::string> out;
  for (const auto& d : walk().diagnostics) {
    if (d.level != WalkDiagnostic::Level::kError) continue;
    out.push_back(fmt::format("{}: offset 0x{:x} (CODE offset 0x{:x}): {}", shape_->source(),
                              shape_->file_offset(d.offset), d.offset, d.message));
  }
  return out;
}

std::vector<Knob> FaProgram::knobs() const {
  std::vector<std::pair<std::string, std::vector<int64_t>>> compared;
  const ShapeInfo& shape_info = info();
  for (const auto& [name, values] : shape_info.articulations.inputs)
    compared.emplace_back(name, shape_info.articulations.distinct_values(name));
  return shape_knobs(*shape_, compared);
}

nlohmann::json FaProgram::state_json(const StateRequest& state) const {
  const RunState run = run_state_for(state);
  return run_state_json(run, interpreter().shape_view(run));
}

RunOutcome FaProgram::run(const StateRequest& request, EventSink& sink, PauseHandler* pause) {
  RunState state = run_state_for(request);
  const Dispatch dispatch =
      request.flag("switch-dispatch") ? Dispatch::kSwitch : Dispatch::kThreaded;
  RunResult r;
  if (pause == nullptr) {
    r = interpreter().run(state, sink, dispatch);
  } else {
    // Every x86 instruction is a pause point (si); tracing does not change what the x86 does.
    state.x86_trace = true;
    PauseBridge bridge(*pause, *shape_, shape_->image.image_base + shape_->image.code_va);
    interpreter().set_debug_hook(&bridge);
    try {
      r = interpreter().run(state, sink, dispatch);
    } catch (...) {
      interpreter().set_debug_hook(nullptr);
      throw;
    }
    interpreter().set_debug_hook(nullptr);
  }
  return {r.clean, r.reason, r.end_offset, r.ops, r.faces, {}};
}

RenderSetup FaProgram::render_setup(int, int height) {
  if (!palette_) palette_ = load_fa_palette(palette_path_);
  if (!textures_ && !textures_path_.empty())
    textures_ = std::make_shared<FaTextures>(textures_path_);
  RenderSetup setup;
  setup.palette = *palette_;
  if (textures_) {
    auto t = textures_;
    setup.textures = [t](std::string_view name) { return t->find(name); };
  }
  setup.frame.focal_pixels = height;
  return setup;
}

std::unique_ptr<ViewerModel> FaProgram::viewer(const StateRequest& opening,
                                               double frames_per_second) {
  return std::make_unique<FaViewerModel>(*shape_, opening, walk_options_,
                                         render_setup(opening.width, opening.height),
                                         frames_per_second);
}

}  // namespace shapevm::fa
