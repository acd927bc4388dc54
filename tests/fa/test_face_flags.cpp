// The Face content flags the seed names beyond the layout bits (docs/fa.md, "Face content flags"):
// 0x10 perspective-correct mapping is applied to textured faces; 0x02 FILL_BACKGROUND and 0x20
// "brighter shading" are untraced and not applied, and `info` counts all three so a shape that
// uses them says so instead of being drawn differently in silence.
#include <doctest/doctest.h>

#include <vector>

#include "interp/fa/interpreter.h"
#include "interp/fa/shape_info.h"
#include "tests/fa/shape_text.h"

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
