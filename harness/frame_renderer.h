// The frame sink: fills every face the program emits, in emission order (the painter's
// algorithm), into an 8-bit indexed framebuffer; with FrameSettings::depth_test through a depth
// buffer as well (raster/depth_fill.h), and faces that blend or carry fine texcoords take that
// path too. Engine neutral: it consumes
// FaceEvents in view space (ViewPoint: x right, y up, z toward the viewer, 1/256 units).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "interp/common/events.h"
#include "interp/common/render_setup.h"
#include "interp/common/work_limits.h"
#include "raster/depth_fill.h"
#include "raster/framebuffer.h"
#include "raster/projection.h"
#include "raster/projection_cache.h"
#include "raster/texture.h"

namespace shapevm::harness {

using ::shapevm::FrameSettings;
using ::shapevm::TextureLookup;

class FrameRenderer : public EventSink {
 public:
  // `limits`: the faces and pixels a run may draw (interp/common/work_limits.h); past either the
  // renderer draws nothing more and asks the engine to stop.
  FrameRenderer(raster::Framebuffer& frame, FrameSettings settings, TextureLookup textures = {},
                WorkLimits limits = {});
  bool wants_control() const override { return false; }
  void on_face(const FaceEvent& e) override;
  uint64_t pixels_covered() const { return pixels_; }

  uint64_t faces_filled() const { return filled_; }
  uint64_t faces_culled() const { return culled_; }  // wholly behind the near plane
  // Texture names faces asked for that the lookup did not have (drawn flat instead).
  const std::set<std::string>& missing_textures() const { return missing_; }
  // The depth buffer (FrameSettings::depth_test), nullptr without one.
  const raster::DepthBuffer* depth() const { return depth_ ? &*depth_ : nullptr; }

 private:
  // Draws a face within the budgets, adding what it covers to pixels_.
  void draw_face(const FaceEvent& e);
  // The texture `name` (not empty) names, or nullptr with the name added to missing_.
  const raster::Texture* texture_for(std::string_view name);
  // A plain one-colour polygon wholly in front of the near plane, drawn without the general
  // path's copies; false (nothing done) for any other face.
  bool draw_flat_in_front(const FaceEvent& e);
  void draw_open(const FaceEvent& e);  // polylines and point sets
  // The depth path: depth-tested frames, blended faces and fine texcoords.
  void draw_depth(const FaceEvent& e, const raster::Texture* texture);
  // `polygon` clipped to the near plane: itself when wholly in front, else clipped_.
  std::span<const raster::ViewVertex> clip_near(std::span<const raster::ViewVertex> polygon);
  // screen_ := the projections of `polygon`'s vertices in front of the near plane.
  void project_polygon(std::span<const raster::ViewVertex> polygon);
  raster::Framebuffer& frame_;
  FrameSettings settings_;
  raster::Projection projection_;
  TextureLookup textures_;
  std::optional<raster::DepthBuffer> depth_;
  std::set<std::string> missing_;
  std::string last_missing_;  // the name texture_for last added to missing_ or found there
  uint64_t filled_ = 0;
  uint64_t culled_ = 0;
  uint64_t faces_seen_ = 0;
  uint64_t pixels_ = 0;
  uint64_t max_faces_;
  uint64_t max_pixels_;
  std::vector<raster::ViewVertex> polygon_;
  std::vector<raster::ViewVertex> clipped_;
  std::vector<raster::ScreenVertex> screen_;
  // draw_flat_in_front's projected corners; faces with more take the general path.
  std::array<raster::ScreenVertex, 8> flat_corners_;
  raster::ProjectionCache projected_;  // the corners of the faces drawn so far
};

}  // namespace shapevm::harness
