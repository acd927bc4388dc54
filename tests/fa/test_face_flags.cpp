// The Face content flags the seed names beyond the layout bits (docs/fa.md, "Face content flags"):
// 0x10 perspective-correct mapping is applied to textured faces; 0x02 FILL_BACKGROUND and 0x20
// "brighter shading" are untraced and not applied, and `info` counts all three so a shape that
// uses them says so instead of being drawn differently in silence. The is_shadow byte reaches the
// face event as it is.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "interp/fa/interpreter.h"
#include "interp/fa/shape_info.h"
#include "tests/fa/shape_text.h"

namespace fa_face_flags_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::with_header;

namespace {

struct FaceRecord {
  uint8_t content;
  bool textured, perspective;
  uint8_t color;
  std::vector<ViewPoint> views;
  std::vector<std::array<uint16_t, 2>> texcoords;
};

struct FaceSink : EventSink {
  std::vector<FaceRecord> faces;
  void on_face(const FaceEvent& e) override {
    FaceRecord r{e.content_flags, e.textured, e.perspective, e.color, {}, {}};
    for (const auto& c : e.corners) {
      r.views.push_back(c.view);
      r.texcoords.push_back(c.texcoord);
    }
    faces.push_back(r);
  }
};

// Five faces over the same corners, differing only in their content flags.
const char* const kFlagFaces = R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
    TextureFile "_T.PIC"
    Face content=0x04 layout=0x01 color=5 shadow=0 idx=0,1,2 uv=0,0,8,0,0,8
    Face content=0x14 layout=0x01 color=5 shadow=0 idx=0,1,2 uv=0,0,8,0,0,8
    Face content=0x06 layout=0x01 color=5 shadow=0 idx=0,1,2 uv=0,0,8,0,0,8
    Face content=0x24 layout=0x01 color=5 shadow=0 idx=0,1,2 uv=0,0,8,0,0,8
    Face content=0x10 layout=0x00 color=5 shadow=0 idx=0,1,2
    ShortEOF
)";

}  // namespace

TEST_CASE("FA-13: content 0x10 selects perspective-correct mapping; 0x02 and 0x20 change nothing") {
  auto b = build_shape(with_header(kFlagFaces));
  Interpreter interp(b.shape);
  FaceSink sink;
  interp.run({}, sink);
  REQUIRE(sink.faces.size() == 5);
  const auto& plain = sink.faces[0];
  CHECK(plain.textured);
  CHECK_FALSE(plain.perspective);    // affine by default
  CHECK(sink.faces[1].perspective);  // 0x14: textured + 0x10
  CHECK(sink.faces[4].perspective);  // flagged, but untextured: the flat fill has no mapping
  CHECK_FALSE(sink.faces[4].textured);
  // 0x02 and 0x20 faces are the plain textured face in everything the renderer reads.
  for (size_t i : {2u, 3u}) {
    INFO("face " << i);
    CHECK(sink.faces[i].textured == plain.textured);
    CHECK(sink.faces[i].perspective == plain.perspective);
    CHECK(sink.faces[i].color == plain.color);
    CHECK(sink.faces[i].views == plain.views);
    CHECK(sink.faces[i].texcoords == plain.texcoords);
  }
  CHECK(sink.faces[2].content == 0x06);  // the flags themselves reach the trace
  CHECK(sink.faces[3].content == 0x24);
}

TEST_CASE("FA-13: info counts the faces with 0x10, 0x02 and 0x20 and says which are applied") {
  auto b = build_shape(with_header(kFlagFaces));
  const WalkResult walk = walk_shape(b.shape);
  const ShapeInfo info = analyze_shape(b.shape, walk);
  CHECK(info.perspective_faces == 2);
  CHECK(info.fill_background_faces == 1);
  CHECK(info.brighter_shading_faces == 1);
  const std::string text = shape_info_text(b.shape, walk, info);
  CHECK(text.find("0x10 perspective-correct 2 (applied to textured faces)") != std::string::npos);
  CHECK(text.find("0x02 FILL_BACKGROUND 1, 0x20 brighter shading 1 (not applied: untraced)") !=
        std::string::npos);
  const auto json = shape_info_json(b.shape, walk, info);
  CHECK(json["face_content_flags"]["fill_background_0x02"] == 1);
  CHECK(json["face_content_flags"]["not_applied"] == nlohmann::json::array({"0x02", "0x20"}));
}

namespace {

struct CornerSink : EventSink {
  struct Corner {
    uint32_t index;
    std::array<int16_t, 3> model;
    std::array<uint16_t, 2> texcoord;
    bool operator==(const Corner&) const = default;
  };
  std::vector<std::vector<Corner>> faces;
  int diagnostics = 0;
  void on_diagnostic(const DiagnosticEvent&) override { ++diagnostics; }
  void on_face(const FaceEvent& e) override {
    auto& out = faces.emplace_back();
    for (const auto& c : e.corners) out.push_back({c.index, c.model, c.texcoord});
  }
};

// Every index and texcoord width, with and without a normal and centre before the corners. Slot
// 300 only has its own coordinates: a u16 index read as bytes would name slot 44 (unwritten) and
// the face would not be drawn. Each corner's texcoords differ, so a pair read at the wrong stride
// or from the wrong place shows.
const char* const kCornerWidths = R"(
    VertexBuffer at=0
        v 1, 2, 3
        v 4, 5, 6
        v 7, 8, 9
    VertexBuffer at=2400
        v 30, 31, 32
    TextureFile "_T.PIC"
    Face content=0x04 layout=0x01 color=5 shadow=0 idx=0,1,2 uv=1,2,3,4,5,6
    Face content=0x04 layout=0x00 color=5 shadow=0 idx=2,1,0 uv=300,2,3,400,5,600
    Face content=0x00 layout=0x04 color=5 shadow=0 idx=300,1,2
    Face content=0x44 layout=0x07 color=5 shadow=0 normal=1,2,3 center=1,1,1 idx=1,300,0 uv=7,8,9,10,11,12
    Face content=0x44 layout=0x00 color=5 shadow=0 normal=1,2,3 center=1,1,1 idx=2,0 uv=1000,2000,3000,4000
    ShortEOF
)";

}  // namespace

TEST_CASE(
    "FA-13/FA-14/FA-15: a run reads each corner's index and texcoords at the layout's widths") {
  using C = CornerSink::Corner;
  const std::vector<std::vector<C>> expected = {
      {{0, {1, 2, 3}, {1, 2}}, {1, {4, 5, 6}, {3, 4}}, {2, {7, 8, 9}, {5, 6}}},
      {{2, {7, 8, 9}, {300, 2}}, {1, {4, 5, 6}, {3, 400}}, {0, {1, 2, 3}, {5, 600}}},
      {{300, {30, 31, 32}, {0, 0}}, {1, {4, 5, 6}, {0, 0}}, {2, {7, 8, 9}, {0, 0}}},
      {{1, {4, 5, 6}, {7, 8}}, {300, {30, 31, 32}, {9, 10}}, {0, {1, 2, 3}, {11, 12}}},
      {{2, {7, 8, 9}, {1000, 2000}}, {0, {1, 2, 3}, {3000, 4000}}},
  };
  auto b = build_shape(with_header(kCornerWidths));
  Interpreter interp(b.shape);
  for (const Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
    // Twice each: the second run reuses what the first one left (the corner buffer, the
    // threaded dispatch's decoded entries).
    for (int run = 0; run < 2; ++run) {
      INFO("dispatch " << static_cast<int>(dispatch) << ", run " << run);
      CornerSink sink;
      const RunResult r = interp.run({}, sink, dispatch);
      CHECK(r.clean);
      CHECK(sink.diagnostics == 0);
      CHECK(sink.faces == expected);
    }
  }
}

}  // namespace fa_face_flags_tests

namespace fa_face_flags_tests {

TEST_CASE("FA-13: a Face's is_shadow byte reaches its event, any non-zero value as a shadow") {
  auto b = build_shape(with_header(R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
    Face content=0 layout=0 color=5 shadow=1 idx=0,1,2
    Face content=0 layout=0 color=6 shadow=0 idx=0,1,2
    Face content=0 layout=0 color=7 shadow=0x80 idx=0,1,2
    ShortEOF
)"));
  struct ShadowSink : EventSink {
    std::vector<std::pair<uint8_t, bool>> faces;  // colour, is_shadow
    void on_face(const FaceEvent& e) override { faces.emplace_back(e.color, e.is_shadow); }
  };
  const std::vector<std::pair<uint8_t, bool>> expected = {{5, true}, {6, false}, {7, true}};
  Interpreter interp(b.shape);
  for (Dispatch dispatch : {Dispatch::kThreaded, Dispatch::kSwitch}) {
    ShadowSink sink;
    CHECK(interp.run({}, sink, dispatch).clean);
    CHECK(sink.faces == expected);
  }
}

}  // namespace fa_face_flags_tests
