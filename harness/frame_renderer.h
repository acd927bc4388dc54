// The frame sink: fills every face the program emits, in emission order (the painter's
// algorithm; no depth buffer), into an 8-bit indexed framebuffer. Engine neutral: it consumes
// FaceEvents in view space (ViewPoint: x right, y up, z toward the viewer, 1/256 units).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "interp/common/events.h"
#include "interp/common/render_setup.h"
#include "raster/framebuffer.h"
#include "raster/projection.h"
#include "raster/texture.h"

namespace shapevm::harness {

using ::shapevm::FrameSettings;
using ::shapevm::TextureLookup;

class FrameRenderer : public EventSink {
 public:
  FrameRenderer(raster::Framebuffer& frame, FrameSettings settings, TextureLookup textures = {});

  bool wants_control() const override { return false; }
  void on_face(const FaceEvent& e) override;

  uint64_t faces_filled() const { return filled_; }
  uint64_t faces_culled() const { return culled_; }  // wholly behind the near plane
  // Texture names faces asked for that the lookup did not have (drawn flat instead).
  const std::set<std::string>& missing_textures() const { return missing_; }

 private:
  void draw_open(const FaceEvent& e);  // polylines and point sets
  raster::Framebuffer& frame_;
  FrameSettings settings_;
  raster::Projection projection_;
  TextureLookup textures_;
  std::set<std::string> missing_;
  uint64_t filled_ = 0;
  uint64_t culled_ = 0;
  std::vector<raster::ViewVertex> polygon_;
  std::vector<raster::ScreenVertex> screen_;
};

}  // namespace shapevm::harness
