// A first, minimal drawing (replaced by the drawing side's implementation): every level-0
// triangle of every part, untextured, at origin + vertex, seen from in front of the model's box
// along its Z axis, one grey per face. Coordinates go to fixed point (1/256 model unit) before
// anything is projected.
#include "interp/shp/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/input_error.h"

namespace shapevm::shp {
namespace {

constexpr std::string_view kEngine = "shp";
constexpr int64_t kFixed = 256;  // view units per model unit

struct Box {
  std::array<double, 3> lo{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::max()};
  std::array<double, 3> hi{-std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max()};
  bool empty = true;
};

double finite_or_zero(float v) {
  return std::isfinite(v) ? static_cast<double>(v) : 0.0;
}

std::array<double, 3> model_point(const Part& part, const Vertex& v) {
  std::array<double, 3> p{};
  for (int a = 0; a < 3; ++a) p[a] = finite_or_zero(part.origin[a]) + finite_or_zero(v.position[a]);
  return p;
}

Box level0_box(const Model& model) {
  Box box;
  for (const Part& part : model.parts) {
    if (part.levels.empty()) continue;
    for (const Vertex& v : part.levels[0].vertices) {
      const auto p = model_point(part, v);
      for (int a = 0; a < 3; ++a) {
        box.lo[a] = std::min(box.lo[a], p[a]);
        box.hi[a] = std::max(box.hi[a], p[a]);
      }
      box.empty = false;
    }
  }
  return box;
}

int32_t to_view(double v) {
  const double scaled = std::round(v * kFixed);
  return static_cast<int32_t>(std::clamp(scaled, -2.0e9, 2.0e9));
}

class GreyViewer : public ViewerModel {
 public:
  GreyViewer(std::shared_ptr<const Model> model, std::string source) : model_(std::move(model)) {
    caps_.engine = std::string(kEngine);
    caps_.source = std::move(source);
  }
  const ViewerCapabilities& capabilities() const override { return caps_; }
  ViewerState initial_state() const override { return {}; }
  ViewerRunResult run(const ViewerState&, int32_t, EventSink& sink) override {
    DrawContext ctx(sink);
    ctx.source = caps_.source;
    ctx.max_steps = std::numeric_limits<uint64_t>::max();
    const RunOutcome out = draw_model(*model_, StateRequest{}, ctx);
    return {out.clean, out.reason};
  }
  std::string state_json(const ViewerState&, int32_t) const override { return "{}"; }
  const raster::Palette& palette() const override { return palette_; }
  TextureLookup textures() override { return {}; }

 private:
  std::shared_ptr<const Model> model_;
  ViewerCapabilities caps_;
  raster::Palette palette_ = draw_render_setup(Model{}, OpenOptions{}, 640, 480).palette;
};

}  // namespace

std::vector<Knob> draw_knobs() {
  return {};
}

RunOutcome draw_model(const Model& model, const StateRequest&, DrawContext& ctx) {
  RunOutcome out;
  out.end_offset = ctx.end_offset;
  out.reason = "model drawn";
  const Box box = level0_box(model);
  if (box.empty) return out;
  std::array<double, 3> centre{};
  double radius = 1;
  for (int a = 0; a < 3; ++a) {
    centre[a] = (box.lo[a] + box.hi[a]) / 2;
    radius = std::max(radius, (box.hi[a] - box.lo[a]) / 2);
  }
  const double distance = radius * 3;
  uint32_t sequence = 0;
  std::array<FaceCorner, 3> corners{};
  for (const Part& part : model.parts) {
    if (part.levels.empty()) continue;
    const Level& level = part.levels[0];
    for (const Face& face : level.faces) {
      bool ok = true;
      for (int c = 0; c < 3; ++c) {
        const uint32_t index = face.vertices[c];
        if (index >= level.vertices.size()) {
          ok = false;
          break;
        }
        const auto p = model_point(part, level.vertices[index]);
        corners[c].index = index;
        for (int a = 0; a < 3; ++a)
          corners[c].model_wide[a] = static_cast<int32_t>(to_view(p[a]) / kFixed);
        // Model Y points down; view y points up; the camera stands off the nose looking back.
        corners[c].view = {to_view(p[0] - centre[0]), to_view(centre[1] - p[1]),
                           to_view(p[2] - centre[2] - distance)};
      }
      if (!ok) {
        ctx.sink.on_diagnostic({kEngine, face.image.offset, DiagnosticLevel::kWarning,
                                "face vertex index past the level's vertices: not drawn"});
        continue;
      }
      FaceEvent e;
      e.engine = kEngine;
      e.offset = face.image.offset;
      e.sequence = sequence++;
      e.color = static_cast<uint8_t>(8 + (sequence * 7) % 20);
      e.wide_model = true;
      e.corners = corners;
      ctx.sink.on_face(e);
      ++out.faces;
    }
  }
  return out;
}

nlohmann::json draw_state_json(const Model&, const StateRequest&) {
  return nlohmann::json::object();
}

RenderSetup draw_render_setup(const Model&, const OpenOptions&, int, int height) {
  RenderSetup setup;
  // Entries 0..31 of the default palette are a grey ramp; the minimal drawing uses only those.
  setup.palette = raster::default_palette();
  setup.frame.focal_pixels = height;
  setup.frame.near_z = static_cast<int32_t>(kFixed);
  return setup;
}

std::unique_ptr<ViewerModel> draw_viewer(std::shared_ptr<const Model> model, const OpenOptions&,
                                         std::string source, const StateRequest&, double) {
  return std::make_unique<GreyViewer>(std::move(model), std::move(source));
}

std::optional<ExportScene> draw_export_scene(const Model&, const StateRequest&, std::string_view) {
  return std::nullopt;
}

}  // namespace shapevm::shp
