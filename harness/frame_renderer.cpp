#include "harness/frame_renderer.h"

#include "raster/clip.h"
#include "raster/polygon_fill.h"

namespace shapevm::harness {

FrameRenderer::FrameRenderer(raster::Framebuffer& frame, FrameSettings settings,
                             TextureLookup textures)
    : frame_(frame),
      settings_(settings),
      projection_(raster::make_projection(frame.width(), frame.height(), settings.focal_pixels,
                                          settings.near_z)),
      textures_(std::move(textures)) {
  if (settings.depth_test) depth_.emplace(frame.width(), frame.height());
}

void FrameRenderer::on_face(const FaceEvent& e) {
  if (e.corners.empty()) return;
  const raster::Texture* texture = nullptr;
  if (e.textured && !e.texture.empty()) {
    if (textures_) texture = textures_(e.texture);
    if (texture == nullptr) missing_.insert(std::string(e.texture));
  }
  polygon_.clear();
  for (const auto& c : e.corners) {
    raster::ViewVertex v;
    v.x = c.view.x;
    v.y = c.view.y;
    v.z = -c.view.z;  // events look down -z; the projection looks down +z
    if (e.fine_texcoords) {
      v.u = c.texcoord_fine[0];
      v.v = c.texcoord_fine[1];
    } else {
      v.u = static_cast<raster::Fixed>(c.texcoord[0]) << 16;
      v.v = static_cast<raster::Fixed>(c.texcoord[1]) << 16;
    }
    v.shade = c.shade;
    polygon_.push_back(v);
  }
  screen_.clear();
  if (depth_ || !e.blend.empty() || e.fine_texcoords) {
    draw_depth(e, texture);
    return;
  }
  if (e.shape != FaceShape::kPolygon) {
    draw_open(e);
    return;
  }
  if (polygon_.size() == 2) {
    raster::ViewVertex a = polygon_[0], b = polygon_[1];
    if (!raster::clip_line_near(a, b, settings_.near_z)) {
      ++culled_;
      return;
    }
    raster::ScreenVertex sa, sb;
    raster::project(projection_, a, sa);
    raster::project(projection_, b, sb);
    raster::draw_line(frame_, sa, sb, e.color);
    ++filled_;
    return;
  }
  auto clipped =
      polygon_.size() == 1 ? polygon_ : raster::clip_polygon_near(polygon_, settings_.near_z);
  for (const auto& v : clipped) {
    raster::ScreenVertex s;
    if (raster::project(projection_, v, s)) screen_.push_back(s);
  }
  if (screen_.empty()) {
    ++culled_;
    return;
  }
  ++filled_;
  if (screen_.size() == 1) {
    raster::draw_point(frame_, screen_[0], e.color);
  } else if (e.styled()) {
    raster::SurfaceStyle style;
    style.color = e.color;
    style.color2 = e.color2;
    style.pattern = e.pattern;
    style.pattern_alternates = e.pattern_alternates;
    style.texture = texture;
    style.linear_addressing = e.texture_linear;
    style.shade_rows = e.shade_rows;
    style.remap = e.remap;
    raster::fill_styled(frame_, screen_, style);
  } else if (texture != nullptr) {
    if (e.perspective) {
      raster::fill_textured_perspective(frame_, screen_, *texture);
    } else {
      raster::fill_textured_affine(frame_, screen_, *texture);
    }
  } else {
    raster::fill_flat(frame_, screen_, e.color);
  }
}

void FrameRenderer::draw_depth(const FaceEvent& e, const raster::Texture* texture) {
  raster::DepthStyle style;
  style.color = e.color;
  style.texture = texture;
  style.perspective = e.perspective;
  style.repeat = e.texture_repeat;
  style.shade_rows = e.shade_rows;
  style.blend = e.blend;
  style.depth_write = e.depth_write;
  raster::DepthBuffer* depth = depth_ ? &*depth_ : nullptr;
  bool drew = false;
  auto line = [&](raster::ViewVertex a, raster::ViewVertex b) {
    if (!raster::clip_line_near(a, b, settings_.near_z)) return;
    raster::ScreenVertex sa, sb;
    raster::project(projection_, a, sa);
    raster::project(projection_, b, sb);
    raster::draw_line_depth(frame_, depth, sa, sb, style);
    drew = true;
  };
  if (e.shape == FaceShape::kPoints || polygon_.size() == 1) {
    for (const auto& v : polygon_) {
      raster::ScreenVertex s;
      if (v.z >= settings_.near_z && raster::project(projection_, v, s)) {
        raster::draw_line_depth(frame_, depth, s, s, style);
        drew = true;
      }
    }
  } else if (e.shape == FaceShape::kPolyline || polygon_.size() == 2) {
    for (size_t i = 0; i + 1 < polygon_.size(); ++i) line(polygon_[i], polygon_[i + 1]);
  } else {
    for (const auto& v : raster::clip_polygon_near(polygon_, settings_.near_z)) {
      raster::ScreenVertex s;
      if (raster::project(projection_, v, s)) screen_.push_back(s);
    }
    if (screen_.size() >= 3) {
      raster::fill_depth(frame_, depth, screen_, style);
      drew = true;
    }
  }
  if (drew) {
    ++filled_;
  } else {
    ++culled_;
  }
}

void FrameRenderer::draw_open(const FaceEvent& e) {
  bool drew = false;
  if (e.shape == FaceShape::kPoints) {
    for (const auto& v : polygon_) {
      raster::ScreenVertex s;
      if (v.z >= settings_.near_z && raster::project(projection_, v, s)) {
        raster::draw_point(frame_, s, e.color);
        drew = true;
      }
    }
  } else {
    for (size_t i = 0; i + 1 < polygon_.size(); ++i) {
      raster::ViewVertex a = polygon_[i], b = polygon_[i + 1];
      if (!raster::clip_line_near(a, b, settings_.near_z)) continue;
      raster::ScreenVertex sa, sb;
      raster::project(projection_, a, sa);
      raster::project(projection_, b, sb);
      raster::draw_line(frame_, sa, sb, e.color);
      drew = true;
    }
  }
  if (drew) {
    ++filled_;
  } else {
    ++culled_;
  }
}

}  // namespace shapevm::harness
