#include "harness/frame_renderer.h"

#include <algorithm>
#include <cstdlib>
#include <span>

#include "raster/clip.h"
#include "raster/polygon_fill.h"

namespace shapevm::harness {
namespace {

// The pixels a fill of a polygon may touch: its bounding box in whole pixels, clipped to the
// frame (the work budget's measure: cheap, and never less than the fill's real work), for a
// polygon whose 16.16 corners span [min_x, max_x] x [min_y, max_y].
uint64_t covered_pixels(raster::Fixed min_x, raster::Fixed min_y, raster::Fixed max_x,
                        raster::Fixed max_y, int width, int height) {
  const int64_t x0 = std::max<int64_t>(min_x >> 16, 0);
  const int64_t y0 = std::max<int64_t>(min_y >> 16, 0);
  const int64_t x1 = std::min<int64_t>(max_x >> 16, width - 1);
  const int64_t y1 = std::min<int64_t>(max_y >> 16, height - 1);
  if (x1 < x0 || y1 < y0) return 0;
  return static_cast<uint64_t>((x1 - x0 + 1) * (y1 - y0 + 1));
}

// The same for `polygon`'s corners.
uint64_t covered_pixels(std::span<const raster::ScreenVertex> polygon, int width, int height) {
  if (polygon.empty()) return 0;
  raster::Fixed x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
  for (const auto& v : polygon) {
    x0 = std::min(x0, v.x);
    x1 = std::max(x1, v.x);
    y0 = std::min(y0, v.y);
    y1 = std::max(y1, v.y);
  }
  return covered_pixels(x0, y0, x1, y1, width, height);
}

// A line's pixels: its longer side, at most the frame's width plus height.
uint64_t covered_pixels(const raster::ScreenVertex& a, const raster::ScreenVertex& b, int width,
                        int height) {
  const int64_t dx = std::abs((int64_t{a.x} - b.x) >> 16);
  const int64_t dy = std::abs((int64_t{a.y} - b.y) >> 16);
  return static_cast<uint64_t>(std::min<int64_t>(std::max(dx, dy) + 1, int64_t{width} + height));
}

}  // namespace

FrameRenderer::FrameRenderer(raster::Framebuffer& frame, FrameSettings settings,
                             TextureLookup textures, WorkLimits limits)
    : frame_(frame),
      settings_(settings),
      projection_(raster::make_projection(frame.width(), frame.height(), settings.focal_pixels,
                                          settings.near_z)),
      textures_(std::move(textures)),
      max_faces_(limits.faces),
      max_pixels_(limits.pixels_for(frame.width(), frame.height())),
      projected_(projection_) {
  if (settings.depth_test) depth_.emplace(frame.width(), frame.height());
}

std::span<const raster::ViewVertex> FrameRenderer::clip_near(
    std::span<const raster::ViewVertex> polygon) {
  // A polygon wholly in front of the plane comes out of the clip unchanged (the same vertices in
  // the same order), which is nearly every face: skip the copy.
  const bool in_front = std::all_of(polygon.begin(), polygon.end(),
                                    [&](const auto& v) { return v.z >= settings_.near_z; });
  if (in_front) return polygon;
  raster::clip_polygon_near(polygon, settings_.near_z, clipped_);
  return clipped_;
}

void FrameRenderer::project_polygon(std::span<const raster::ViewVertex> polygon) {
  // Appended one by one rather than resized and trimmed: resize() value-initialises every new
  // element out of line, which cost more than the projections that overwrite them.
  screen_.clear();
  raster::ScreenVertex s;
  for (const auto& v : polygon)
    if (projected_.project(v, s)) screen_.push_back(s);
}

void FrameRenderer::on_face(const FaceEvent& e) {
  // Past a budget nothing more is drawn, and the engine stops at its next check.
  if (++faces_seen_ > max_faces_) {
    request_stop(kBudgetFaces);
    return;
  }
  if (pixels_ > max_pixels_) return;
  draw_face(e);
  if (pixels_ > max_pixels_) request_stop(kBudgetPixels);
}

const raster::Texture* FrameRenderer::texture_for(std::string_view name) {
  if (textures_)
    if (const raster::Texture* texture = textures_(name)) return texture;
  // The faces of a shape mostly name one texture: the set is searched when the name changes.
  if (name != last_missing_) {
    missing_.emplace(name);
    last_missing_ = name;
  }
  return nullptr;
}

void FrameRenderer::draw_face(const FaceEvent& e) {
  if (e.corners.empty()) return;
  // A face whose texture the lookup lacks is drawn flat (missing_textures() names the texture),
  // so it may take the flat path as an untextured face does: without textures to hand (a
  // generated corpus, a render without --textures) that is most faces of most shapes.
  const raster::Texture* texture =
      e.textured && !e.texture.empty() ? texture_for(e.texture) : nullptr;
  if (texture == nullptr && draw_flat_in_front(e)) return;
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
    pixels_ += covered_pixels(sa, sb, frame_.width(), frame_.height());
    ++filled_;
    return;
  }
  project_polygon(polygon_.size() == 1 ? std::span<const raster::ViewVertex>(polygon_)
                                       : clip_near(polygon_));
  if (screen_.empty()) {
    ++culled_;
    return;
  }
  ++filled_;
  pixels_ += covered_pixels(screen_, frame_.width(), frame_.height());
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

bool FrameRenderer::draw_flat_in_front(const FaceEvent& e) {
  // Only a plain one-colour polygon of three or more corners, all in front of the near plane
  // (draw_face passes only faces without a texture to draw): most faces of most shapes. The
  // general path above gives the same pixels; this one skips its copy into polygon_, its
  // near-plane pass and its bounding-box pass, which were together about a fifth of a small
  // face's cost, and projects into a fixed array (a vector's push_back was not inlined, and cost
  // a twelfth).
  if (depth_ || e.shape != FaceShape::kPolygon || e.corners.size() < 3 ||
      e.corners.size() > flat_corners_.size() || !e.blend.empty() || e.fine_texcoords ||
      e.styled()) {
    return false;
  }
  size_t count = 0;
  raster::Fixed x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
  for (const auto& c : e.corners) {
    raster::ViewVertex v;
    v.x = c.view.x;
    v.y = c.view.y;
    v.z = -c.view.z;                           // events look down -z; the projection looks down +z
    if (v.z < settings_.near_z) return false;  // the general path clips it
    // u, v and shade are left at zero and inv_w unset: a flat fill and a point read only where
    // corners land.
    raster::ScreenVertex s;
    if (!projected_.project_position(v, s)) continue;
    x0 = std::min(x0, s.x);
    x1 = std::max(x1, s.x);
    y0 = std::min(y0, s.y);
    y1 = std::max(y1, s.y);
    flat_corners_[count++] = s;
  }
  if (count == 0) {
    ++culled_;
    return true;
  }
  ++filled_;
  pixels_ += covered_pixels(x0, y0, x1, y1, frame_.width(), frame_.height());
  if (count == 1) {
    raster::draw_point(frame_, flat_corners_[0], e.color);
  } else {
    raster::fill_flat(frame_, std::span(flat_corners_.data(), count), e.color);
  }
  return true;
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
    pixels_ += covered_pixels(sa, sb, frame_.width(), frame_.height());
    drew = true;
  };
  if (e.shape == FaceShape::kPoints || polygon_.size() == 1) {
    for (const auto& v : polygon_) {
      raster::ScreenVertex s;
      if (v.z >= settings_.near_z && raster::project(projection_, v, s)) {
        raster::draw_line_depth(frame_, depth, s, s, style);
        ++pixels_;
        drew = true;
      }
    }
  } else if (e.shape == FaceShape::kPolyline || polygon_.size() == 2) {
    for (size_t i = 0; i + 1 < polygon_.size(); ++i) line(polygon_[i], polygon_[i + 1]);
  } else {
    project_polygon(clip_near(polygon_));
    if (screen_.size() >= 3) {
      raster::fill_depth(frame_, depth, screen_, style);
      pixels_ += covered_pixels(screen_, frame_.width(), frame_.height());
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
        ++pixels_;
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
      pixels_ += covered_pixels(sa, sb, frame_.width(), frame_.height());
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
