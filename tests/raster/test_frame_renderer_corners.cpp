// The frame renderer's face path (clip to the near plane, project each corner, fill) gives the
// same pixels as those steps taken one by one with the raster functions, on faces that share
// corners (the renderer remembers projected corners), that reach behind the near plane (clipped;
// or, wholly in front, passed through unclipped), and on more distinct corners than the renderer
// remembers at once. The faces filled and culled, and the pixels the budget counts, agree too;
// a line counts its longer side, and past its pixel budget the renderer draws no further face.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/frame_renderer.h"
#include "raster/clip.h"
#include "raster/polygon_fill.h"
#include "raster/projection.h"

namespace raster_frame_renderer_corners_tests {

using namespace shapevm;

namespace {

struct Face {
  std::vector<FaceCorner> corners;
  uint8_t color = 0;
};

// What the reference drew: faces filled and culled, and the pixels their bounding boxes cover in
// the frame (the renderer's pixel budget counts these).
struct ReferenceCounts {
  uint64_t filled = 0;
  uint64_t culled = 0;
  uint64_t pixels = 0;
};

// The renderer's painter path for a flat polygon, written out step by step.
void draw_reference(raster::Framebuffer& frame, const FrameSettings& settings, const Face& face,
                    ReferenceCounts& counts) {
  const raster::Projection projection = raster::make_projection(
      frame.width(), frame.height(), settings.focal_pixels, settings.near_z);
  std::vector<raster::ViewVertex> view;
  for (const FaceCorner& c : face.corners) {
    raster::ViewVertex v;
    v.x = c.view.x;
    v.y = c.view.y;
    v.z = -c.view.z;
    view.push_back(v);
  }
  std::vector<raster::ScreenVertex> screen;
  for (const raster::ViewVertex& v : raster::clip_polygon_near(view, settings.near_z)) {
    raster::ScreenVertex s;
    if (raster::project(projection, v, s)) screen.push_back(s);
  }
  if (screen.empty()) {
    ++counts.culled;
    return;
  }
  ++counts.filled;
  int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
  for (const raster::ScreenVertex& v : screen) {
    x0 = std::min<int64_t>(x0, raster::fixed_floor64(v.x));
    y0 = std::min<int64_t>(y0, raster::fixed_floor64(v.y));
    x1 = std::max<int64_t>(x1, raster::fixed_floor64(v.x));
    y1 = std::max<int64_t>(y1, raster::fixed_floor64(v.y));
  }
  x0 = std::max<int64_t>(x0, 0);
  y0 = std::max<int64_t>(y0, 0);
  x1 = std::min<int64_t>(x1, frame.width() - 1);
  y1 = std::min<int64_t>(y1, frame.height() - 1);
  if (x0 <= x1 && y0 <= y1) counts.pixels += static_cast<uint64_t>((x1 - x0 + 1) * (y1 - y0 + 1));
  if (screen.size() == 1) {
    raster::draw_point(frame, screen[0], face.color);
  } else if (screen.size() >= 2) {
    raster::fill_flat(frame, screen, face.color);
  }
}

// `size` random view positions; the first `behind` of them lie behind the near plane.
std::vector<ViewPoint> random_pool(uint32_t seed, size_t size, size_t behind) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int32_t> across(-3000, 3000);
  std::uniform_int_distribution<int32_t> depth(400, 9000);
  std::vector<ViewPoint> pool;
  for (size_t i = 0; i < size; ++i) {
    const int32_t z = i < behind ? -std::uniform_int_distribution<int32_t>(0, 200)(random)
                                 : -depth(random);  // events look down -z
    pool.push_back({across(random), across(random), z});
  }
  return pool;
}

// `count` faces of 3 to 5 corners picked from `pool`.
std::vector<Face> faces_from(const std::vector<ViewPoint>& pool, uint32_t seed, size_t count) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
  std::uniform_int_distribution<int> corners(3, 5);
  std::vector<Face> faces;
  for (size_t i = 0; i < count; ++i) {
    Face face;
    face.color = static_cast<uint8_t>(1 + i % 250);
    const int n = corners(random);
    for (int k = 0; k < n; ++k) {
      FaceCorner c;
      c.view = pool[pick(random)];
      face.corners.push_back(c);
    }
    faces.push_back(std::move(face));
  }
  return faces;
}

// Draws `faces` through the renderer and step by step, and checks that both agree. `dress` may
// name a texture on face i's event, which the renderer asks `textures` for. Returns the names the
// renderer found missing.
std::set<std::string> check_same_pixels(const std::vector<Face>& faces,
                                        const TextureLookup& textures = {},
                                        const std::function<void(size_t, FaceEvent&)>& dress = {}) {
  FrameSettings settings;
  settings.focal_pixels = 240;
  settings.near_z = 256;
  raster::Framebuffer drawn(320, 240, 0), expected(320, 240, 0);
  WorkLimits limits;
  limits.pixels = uint64_t{1} << 40;  // random faces overdraw far more than a shape does
  harness::FrameRenderer renderer(drawn, settings, textures, limits);
  ReferenceCounts counts;
  for (size_t i = 0; i < faces.size(); ++i) {
    FaceEvent e;
    e.color = faces[i].color;
    e.corners = faces[i].corners;
    if (dress) dress(i, e);
    renderer.on_face(e);
    draw_reference(expected, settings, faces[i], counts);
  }
  REQUIRE(renderer.stop_requested().empty());
  CHECK(renderer.faces_filled() > 0);
  CHECK(drawn == expected);
  CHECK(renderer.faces_filled() == counts.filled);
  CHECK(renderer.faces_culled() == counts.culled);
  CHECK(renderer.pixels_covered() == counts.pixels);
  return renderer.missing_textures();
}

}  // namespace

TEST_CASE("frame renderer: shared corners draw as projected one by one") {
  // 40 corners shared by 400 faces: nearly every corner is projected before.
  check_same_pixels(faces_from(random_pool(1, 40, 0), 1, 400));
}

TEST_CASE("frame renderer: corners behind the near plane are clipped, shared or not") {
  // A quarter of the pool behind the plane: faces that are wholly behind, cut, or in front.
  check_same_pixels(faces_from(random_pool(2, 40, 10), 2, 400));
}

TEST_CASE("frame renderer: more distinct corners than it remembers") {
  // 5,000 distinct positions: slots are overwritten and positions collide in them.
  check_same_pixels(faces_from(random_pool(3, 5000, 500), 3, 3000));
}

TEST_CASE("frame renderer: corners that differ only in depth") {
  // Each of 12 (x, y) positions at four depths, one of them behind the near plane.
  std::vector<ViewPoint> pool;
  for (const ViewPoint& p : random_pool(4, 12, 0))
    for (int32_t z : {-500, -1200, -4000, -100}) pool.push_back({p.x, p.y, z});
  check_same_pixels(faces_from(pool, 4, 300));
}

TEST_CASE("frame renderer: a face whose texture is missing draws flat and names it once") {
  // Textured faces the lookup has no texture for, some reaching behind the near plane, among
  // untextured ones: the same pixels as flat faces, and each name missing listed once, however
  // the names alternate.
  const std::vector<Face> faces = faces_from(random_pool(5, 40, 8), 5, 300);
  const std::string_view names[] = {"_A.PIC", "_A.PIC", "_B.PIC", "", "_A.PIC", "_C.PIC"};
  size_t lookups = 0;
  const TextureLookup none = [&](std::string_view) -> const raster::Texture* {
    ++lookups;
    return nullptr;
  };
  size_t textured = 0;
  const auto missing = check_same_pixels(faces, none, [&](size_t i, FaceEvent& e) {
    e.texture = names[i % std::size(names)];
    e.textured = i % 7 != 3;  // some faces carry a name without being textured
    if (e.textured && !e.texture.empty()) ++textured;
  });
  CHECK(lookups == textured);
  CHECK(missing == std::set<std::string>{"_A.PIC", "_B.PIC", "_C.PIC"});
}

TEST_CASE(
    "frame renderer: a line counts its longer side's pixels, at most the frame's width plus "
    "height") {
  // Two corners 100 units apart at depth 1000 with a focal length of 240 pixels land 24 pixels
  // apart: a line of 25 pixels, which the budget counts whole and no more.
  FrameSettings settings;
  settings.focal_pixels = 240;
  settings.near_z = 256;
  const auto line = [](int32_t x0, int32_t x1) {
    std::vector<FaceCorner> corners(2);
    corners[0].view = {x0, 0, -1000};
    corners[1].view = {x1, 0, -1000};
    return corners;
  };
  // The pixels counted; `drawn`: the pixels the line wrote, `stopped`: whether the budget tripped.
  const auto covered = [&](int32_t x0, int32_t x1, uint64_t budget, int64_t& drawn, bool& stopped) {
    raster::Framebuffer frame(320, 240, 0);
    WorkLimits limits;
    limits.pixels = budget;
    harness::FrameRenderer renderer(frame, settings, {}, limits);
    const std::vector<FaceCorner> corners = line(x0, x1);
    FaceEvent e;
    e.color = 3;
    e.corners = corners;
    renderer.on_face(e);
    stopped = renderer.stop_requested() == kBudgetPixels;
    drawn = std::count(frame.pixels().begin(), frame.pixels().end(), 3);
    return renderer.pixels_covered();
  };
  int64_t drawn = 0;
  bool stopped = false;
  CHECK(covered(0, 100, 25, drawn, stopped) == 25);
  CHECK(drawn == 25);
  CHECK_FALSE(stopped);
  CHECK(covered(0, 100, 24, drawn, stopped) == 25);
  CHECK(stopped);
  // A line reaching far past the frame on both sides counts 320 + 240 (and draws the row's 320).
  CHECK(covered(-1000000, 1000000, uint64_t{1} << 40, drawn, stopped) == 560);
  CHECK(drawn == 320);
}

TEST_CASE("frame renderer: past its pixel budget it draws no further face, even one it is given") {
  FrameSettings settings;
  settings.focal_pixels = 240;
  settings.near_z = 256;
  raster::Framebuffer frame(320, 240, 0);
  WorkLimits limits;
  limits.pixels = 100;
  harness::FrameRenderer renderer(frame, settings, {}, limits);
  std::vector<FaceCorner> corners(3);
  corners[0].view = {-500, -500, -1000};
  corners[1].view = {500, -500, -1000};
  corners[2].view = {0, 500, -1000};
  FaceEvent e;
  e.color = 4;
  e.corners = corners;
  renderer.on_face(e);
  CHECK(renderer.stop_requested() == kBudgetPixels);
  const raster::Framebuffer after_first = frame;
  // An engine stops at its next check; a face handed over all the same is not drawn.
  e.color = 5;
  renderer.on_face(e);
  CHECK(frame == after_first);
  CHECK(renderer.faces_filled() == 1);
}

}  // namespace raster_frame_renderer_corners_tests
