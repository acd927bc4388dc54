// The depth-tested fill (raster/depth_fill.h) and the frame renderer's depth path: a near face
// drawn first still wins, coplanar later faces win (test >=), faces that do not write depth,
// blend tables, lines through the buffer, and the same scan conversion as the painter's fills.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/frame_renderer.h"
#include "raster/depth_fill.h"
#include "raster/polygon_fill.h"
#include "raster/texture.h"
#include "tests/support/lcg.h"
#include "tests/support/span_ends.h"

namespace raster_raster_depth_tests {

using namespace shapevm;
using namespace shapevm::raster;

namespace {

ScreenVertex at(int32_t x, int32_t y, int32_t inv_w) {
  ScreenVertex v;
  v.x = to_fixed(x);
  v.y = to_fixed(y);
  v.inv_w = inv_w;
  return v;
}

std::vector<ScreenVertex> quad(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t inv_w) {
  return {at(x0, y0, inv_w), at(x1, y0, inv_w), at(x1, y1, inv_w), at(x0, y1, inv_w)};
}

DepthStyle colour(uint8_t c) {
  DepthStyle s;
  s.color = c;
  return s;
}

FaceCorner corner(int32_t x, int32_t y, int32_t z) {
  FaceCorner c;
  c.view = {x, y, z};
  return c;
}

}  // namespace

TEST_CASE("depth fill: a near face drawn first still wins over a farther one drawn later") {
  Framebuffer frame(32, 32, 0);
  DepthBuffer depth(32, 32);
  fill_depth(frame, &depth, quad(4, 4, 20, 20, kInvWOne / 2), colour(1));    // near
  fill_depth(frame, &depth, quad(10, 10, 28, 28, kInvWOne / 8), colour(2));  // far
  CHECK(frame.at(15, 15) == 1);  // the overlap keeps the near face
  CHECK(frame.at(25, 25) == 2);  // the far face draws where nothing is nearer
  CHECK(frame.at(5, 5) == 1);
  CHECK(depth.at(15, 15) == depth_of(kInvWOne / 2));
  CHECK(depth.at(25, 25) == depth_of(kInvWOne / 8));
  CHECK(depth.at(0, 0) == 0);
}

TEST_CASE("depth fill: the test is >=, so a coplanar later face wins; without a buffer it paints") {
  Framebuffer frame(16, 16, 0);
  DepthBuffer depth(16, 16);
  fill_depth(frame, &depth, quad(0, 0, 8, 8, 1000), colour(1));
  fill_depth(frame, &depth, quad(0, 0, 8, 8, 1000), colour(2));
  CHECK(frame.at(4, 4) == 2);
  fill_depth(frame, nullptr, quad(0, 0, 8, 8, 1), colour(3));  // farther, but no test
  CHECK(frame.at(4, 4) == 3);
  CHECK(depth.at(4, 4) == depth_of(1000));
}

TEST_CASE("depth fill: a face that does not write depth leaves the buffer for later faces") {
  Framebuffer frame(16, 16, 0);
  DepthBuffer depth(16, 16);
  DepthStyle glass = colour(5);
  glass.depth_write = false;
  fill_depth(frame, &depth, quad(0, 0, 8, 8, kInvWOne / 2), glass);
  CHECK(frame.at(2, 2) == 5);
  CHECK(depth.at(2, 2) == 0);
  fill_depth(frame, &depth, quad(0, 0, 8, 8, kInvWOne / 4), colour(6));  // farther, still drawn
  CHECK(frame.at(2, 2) == 6);
}

TEST_CASE("depth fill: depth is interpolated per pixel, so crossing faces split where they meet") {
  // Face A goes from near at the left to far at the right; face B is at a constant middle depth.
  Framebuffer frame(64, 8, 0);
  DepthBuffer depth(64, 8);
  const int32_t near = kInvWOne / 2, far = kInvWOne / 8, mid = (near + far) / 2;
  std::vector<ScreenVertex> a = {at(0, 0, near), at(64, 0, far), at(64, 8, far), at(0, 8, near)};
  fill_depth(frame, &depth, a, colour(1));
  fill_depth(frame, &depth, quad(0, 0, 64, 8, mid), colour(2));
  CHECK(frame.at(5, 4) == 1);
  CHECK(frame.at(60, 4) == 2);
  // The boundary lies at the middle of the row, within a pixel.
  int first_b = -1;
  for (int x = 0; x < 64 && first_b < 0; ++x)
    if (frame.at(x, 4) == 2) first_b = x;
  CHECK(first_b >= 31);
  CHECK(first_b <= 33);
}

TEST_CASE("depth fill: the same pixels as fill_flat (one scan conversion)") {
  Framebuffer a(40, 40, 0), b(40, 40, 0);
  std::vector<ScreenVertex> tri = {at(3, 2, kInvWOne), at(37, 11, kInvWOne), at(9, 35, kInvWOne)};
  tri[1].x += kFixedOne / 3;
  fill_flat(a, tri, 7);
  fill_depth(b, nullptr, tri, colour(7));
  CHECK(a == b);
}

TEST_CASE("depth fill: blend tables combine the source colour with the pixel underneath") {
  std::vector<uint8_t> table(65536);
  for (size_t s = 0; s < 256; ++s)
    for (size_t d = 0; d < 256; ++d) table[s * 256 + d] = static_cast<uint8_t>((s + d) & 0xFF);
  Framebuffer frame(8, 8, 10);
  DepthStyle add = colour(20);
  add.blend = table;
  fill_depth(frame, nullptr, quad(0, 0, 4, 4, kInvWOne), add);
  CHECK(frame.at(1, 1) == 30);
  CHECK(frame.at(6, 6) == 10);
  DepthStyle bad = colour(1);
  std::vector<uint8_t> short_table(256);
  bad.blend = short_table;
  CHECK_THROWS_AS(fill_depth(frame, nullptr, quad(0, 0, 4, 4, kInvWOne), bad),
                  std::invalid_argument);
  DepthBuffer wrong(4, 4);
  CHECK_THROWS_AS(fill_depth(frame, &wrong, quad(0, 0, 4, 4, kInvWOne), colour(1)),
                  std::invalid_argument);
}

TEST_CASE("depth fill: textures repeat or clamp, shade rows apply, transparent texels skip") {
  Texture t;
  t.width = 2;
  t.height = 1;
  t.pixels = {3, 4};
  t.transparent_index = 4;
  Framebuffer frame(8, 1, 0);
  std::vector<ScreenVertex> row = quad(0, 0, 8, 1, kInvWOne);
  row[1].u = row[2].u = to_fixed(8);  // eight texels across eight pixels
  DepthStyle s;
  s.texture = &t;
  s.perspective = false;
  s.repeat = true;
  fill_depth(frame, nullptr, row, s);
  CHECK(frame.at(0, 0) == 3);
  CHECK(frame.at(1, 0) == 0);  // transparent
  CHECK(frame.at(2, 0) == 3);  // wrapped
  s.repeat = false;
  frame.clear(0);
  fill_depth(frame, nullptr, row, s);
  CHECK(frame.at(0, 0) == 3);
  CHECK(frame.at(6, 0) == 0);  // clamped to the last texel, which is transparent
  std::vector<uint8_t> rows(512);
  for (size_t i = 0; i < 256; ++i) rows[256 + i] = static_cast<uint8_t>(i + 100);
  s.shade_rows = rows;
  for (auto& v : row) v.shade = to_fixed(1);
  frame.clear(0);
  fill_depth(frame, nullptr, row, s);
  CHECK(frame.at(0, 0) == 103);
}

TEST_CASE("depth fill: stepped depth, texture and shade give the pixels of direct evaluation") {
  // fill_depth steps each side's attributes down its edge, evaluates only those the style reads
  // and draws each span with a loop made for the style; the reference evaluates every attribute
  // afresh on every row and draws each pixel through every option. Random polygons (some crossing
  // the frame's edges, some rows clipped), depths, texture coordinates and shades, through every
  // style option, over a buffer of random depths.
  shapevm::testing::Lcg rng{20261206};
  std::array<uint8_t, 256 * 4> shade_table{};
  for (auto& e : shade_table) e = static_cast<uint8_t>(rng.next());
  std::vector<uint8_t> blend(65536);
  for (auto& e : blend) e = static_cast<uint8_t>(rng.next());
  // One texture whose sizes are powers of two (fill_depth wraps those with a mask) and one whose
  // are not (a remainder), with coordinates on both sides of zero.
  std::array<Texture, 2> textures;
  textures[0].width = 13;
  textures[0].height = 9;
  textures[1].width = 16;
  textures[1].height = 8;
  for (Texture& texture : textures) {
    for (int i = 0; i < texture.width * texture.height; ++i)
      texture.pixels.push_back(static_cast<uint8_t>(rng.between(0, 5) == 0 ? 0xFF : rng.next()));
  }
  long changed = 0, flat_changed = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    CAPTURE(trial);
    // Half of them triangles (walked without the YLR table); of those, some with corners on
    // whole pixels (rows that start at a corner, where two edges meet) and some flat (a third
    // corner on the line through the other two: the two sides cross every row at the same x, and
    // the attributes of the edge earlier in the polygon are the row's).
    const bool triangle = rng.between(0, 1) == 1;
    std::vector<ScreenVertex> polygon(static_cast<size_t>(triangle ? 3 : rng.between(4, 6)));
    const bool whole_pixels = rng.between(0, 3) == 0;
    for (auto& v : polygon) {
      v.x = rng.between(-20, 100) * kFixedOne + (whole_pixels ? 0 : rng.between(0, kFixedOne - 1));
      v.y = rng.between(-20, 80) * kFixedOne + (whole_pixels ? 0 : rng.between(0, kFixedOne - 1));
      v.inv_w = rng.between(1, kInvWOne);
      v.u = rng.between(-30, 60) * kFixedOne + rng.between(0, kFixedOne - 1);
      v.v = rng.between(-30, 60) * kFixedOne + rng.between(0, kFixedOne - 1);
      v.shade = rng.between(-1, 5) * kFixedOne + rng.between(0, kFixedOne - 1);
    }
    const bool flat = triangle && rng.between(0, 4) == 0;
    if (flat) {
      const size_t far = static_cast<size_t>(rng.between(0, 2));
      const size_t a = (far + 1) % 3, b = (far + 2) % 3;
      polygon[far].x = polygon[a].x + 2 * (polygon[b].x - polygon[a].x);
      polygon[far].y = polygon[a].y + 2 * (polygon[b].y - polygon[a].y);
    }
    DepthStyle style;
    style.color = static_cast<uint8_t>(rng.next());
    if (rng.between(0, 2) != 0) style.texture = &textures[static_cast<size_t>(rng.between(0, 1))];
    style.perspective = rng.between(0, 1) == 1;
    style.repeat = rng.between(0, 1) == 1;
    if (rng.between(0, 1) == 1) style.shade_rows = shade_table;
    if (rng.between(0, 2) == 0) style.blend = blend;
    style.depth_write = rng.between(0, 3) != 0;
    FillRules rules;
    rules.no_overlap = rng.between(0, 1) == 1;
    if (rng.between(0, 2) == 0) {
      const int left = rng.between(0, 50), top = rng.between(0, 40);
      rules.clip = ClipRect{left, top, left + rng.between(0, 40), top + rng.between(0, 30)};
    }
    Framebuffer frame(80, 64, 0);
    DepthBuffer stepped_depth(80, 64), reference_depth(80, 64);
    for (int y = 0; y < 64; ++y) {
      for (int x = 0; x < 80; ++x) {
        frame.row(y)[x] = static_cast<uint8_t>(rng.next());
        const uint32_t d = rng.between(0, 3) == 0 ? 0 : rng.next() >> 4;
        stepped_depth.row(y)[x] = reference_depth.row(y)[x] = d;
      }
    }
    const bool tested = rng.between(0, 3) != 0;
    Framebuffer stepped = frame, reference = frame;
    fill_depth(stepped, tested ? &stepped_depth : nullptr, polygon, style, rules);
    fill_depth_reference(reference, tested ? &reference_depth : nullptr, polygon, style, rules);
    long differing = 0;
    for (int y = 0; y < 64; ++y) {
      for (int x = 0; x < 80; ++x) {
        differing += stepped.at(x, y) != reference.at(x, y) ? 1 : 0;
        differing += stepped_depth.at(x, y) != reference_depth.at(x, y) ? 1 : 0;
        changed += reference.at(x, y) != frame.at(x, y) ? 1 : 0;
        flat_changed += flat && reference.at(x, y) != frame.at(x, y) ? 1 : 0;
      }
    }
    CHECK(differing == 0);
  }
  CHECK(changed > 200000);    // the fills drew: the comparison is not of untouched frames
  CHECK(flat_changed > 300);  // flat triangles drew rows whose two crossings tie
}

// A depth span uses its texel coordinates as they are, and one shade row for every pixel or its
// shade unclamped, when its first and last pixels show that no pixel needs wrapping, clamping or
// another row. One-row spans whose affine texture coordinates end just inside or just outside the
// image (repeated and clamped, sizes powers of two or not), and whose shade stays in one row,
// crosses into the next, or ends just inside or just outside either end of the table: each must
// draw the reference's pixels.
TEST_CASE("depth fill: a span's per-span shortcuts hold up to the image's and the table's edges") {
  shapevm::testing::Lcg rng{4242};
  std::array<uint8_t, 256 * 3> shade_table{};
  for (auto& e : shade_table) e = static_cast<uint8_t>(rng.next());
  int trials = 0;
  for (const int width : {1, 7, 16}) {
    for (const int height : {1, 5, 8}) {
      const Texture texture = shapevm::testing::random_opaque_image(rng, width, height);
      for (int trial = 0; trial < 200; ++trial, ++trials) {
        CAPTURE(width);
        CAPTURE(height);
        CAPTURE(trial);
        DepthStyle style;
        style.texture = &texture;
        style.perspective = false;  // only an affine span's coordinates are read as they are
        style.repeat = trial % 2 == 1;
        const int shade_rows = 1 + trial % 3;
        style.shade_rows = std::span<const uint8_t>(shade_table).first(256 * shade_rows);
        const auto span = shapevm::testing::span_probing_edges(rng, rng.between(1, 70), width,
                                                               height, shade_rows);
        Framebuffer stepped(80, 1, 7), reference(80, 1, 7);
        fill_depth(stepped, nullptr, span, style, {true, std::nullopt});
        fill_depth_reference(reference, nullptr, span, style, {true, std::nullopt});
        CHECK(std::equal(stepped.pixels().begin(), stepped.pixels().end(),
                         reference.pixels().begin(), reference.pixels().end()));
      }
    }
  }
  CHECK(trials == 1800);
}

TEST_CASE("depth lines: hidden behind a nearer face, drawn in front of a farther one") {
  Framebuffer frame(32, 8, 0);
  DepthBuffer depth(32, 8);
  fill_depth(frame, &depth, quad(0, 0, 16, 8, kInvWOne / 2), colour(1));
  draw_line_depth(frame, &depth, at(0, 4, kInvWOne / 4), at(31, 4, kInvWOne / 4), colour(9));
  CHECK(frame.at(5, 4) == 1);
  CHECK(frame.at(20, 4) == 9);
  draw_line_depth(frame, &depth, at(0, 2, kInvWOne), at(31, 2, kInvWOne), colour(8));
  CHECK(frame.at(5, 2) == 8);
}

TEST_CASE("frame renderer: depth_test off draws in emission order; on keeps the nearer face") {
  std::vector<FaceCorner> near_face = {corner(-100, -100, -1000), corner(100, -100, -1000),
                                       corner(100, 100, -1000), corner(-100, 100, -1000)};
  std::vector<FaceCorner> far_face = {corner(-1600, -1600, -4000), corner(1600, -1600, -4000),
                                      corner(1600, 1600, -4000), corner(-1600, 1600, -4000)};
  FaceEvent a, b;
  a.color = 1;
  a.corners = near_face;
  b.color = 2;
  b.corners = far_face;
  FrameSettings settings;
  settings.focal_pixels = 64;
  settings.near_z = 16;
  Framebuffer painter(64, 64, 0), depth(64, 64, 0);
  {
    harness::FrameRenderer r(painter, settings);
    r.on_face(a);
    r.on_face(b);
    CHECK(r.depth() == nullptr);
  }
  settings.depth_test = true;
  {
    harness::FrameRenderer r(depth, settings);
    r.on_face(a);
    r.on_face(b);
    REQUIRE(r.depth() != nullptr);
    CHECK(r.depth()->at(32, 32) > 0);
  }
  CHECK(painter.at(32, 32) == 2);
  CHECK(depth.at(32, 32) == 1);
  CHECK(depth.at(10, 32) == 2);
}

}  // namespace raster_raster_depth_tests
