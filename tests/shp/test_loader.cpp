// model_load as the program it is (docs/shp.md, "The loader"): the request order, the forward
// scan from the cursor, the terminator read by its tag alone, record sizes shorter and longer
// than the engine's structs, and the errors for malformed streams.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/loader.h"
#include "interp/shp/records.h"
#include "tests/shp/shp_fixture.h"

namespace shp_loader_tests {

using namespace shapevm;
using namespace shapevm::shp;
using shapevm::testing::ChunkBytes;
using shapevm::testing::shp_image;
using shapevm::testing::shp_load;
using shapevm::testing::triangle_model;

namespace {

// Records every model_take_chunk step's fields.
struct StepLog : EventSink {
  struct Step {
    int64_t tag, hit, before, after, records, copied, record_size;
  };
  std::vector<Step> steps;
  std::vector<std::string> errors;
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent& e) override {
    CHECK(e.name == "model_take_chunk");
    CHECK(e.handler_address == 0x004A2EB0u);
    Step s{};
    for (const EventField& f : e.fields) {
      if (f.name == "tag") s.tag = f.value;
      if (f.name == "hit") s.hit = f.value;
      if (f.name == "cursor_before") s.before = f.value;
      if (f.name == "cursor_after") s.after = f.value;
      if (f.name == "records") s.records = f.value;
      if (f.name == "bytes_copied_per_record") s.copied = f.value;
      if (f.name == "record_size") s.record_size = f.value;
    }
    CHECK(e.offset == static_cast<uint32_t>(s.before));
    steps.push_back(s);
  }
  void on_diagnostic(const DiagnosticEvent& d) override {
    if (d.level == DiagnosticLevel::kError) errors.push_back(d.message);
  }
};

StepLog run(const std::vector<uint8_t>& image, uint64_t max_steps = 1'000'000) {
  StepLog log;
  LoadOptions o;
  o.sink = &log;
  o.max_steps = max_steps;
  o.source = "test.shp";
  const LoadOutcome out = run_model_load(image, o);
  if (!out.clean) CHECK(!log.errors.empty());
  return log;
}

std::vector<int64_t> tags_of(const StepLog& log) {
  std::vector<int64_t> out;
  for (const auto& s : log.steps) out.push_back(s.tag);
  return out;
}

// A model of two parts exercising every request: part 0 has two levels, two nodes, a clip and a
// point list; part 1 nothing but its empty chunks.
std::string full_model() {
  return R"(chunk 00 header size=88
  header version=107
chunk 01 parts size=312
  part name="Hull" parent=-1
  part name="Turret" parent=0
chunk 02 levels size=4
  level distance=5000
  level distance=10000
chunk 07 nodes size=72
  node children=1,-1
  node
chunk 09 attachments size=124
  attachment kind=3 gun_type=2
chunk 0A clips size=24
  clip length=10 mode=2 name="fire"
chunk 0D pointlists size=4
  pointlist kind=6
chunk 04 vertices size=32
  vertex position=0,0,0 counterpart=0
chunk 03 faces size=80
  face vertices=0,0,0
chunk 06 materials size=64
chunk 04 vertices size=32
  vertex position=1,1,1
chunk 03 faces size=80
chunk 06 materials size=64
chunk 08 facelist size=4
chunk 08 facelist size=4
  faceref face=0
chunk 0B keyframes size=28
  keyframe time=0
  keyframe time=10 angles=0,1.5,0
chunk 0C events size=12
  event time=5
chunk 0E points size=20
  point index=0 position=1,2,3
chunk 02 levels size=4
chunk 07 nodes size=72
chunk 09 attachments size=100
chunk 0A clips size=24
chunk 0D pointlists size=4
chunk 10 arcs size=76
  arc
end
)";
}

}  // namespace

TEST_CASE("SL-07: requests follow the loader's order, per part, per level, node, clip, list") {
  const StepLog log = run(shp_image(full_model()));
  // 00 01 | part 0: 02 07 09 0A 0D 0F, 2 levels x (04 03 06), 2 x 08, clip 0B 0C, list 0E |
  // part 1: 02 07 09 0A 0D 0F | 10
  const std::vector<int64_t> expected = {0x00, 0x01, 0x02, 0x07, 0x09, 0x0A, 0x0D, 0x0F, 0x04,
                                         0x03, 0x06, 0x04, 0x03, 0x06, 0x08, 0x08, 0x0B, 0x0C,
                                         0x0E, 0x02, 0x07, 0x09, 0x0A, 0x0D, 0x0F, 0x10};
  CHECK(tags_of(log) == expected);
  const Model m = shp_load(shp_image(full_model()));
  REQUIRE(m.parts.size() == 2);
  CHECK(m.parts[0].levels.size() == 2);
  CHECK(m.parts[0].levels[1].vertices[0].position[2].value() == 1.0f);
  CHECK(m.parts[0].nodes[1].faces == std::vector<uint32_t>{0});
  CHECK(m.parts[0].clips[0].keyframes.size() == 2);
  CHECK(m.parts[0].clips[0].events.size() == 1);
  CHECK(m.parts[0].point_lists[0].points[0].position[1].value() == 2.0f);
  CHECK(m.parts[0].attachments[0].gun_type == 2);
  CHECK(m.parts[1].name == "Turret");
  CHECK(m.arcs.size() == 1);
}

TEST_CASE("SL-06: a miss leaves the cursor unchanged; a hit of no records moves past the chunk") {
  const StepLog log = run(shp_image(triangle_model()));
  // The trigger polygon request (0F) misses: the file has none.
  const auto miss =
      std::find_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.tag == 0x0F; });
  REQUIRE(miss != log.steps.end());
  CHECK(miss->hit == 0);
  CHECK(miss->after == miss->before);
  // The node request (07) hits a chunk of no records and moves 6 bytes on.
  const auto nodes =
      std::find_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.tag == 0x07; });
  REQUIRE(nodes != log.steps.end());
  CHECK(nodes->hit == 1);
  CHECK(nodes->records == 0);
  CHECK(nodes->after == nodes->before + 6);
}

TEST_CASE("SL-06: an omitted chunk is skipped and the next request still finds what follows") {
  std::string text = triangle_model();
  // Leave out the attachment chunk: the clip request still finds its chunk.
  text.erase(text.find("chunk 09 attachments size=100\n"),
             std::string("chunk 09 attachments size=100\n").size());
  const Model m = shp_load(shp_image(text));
  CHECK(!m.record_sizes.of(0x09).has_value());
  CHECK(m.record_sizes.of(0x0A) == std::optional<uint16_t>(24));
  CHECK(m.parts[0].levels[0].faces.size() == 1);
}

TEST_CASE("SL-06: a chunk out of order is not found (a miss never rewinds)") {
  // The material chunk stands before the vertices: the vertex request passes over it, so the
  // material request after the faces finds none.
  std::string text = triangle_model();
  const std::string materials = "chunk 06 materials size=64\n  material texture=\"hull01\"\n";
  text.erase(text.find(materials), materials.size());
  text.insert(text.find("chunk 04 vertices"), materials);
  const StepLog log = run(shp_image(text));
  const auto material =
      std::find_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.tag == 0x06; });
  REQUIRE(material != log.steps.end());
  CHECK(material->hit == 0);
  const Model m = shp_load(shp_image(text));
  CHECK(m.parts[0].levels[0].materials.empty());
  CHECK(m.parts[0].levels[0].vertices.size() == 3);
  // A rewrite drops it, and says so.
  CHECK(!m.normalisations.empty());
}

TEST_CASE("SL-08: a chunk of a tag the loader never asks for is passed over and kept") {
  std::string text = triangle_model();
  text.insert(text.find("chunk 04 vertices"), "chunk 05 size=2\n  record tail=abcd\n");
  text.insert(text.find("chunk 01 parts"), "chunk 1234 size=0\n");
  const Model m = shp_load(shp_image(text));
  CHECK(m.parts[0].levels[0].vertices.size() == 3);
  REQUIRE(m.unnamed_chunks.size() == 2);
  CHECK(m.unnamed_chunks[0].tag == 0x1234);
  CHECK(m.unnamed_chunks[0].named_before == 1);
  CHECK(m.unnamed_chunks[1].tag == 0x05);
  CHECK(m.unnamed_chunks[1].records == std::vector<uint8_t>{0xAB, 0xCD});
}

TEST_CASE("SL-05: the terminator is read by its tag alone: three forms load alike") {
  const std::vector<uint8_t> normal = shp_image(triangle_model());
  std::string garbage = triangle_model();
  garbage.replace(garbage.rfind("end"), 3, "end size=65535 count=65535");
  std::string cut = triangle_model();
  cut.replace(cut.rfind("end"), 3, "end cut=2");
  const auto a = shp_image(garbage);
  const auto b = shp_image(cut);
  CHECK(a.size() == normal.size());
  CHECK(b.size() == normal.size() - 4);
  CHECK(b[b.size() - 2] == 0xFF);
  const Model mn = shp_load(normal), ma = shp_load(a), mb = shp_load(b);
  CHECK(tags_of(run(a)) == tags_of(run(normal)));
  CHECK(tags_of(run(b)) == tags_of(run(normal)));
  CHECK(ma.parts[0].levels[0].faces.size() == 1);
  CHECK(mb.parts[0].levels[0].faces.size() == 1);
  CHECK(mn.normalisations.empty());
  CHECK(!ma.normalisations.empty());  // the rewrite zeroes its size and count
  CHECK(!mb.normalisations.empty());  // the rewrite writes the whole terminator
}

TEST_CASE("SL-04: chunks are {u16 tag, u16 record size, u16 count} + records, little-endian") {
  ChunkBytes c;
  c.chunk(0x00, 4, 1, {107, 0, 0, 0}).chunk(0x01, 0x40, 0).end();
  const Model m = shp_load(c.bytes);
  REQUIRE(m.header.has_value());
  CHECK(m.header->version == 107);
  CHECK(m.header->image.reached == 4);
  CHECK(m.record_sizes.of(0x00) == std::optional<uint16_t>(4));
  CHECK(m.record_sizes.of(0x01) == std::optional<uint16_t>(0x40));
}

TEST_CASE("SL-09: a 28-byte vertex has no counterpart; a short record is zero-filled") {
  const Model m = shp_load(shp_image(triangle_model("28")));
  const Vertex& v = m.parts[0].levels[0].vertices[1];
  CHECK(v.image.reached == 28);
  CHECK(!v.counterpart_if_present().has_value());
  CHECK(v.position[0].value() == 100.0f);
  CHECK(v.unread_18 == 1);
  const Model whole = shp_load(shp_image(triangle_model("32")));
  CHECK(whole.parts[0].levels[0].vertices[1].counterpart_if_present() ==
        std::optional<int32_t>(-1));
}

TEST_CASE("SL-09: a 72-byte face stops before the polygon fields; an 80-byte face has them") {
  const Model short_faces = shp_load(shp_image(triangle_model("32", "72")));
  const Face& f = short_faces.parts[0].levels[0].faces[0];
  CHECK(!f.has_polygon_fields());
  CHECK(f.polygon == 0);
  CHECK(f.unread_3c == 7);
  CHECK(f.vertices == std::array<uint32_t, 3>{0, 1, 2});
  const Model full = shp_load(shp_image(triangle_model("32", "80")));
  CHECK(full.parts[0].levels[0].faces[0].has_polygon_fields());
}

TEST_CASE("SL-09: a record longer than the struct copies only the struct's bytes") {
  StepLog log = run(shp_image(R"(chunk 00 header size=200
  header version=107 tail=ff
end
)"));
  REQUIRE(!log.steps.empty());
  CHECK(log.steps[0].record_size == 200);
  CHECK(log.steps[0].copied == 0x68);
}

TEST_CASE("SL-10: the struct sizes the loader asks for") {
  const StepLog log = run(shp_image(full_model()));
  for (const auto& s : log.steps) CHECK(s.tag < 0x11);
  CHECK(struct_size(0x00) == 0x68);
  CHECK(struct_size(0x01) == 0x258);
  CHECK(struct_size(0x02) == 0x1C);
  CHECK(struct_size(0x03) == 0x50);
  CHECK(struct_size(0x04) == 0x20);
  CHECK(struct_size(0x06) == 0x48);
  CHECK(struct_size(0x07) == 0x5C);
  CHECK(struct_size(0x08) == 4);
  CHECK(struct_size(0x09) == 0x7C);
  CHECK(struct_size(0x0A) == 0x28);
  CHECK(struct_size(0x0B) == 0x1C);
  CHECK(struct_size(0x0C) == 0x0C);
  CHECK(struct_size(0x0D) == 0x0C);
  CHECK(struct_size(0x0E) == 0x14);
  CHECK(struct_size(0x0F) == 0x54);
  CHECK(struct_size(0x10) == 0x4C);
  // The step's fields carry it: a 32-byte vertex copies 32 of 32.
  const auto v =
      std::find_if(log.steps.begin(), log.steps.end(), [](const auto& s) { return s.tag == 0x04; });
  CHECK(v->copied == 32);
}

TEST_CASE("SL-11: attachments of 136 and 168 bytes keep their tails past the 124 bytes") {
  for (const int size : {136, 168}) {
    const std::string tail(2 * (size - 124), 'a');
    std::string text = triangle_model();
    text.replace(text.find("chunk 09 attachments size=100"),
                 std::string("chunk 09 attachments size=100").size(),
                 "chunk 09 attachments size=" + std::to_string(size) +
                     "\n  attachment kind=4 brightness=0.5 tail=" + tail);
    const Model m = shp_load(shp_image(text));
    REQUIRE(m.parts[0].attachments.size() == 1);
    const Attachment& a = m.parts[0].attachments[0];
    CHECK(a.image.reached == 124);
    CHECK(a.tail.size() == static_cast<size_t>(size - 124));
    CHECK(a.tail[0] == 0xAA);
    CHECK(a.brightness.value() == 0.5f);
  }
}

TEST_CASE("SL-22: a node with a face list is a leaf whatever its child fields hold") {
  const Model m = shp_load(shp_image(R"(chunk 00 header size=88
chunk 01 parts size=312
  part name="Hull" parent=-1
chunk 02 levels size=4
  level
chunk 07 nodes size=72
  node children=1,2
  node children=77,-5
  node children=-1,-1
chunk 04 vertices size=32
chunk 03 faces size=80
  face
chunk 06 materials size=64
chunk 08 facelist size=4
chunk 08 facelist size=4
  faceref face=0
chunk 08 facelist size=4
  faceref face=0
end
)"));
  const Part& p = m.parts[0];
  REQUIRE(p.nodes.size() == 3);
  CHECK(!p.nodes[0].leaf());
  CHECK(p.nodes[1].leaf());  // its children hold 77, -5: never read
  CHECK(p.nodes[2].leaf());
  // 64-byte records have no child fields.
  const Model short_nodes = shp_load(shp_image(R"(chunk 00 header size=88
chunk 01 parts size=312
  part parent=-1
chunk 02 levels size=4
  level
chunk 07 nodes size=64
  node
chunk 04 vertices size=32
chunk 03 faces size=80
  face
chunk 06 materials size=64
chunk 08 facelist size=4
  faceref face=0
end
)"));
  CHECK(!short_nodes.parts[0].nodes[0].has_children_fields());
}

TEST_CASE("SL-23: an 8-byte clip stops two bytes into its name") {
  const Model m = shp_load(shp_image(R"(chunk 00 header size=88
chunk 01 parts size=312
  part parent=-1
chunk 0A clips size=8
  clip length=40 mode=2 name="st"
chunk 0B keyframes size=28
chunk 0C events size=12
end
)"));
  const Clip& c = m.parts[0].clips[0];
  CHECK(c.image.reached == 8);
  CHECK(c.length == 40);
  CHECK(c.mode == 2);
  CHECK(c.name == "st");
}

TEST_CASE("SL-24: a 12-byte firing arc has no mask (reads as zero)") {
  const Model m = shp_load(shp_image(R"(chunk 00 header size=88
chunk 01 parts size=312
chunk 10 arcs size=12
  arc unread_00=1,2,3
end
)"));
  REQUIRE(m.arcs.size() == 1);
  CHECK(!m.arcs[0].has_mask());
  CHECK(m.arcs[0].mask[0] == 0);
  CHECK(m.arcs[0].unread_00[2].value() == 3.0f);
}

TEST_CASE("shp loader: malformed streams are InputErrors with file, offset and expectation") {
  // A chunk header cut short.
  ChunkBytes cut;
  cut.chunk(0, 4, 1).put16(0x01);
  cut.put16(312);
  try {
    (void)shp_load(cut.bytes);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.source() == "test.shp");
    CHECK(e.offset() == 10);
    CHECK(std::string(e.what()).find("chunk header") != std::string::npos);
  }
  // Records past the end of the file.
  ChunkBytes past;
  past.chunk(0, 4, 1).put16(0x01);
  past.put16(312);
  past.put16(3);
  try {
    (void)shp_load(past.bytes);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.offset() == 10);
    CHECK(std::string(e.what()).find("3 records of 312 bytes") != std::string::npos);
  }
  // No terminator.
  ChunkBytes open;
  open.chunk(0, 4, 1).chunk(1, 312, 0);
  try {
    (void)shp_load(open.bytes);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.offset() == open.bytes.size());
    CHECK(std::string(e.what()).find("terminator") != std::string::npos);
  }
  // Too many levels for a part.
  ChunkBytes levels;
  levels.chunk(0, 4, 1).chunk(1, 312, 1).chunk(2, 4, 10).end();
  CHECK_THROWS_AS(shp_load(levels.bytes), InputError);
}

TEST_CASE("shp loader: in a run, bad input is an error diagnostic and an unclean end") {
  ChunkBytes open;
  open.chunk(0, 4, 1).chunk(1, 312, 0);
  StepLog log;
  LoadOptions o;
  o.sink = &log;
  o.source = "test.shp";
  const LoadOutcome out = run_model_load(open.bytes, o);
  CHECK(!out.clean);
  REQUIRE(log.errors.size() == 1);
  CHECK(log.errors[0].find("test.shp: offset 0x") != std::string::npos);
}

TEST_CASE("shp loader: the step budget stops a run that scans too long") {
  const auto image = shp_image(full_model());
  LoadOptions o;
  o.max_steps = 5;
  o.source = "test.shp";
  const LoadOutcome out = run_model_load(image, o);
  CHECK(!out.clean);
  CHECK(out.reason == "budget: steps");
  CHECK_THROWS_AS(load_model(image, "test.shp", 5), InputError);
}

TEST_CASE("shp loader: the debugger pauses before every request and can stop the run") {
  struct Stopper : PauseHandler {
    std::vector<std::string> mnemonics;
    std::vector<int64_t> cursors;
    bool pause(const PausePoint& p) override {
      mnemonics.emplace_back(p.mnemonic());
      cursors.push_back(*p.read("cursor"));
      return mnemonics.size() == 3;
    }
  } stopper;
  LoadOptions o;
  o.pause = &stopper;
  o.source = "test.shp";
  const LoadOutcome out = run_model_load(shp_image(triangle_model()), o);
  CHECK(out.clean);
  CHECK(out.stopped);
  CHECK(out.reason == std::string(kStoppedByDebugger));
  CHECK(stopper.mnemonics ==
        std::vector<std::string>{"take 00 header", "take 01 parts", "take 02 levels"});
  CHECK(stopper.cursors[0] == 0);
  CHECK(stopper.cursors[1] == 6 + 88);
}

TEST_CASE("shp loader: records of zero bytes cannot make a small file allocate without limit") {
  // Header, one part, then a level chunk of 9 levels and vertex chunks of 65535 zero-byte records
  // each: 9 x 65535 vertices from a file of a few hundred bytes... repeated past the limit by
  // many parts.
  ChunkBytes c;
  c.chunk(0, 4, 1).chunk(1, 0, 65535);
  for (int p = 0; p < 8; ++p) {
    c.chunk(2, 0, 9);
    for (int l = 0; l < 9; ++l) c.chunk(4, 0, 65535);
  }
  c.end();
  try {
    (void)shp_load(c.bytes);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("records in a model") != std::string::npos);
  }
}

}  // namespace shp_loader_tests
