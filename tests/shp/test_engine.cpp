// The shp engine through the engine interface (interp/common/engine.h) without the command line:
// recognition by content, opening loose, RefPack and HOG members, a run's loader steps then
// faces then the end, the debugger's pauses into the end, knobs, containers, check and examples.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/engine.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "tests/shp/shp_fixture.h"

namespace shp_engine_tests {

using namespace shapevm;
using shapevm::testing::shp_image;
using shapevm::testing::triangle_model;

namespace {

EngineInput input_of(std::vector<uint8_t> bytes, const std::string& path,
                     std::optional<std::string> member = std::nullopt) {
  EngineInput in;
  in.path = path;
  in.spec = member ? path + ":" + *member : path;
  in.member = std::move(member);
  in.bytes = std::move(bytes);
  return in;
}

struct Recorder : EventSink {
  std::vector<std::string> order;  // "op", "face", "end"
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent&) override { order.push_back("op"); }
  void on_face(const FaceEvent&) override { order.push_back("face"); }
  void on_end(const EndEvent& e) override {
    order.push_back("end");
    clean = e.clean;
  }
  bool clean = false;
};

}  // namespace

TEST_CASE("shp engine: recognised by content: a chunk stream, a RefPack stream, a HOG of models") {
  const auto engine = shp::make_engine();
  const auto image = shp_image(triangle_model());
  CHECK(engine->recognises(image));
  CHECK(engine->recognises(shp::refpack_compress_literal(image)));
  CHECK(engine->recognises(shp::write_hog({{"m.shp", image}})));
  CHECK(!engine->recognises(shp::write_hog({{"readme.txt", {'h', 'i'}}})));
  CHECK(!engine->recognises(std::vector<uint8_t>{'E', 'A', 'L', 'I', 'B', 0, 0, 0}));
  CHECK(engine->recognises_text("; comment\nshp\nend\n"));
  CHECK(!engine->recognises_text("model 0 x\n"));
}

TEST_CASE(
    "shp engine: a RefPack model is recognised by its first commands; opening it checks all") {
  const auto engine = shp::make_engine();
  const auto image = shp_image(triangle_model());
  auto packed = shp::refpack_compress_literal(image);
  REQUIRE(packed.size() > 8);
  // The end command's literal count raised: the stream runs past its input after the head.
  const size_t end_command = packed.size() - 1 - (packed.back() & 3);
  REQUIRE(packed[end_command] >= 0xFC);
  packed[end_command] = 0xFF;
  packed.resize(end_command + 1);
  CHECK(engine->recognises(packed));
  CHECK(engine->recognises(shp::write_hog({{"m.shp", packed}})));
  try {
    (void)engine->open(EngineInput{"m.SHP", "m.SHP", std::nullopt, SharedBytes(packed)}, {});
    FAIL("a broken stream opened");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("RefPack") != std::string::npos);
    CHECK(e.has_offset());
  }
  // Broken in its first command: no model.
  auto first_broken = shp::refpack_compress_literal(image);
  first_broken[5] = 0x00;  // a copy from before the output's start
  first_broken[6] = 0x10;
  CHECK(!engine->recognises(first_broken));
}

TEST_CASE("shp engine: a run is the loader's steps, then the faces, then the end") {
  const auto engine = shp::make_engine();
  auto program = engine->open(input_of(shp_image(triangle_model()), "tri.shp"), {});
  Recorder rec;
  const RunOutcome out = program->run({}, rec, nullptr);
  CHECK(out.clean);
  CHECK(out.faces == 1);
  // 12 loader requests, then drawing's steps (draw_part, draw_face: docs/shp-drawing.md).
  CHECK(out.ops == 14);
  REQUIRE(rec.order.size() == 16);
  CHECK(rec.order[11] == "op");
  CHECK(rec.order[13] == "op");
  CHECK(rec.order[14] == "face");
  CHECK(rec.order[15] == "end");
  CHECK(rec.clean);
  // --max-steps stops the loader: an unclean end.
  StateRequest tight;
  tight.set_option("max-steps", "3");
  Recorder stopped;
  const RunOutcome budget = program->run(tight, stopped, nullptr);
  CHECK(!budget.clean);
  CHECK(budget.reason == "budget: steps");
  CHECK(stopped.order.back() == "end");
}

TEST_CASE("shp engine: the debugger pauses before each request and once at the end") {
  const auto engine = shp::make_engine();
  auto program = engine->open(input_of(shp_image(triangle_model()), "tri.shp"), {});
  struct Pauses : PauseHandler {
    std::vector<std::string> mnemonics;
    bool ended = false;
    bool pause(const PausePoint& p) override {
      mnemonics.emplace_back(p.mnemonic());
      if (p.ended()) ended = true;
      return false;
    }
  } pauses;
  EventSink none;
  (void)program->run({}, none, &pauses);
  // 12 requests, drawing's part and face, the end.
  REQUIRE(pauses.mnemonics.size() == 15);
  CHECK(pauses.mnemonics.front() == "take 00 header");
  CHECK(pauses.mnemonics[8] == "take 04 vertices");
  CHECK(pauses.mnemonics[12].rfind("draw_part", 0) == 0);
  CHECK(pauses.mnemonics[13].rfind("draw_face", 0) == 0);
  CHECK(pauses.mnemonics.back() == "end");
  CHECK(pauses.ended);
  // The listing lines carry the chunk offsets the pauses stop at.
  const auto lines = program->listing_lines();
  CHECK(std::any_of(lines.begin(), lines.end(), [](const ListingLine& l) {
    return l.offset == 0u && l.text.rfind("chunk 00", 0) == 0;
  }));
}

TEST_CASE("shp engine: a HOG's members, notes, extraction and examples") {
  const auto engine = shp::make_engine();
  const auto image = shp_image(triangle_model());
  const auto hog = shp::write_hog(
      {{"a.SHP", shp::refpack_compress_literal(image)}, {"A.shp", image}, {"b.shp", image}});
  const EngineInput in = input_of(hog, "resource.hog");
  CHECK(engine->is_container(hog));
  const auto members = engine->members(in);
  REQUIRE(members.size() == 3);
  CHECK(members[0].compression == "refpack");
  CHECK(members[0].size == std::optional<uint64_t>(image.size()));
  CHECK(members[1].compression == "stored");
  CHECK(engine->extract(in, members[0]) == image);
  const auto notes = engine->container_notes(in);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("#0, #1") != std::string::npos);
  const auto examples = engine->examples(in);
  REQUIRE(examples.size() == 3);
  CHECK(examples[0].stem == "shp_a");
  CHECK(examples[1].stem == "shp_A");
  CHECK(examples[2].stem == "shp_b");
  // The whole HOG opens for info only.
  auto whole = engine->open(in, {});
  CHECK(!whole->runnable());
  CHECK(whole->info_text().find("3 members") != std::string::npos);
  EventSink none;
  CHECK_THROWS_AS(whole->run({}, none, nullptr), InputError);
  // A member by name and by index.
  auto member = engine->open(input_of(hog, "resource.hog", "b.shp"), {});
  CHECK(member->source() == "resource.hog:b.shp");
  CHECK_THROWS_AS(engine->open(input_of(hog, "resource.hog", "zzz"), {}), InputError);
}

TEST_CASE("shp engine: check validates, rewrites, and names the stored boxes' classes") {
  const auto engine = shp::make_engine();
  const CheckResult r = engine->check(input_of(shp_image(triangle_model()), "tri.shp"));
  CHECK(r.original == r.rewritten);
  CHECK(r.writer.find("stored boxes: 1 zero") != std::string::npos);
  // The assembler refuses what the loader refuses: a part of ten levels.
  std::string ten =
      "shp\nchunk 00 header size=4\n  header\nchunk 01 parts size=4\n  part\n"
      "chunk 02 levels size=4\n";
  for (int i = 0; i < 10; ++i) ten += "  level\n";
  ten += "end\n";
  CHECK_THROWS_WITH_AS(engine->assemble(ten, "x.shpt", "x.shp"),
                       doctest::Contains("at most 9 levels"), InputError);
}

}  // namespace shp_engine_tests
