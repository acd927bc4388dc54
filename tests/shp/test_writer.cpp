// Writing models back (docs/shp.md, "Writing"): shipped layouts byte for byte (SL-12), other
// layouts as the loader reads them (SL-13), refusals of what the loader would misread (SL-14),
// the text form's round trip, check's validation and bounding-box classes, and the generator.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/generator.h"
#include "interp/shp/hog.h"
#include "interp/shp/loader.h"
#include "interp/shp/refpack.h"
#include "interp/shp/text_writer.h"
#include "interp/shp/validate.h"
#include "interp/shp/writer.h"
#include "tests/shp/shp_fixture.h"

namespace shp_writer_tests {

using namespace shapevm;
using namespace shapevm::shp;
using shapevm::testing::ChunkBytes;
using shapevm::testing::shp_image;
using shapevm::testing::shp_load;
using shapevm::testing::triangle_model;

namespace {

std::vector<uint8_t> rewrite(const std::vector<uint8_t>& image) {
  return write_model(shp_load(image));
}

std::string with(std::string text, const std::string& before, const std::string& after) {
  const size_t at = text.find(before);
  REQUIRE(at != std::string::npos);
  text.replace(at, before.size(), after);
  return text;
}

}  // namespace

TEST_CASE("SL-12: a shipped layout comes back byte for byte") {
  // Zero-count chunks, a face's unread 0x3C, the header's unread 0x04, float bits (a NaN payload
  // and -0), unnamed bytes inside a record, attachment tails, an unnamed chunk, a trigger polygon.
  std::string text =
      with(triangle_model(), "chunk 09 attachments size=100",
           "chunk 09 attachments size=136\n  attachment kind=1 tail=" + std::string(24, '0') +
               "\n  attachment kind=2 tail=01" + std::string(22, '0'));
  text = with(text, "chunk 0D pointlists size=4",
              "chunk 0D pointlists size=4\nchunk 0F triggers size=16\n  trigger raw@0x0=0100000002"
              "000000030000"
              "00ffffffff\nchunk 0777 size=3\n  record tail=010203");
  text = with(text, "header version=107 unread_04=1.5",
              "header version=107 unread_04=#7fc01234 eye=-0,1e-45,3.4028235e+38");
  text = with(text, "part name=\"Hull\"", "part name=\"Hull\" raw@0xfc=0badf00d");
  const auto image = shp_image(text);
  const Model m = shp_load(image);
  CHECK(m.normalisations.empty());
  CHECK(m.header->unread_04.bits == 0x7fc01234u);
  CHECK(m.parts[0].levels[0].faces[0].unread_3c == 7);
  CHECK(m.parts[0].attachments[1].tail[0] == 1);
  CHECK(m.parts[0].triggers.size() == 1);
  CHECK(m.unnamed_chunks.size() == 1);
  CHECK(write_model(m) == image);
  // The terminator comes back as {FFFF, 0, 0}.
  const auto out = write_model(m);
  CHECK(std::vector<uint8_t>(out.end() - 6, out.end()) ==
        std::vector<uint8_t>{0xFF, 0xFF, 0, 0, 0, 0});
}

TEST_CASE(
    "SL-12: older exporters' sizes come back at their sizes (28-byte vertices, 72-byte "
    "faces, 8-byte clips, 12-byte arcs)") {
  const auto image = shp_image(
      with(with(triangle_model("28", "72"), "chunk 0A clips size=24", "chunk 0A clips size=8"),
           "chunk 10 arcs size=76", "chunk 10 arcs size=12\n  arc"));
  CHECK(rewrite(image) == image);
}

TEST_CASE("SL-13: other layouts come back as the loader reads them") {
  SUBCASE("a terminator with a size and count comes back with both 0") {
    const auto image = shp_image(with(triangle_model(), "\nend", "\nend size=3 count=9"));
    const auto out = rewrite(image);
    CHECK(out == shp_image(triangle_model()));
  }
  SUBCASE("bytes after the terminator are dropped; a cut terminator comes back whole") {
    CHECK(rewrite(shp_image(triangle_model() + "trailing 0102\n")) == shp_image(triangle_model()));
    CHECK(rewrite(shp_image(with(triangle_model(), "\nend", "\nend cut=2"))) ==
          shp_image(triangle_model()));
  }
  SUBCASE("a chunk the loader never takes is dropped") {
    const std::string extra =
        with(triangle_model(), "chunk 10 arcs", "chunk 02 levels size=4\n  level\nchunk 10 arcs");
    CHECK(rewrite(shp_image(extra)) == shp_image(triangle_model()));
  }
  SUBCASE("header records after the first are dropped") {
    const std::string two = with(triangle_model(), "  header version=107 unread_04=1.5 flags=0x1",
                                 "  header version=107 unread_04=1.5 flags=0x1\n  header");
    CHECK(rewrite(shp_image(two)) == shp_image(triangle_model()));
  }
  SUBCASE("bytes past a record's struct come back as zero") {
    const auto image = shp_image(with(
        triangle_model(), "chunk 06 materials size=64\n  material texture=\"hull01\"",
        "chunk 06 materials size=80\n  material texture=\"hull01\" tail=" + std::string(14, '0') +
            "ab"));
    const Model m = shp_load(image);
    CHECK(!m.normalisations.empty());
    const auto out = write_model(m);
    CHECK(out.size() == image.size());
    CHECK(out != image);
  }
  SUBCASE("a chunk the file leaves out where the loader asks comes back empty") {
    // Two parts; the second's clip chunk is missing.
    const std::string text = R"(chunk 00 header size=88
chunk 01 parts size=312
  part parent=-1
  part parent=0
chunk 0A clips size=24
chunk 0A clips size=24
end
)";
    const std::string missing = R"(chunk 00 header size=88
chunk 01 parts size=312
  part parent=-1
  part parent=0
chunk 0A clips size=24
end
)";
    CHECK(rewrite(shp_image(missing)) == shp_image(text));
  }
  SUBCASE("one tag at two record sizes comes back at the larger") {
    const std::string two = R"(chunk 00 header size=88
chunk 01 parts size=312
  part parent=-1
  part parent=0
chunk 0A clips size=8
  clip length=3 name="ab"
chunk 0B keyframes size=28
chunk 0C events size=12
chunk 0A clips size=24
end
)";
    const Model m = shp_load(shp_image(two));
    CHECK(m.record_sizes.of(0x0A) == std::optional<uint16_t>(24));
    const Model again = shp_load(write_model(m));
    CHECK(again.parts[0].clips[0].length == 3);
    CHECK(again.parts[0].clips[0].name == "ab");
    CHECK(again.parts[0].clips[0].image.reached == 24);
  }
}

TEST_CASE("SL-14: the writer refuses what the loader would misread") {
  Model m = shp_load(shp_image(triangle_model()));
  SUBCASE("records of a tag the sizes leave out") {
    m.parts[0].triggers.emplace_back();
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("leave the tag out"), InputError);
  }
  SUBCASE("more records than a count holds") {
    m.parts[0].levels[0].vertices.resize(65536);
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("at most 65535"), InputError);
  }
  SUBCASE("a kept chunk whose tag the loader names, or the terminator's") {
    UnnamedChunk u;
    u.tag = 0x04;
    m.unnamed_chunks.push_back(u);
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("names that tag"), InputError);
    m.unnamed_chunks.back().tag = 0xFFFF;
    CHECK_THROWS_AS(write_model(m), InputError);
  }
  SUBCASE("a kept chunk whose bytes are not its records'") {
    UnnamedChunk u;
    u.tag = 0x20;
    u.record_size = 4;
    u.count = 2;
    u.records = {1, 2, 3};
    m.unnamed_chunks.push_back(u);
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("not its 2 records"), InputError);
  }
  SUBCASE("tails on only some attachments at a size with room") {
    m.record_sizes.size[0x09] = 136;
    m.parts[0].attachments.resize(2);
    m.parts[0].attachments[0].tail.assign(12, 1);
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("1 of its 2 attachments"), InputError);
    m.parts[0].attachments[1].tail.assign(12, 2);
    CHECK_NOTHROW(write_model(m));
  }
  SUBCASE("a node's face list with the face list tag left out") {
    Node n;
    n.faces = {0};
    m.parts[0].nodes.push_back(n);
    CHECK_THROWS_WITH_AS(write_model(m), doctest::Contains("facelist"), InputError);
  }
}

TEST_CASE("shp text form: text -> model -> text is exact, floats keep their bits") {
  const std::string text =
      "shp\n" + with(triangle_model(), "unread_04=1.5", "unread_04=#ff800001 eye=0.1,-0,16777217");
  const auto image = shp::assemble_model(text, "t.shp");
  const std::string printed = model_text(image, "t.shp");
  const auto again = shp::assemble_model(printed, "t.shp");
  CHECK(again == image);
  CHECK(model_text(write_model(shp_load(again)), "t.shp") == printed);
  CHECK(printed.find("unread_04=#ff800001") != std::string::npos);
  CHECK(printed.find("eye=0.1,-0,16777216") != std::string::npos);
  // A 28-byte vertex prints no counterpart: the field is absent.
  const std::string short_text = model_text(shp_image(triangle_model("28")), "t.shp");
  CHECK(short_text.find("counterpart") == std::string::npos);
}

TEST_CASE("shp text form: the assembler's errors name the line") {
  CHECK_THROWS_WITH_AS(
      shp::assemble_model("shp\nchunk 04 vertices size=32\n  vertex bogus=1\nend\n", "t.shp"),
      doctest::Contains("line 3: a vertex record has no field bogus"), InputError);
  CHECK_THROWS_WITH_AS(
      shp::assemble_model("shp\nchunk 04 vertices size=32\n  face\nend\n", "t.shp"),
      doctest::Contains("line 3"), InputError);
  CHECK_THROWS_WITH_AS(shp::assemble_model("shp\nchunk 00 header size=88\n", "t.shp"),
                       doctest::Contains("expected end"), InputError);
  CHECK_THROWS_WITH_AS(
      shp::assemble_model("shp\nchunk 04 vertices size=28\n  vertex raw@0x1c=01\nend\n", "t.shp"),
      doctest::Contains("run past"), InputError);
  CHECK_THROWS_AS(
      shp::assemble_model("shp\nchunk 00 header size=88\n  header version=-1\nend\n", "t.shp"),
      InputError);
}

TEST_CASE("shp check: indices are validated; each part's box is classified") {
  Model m = shp_load(shp_image(triangle_model()));
  CHECK(validate_model(m).empty());
  m.parts[0].levels[0].faces[0].vertices[2] = 3;
  m.parts[0].levels[0].faces[0].material = 4;
  m.parts[0].parent = 0;
  const auto problems = validate_model(m);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].find("parent 0") != std::string::npos);
  CHECK(problems[1].find("vertex 3 past the level's 3 vertices") != std::string::npos);
  CHECK(problems[2].find("material 4") != std::string::npos);

  Part p;
  Level level;
  for (auto pos : {std::array<float, 3>{-1, -2, -3}, std::array<float, 3>{4, 5, 6}}) {
    Vertex v;
    for (int a = 0; a < 3; ++a) v.position[a] = F32::of(pos[a]);
    level.vertices.push_back(v);
  }
  p.levels.push_back(level);
  CHECK(classify_box(p) == BoxKind::kZero);
  p.bbox_min = {F32::of(-1), F32::of(-2), F32::of(-3)};
  p.bbox_max = {F32::of(4), F32::of(5), F32::of(6)};
  CHECK(classify_box(p) == BoxKind::kAsStored);
  // A half turn about Z as the orientation: the box of the turned vertices.
  p.orientation = {F32::of(-1), {}, {}, {}, F32::of(-1), {}, {}, {}, F32::of(1)};
  p.bbox_min = {F32::of(-4), F32::of(-5), F32::of(-3)};
  p.bbox_max = {F32::of(1), F32::of(2), F32::of(6)};
  CHECK(classify_box(p) == BoxKind::kAfterOrientation);
  p.orientation = {};
  p.bbox_min = {F32::of(-2), F32::of(-1), F32::of(-3)};  // X and Y swapped
  p.bbox_max = {F32::of(5), F32::of(4), F32::of(6)};
  CHECK(classify_box(p) == BoxKind::kAxisSwapped);
  p.bbox_max[2] = F32::of(60);
  CHECK(classify_box(p) == BoxKind::kDifferent);
}

TEST_CASE("shp generator: deterministic, realistic sizes, every member loads and rewrites") {
  const auto a = generate_resource_hog(7, 12);
  CHECK(a == generate_resource_hog(7, 12));
  CHECK(a != generate_resource_hog(8, 12));
  const Hog hog = read_hog(a, "resource.hog");
  REQUIRE(hog.entries.size() == 12);
  size_t most_faces = 0;
  for (const HogEntry& e : hog.entries) {
    CHECK(starts_refpack(member_bytes(a, e)));
    const auto image = member_image(a, e, e.name);
    const Model m = load_model(image, e.name);
    CHECK(validate_model(m).empty());
    CHECK(write_model(m) == image);
    CHECK(!m.parts.empty());
    size_t faces = 0;
    for (const Part& p : m.parts) {
      CHECK(p.levels.size() >= 1);
      CHECK(p.levels.size() <= 4);
      faces += p.levels[0].faces.size();
    }
    most_faces = std::max(most_faces, faces);
  }
  CHECK(most_faces >= 200);
}

}  // namespace shp_writer_tests
