// The Apache engine through the engine interface (interp/common/engine.h): recognition by
// content, knobs and state validation, runs with the debugger's pause handler, the viewer model,
// the archive as a container, the writers and the bundled examples' names.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/apache/assembler.h"
#include "interp/apache/engine.h"
#include "interp/apache/interpreter.h"
#include "interp/apache/pause.h"
#include "interp/apache/session.h"
#include "interp/common/registry.h"
#include "tests/apache/apache_fixture.h"

namespace apache_engine_tests {

using namespace shapevm;
using shapevm::testing::box_vertices;

namespace {

// Record 0 tests anim three ways (choose bit 0, select bits 4-5 with two cases, ifmask bit 1),
// attaches record 1 and has a gameplay slot (attachment 1), and has LOD record 2 beyond 30000.
std::string vehicle_text() {
  return "model 0 tank \"Vehicle\"\n  encoding short\n  lod 30000 next 2\n  properties 1\n" +
         box_vertices() + R"(  normal 0 0 -127
  attach 1 0 100 0
  attach 0 0 0 100
program
  face polygon colour=10 : 3 2 1 0
  choose 0x1 set=on clear=off continue=body
on:
  face polygon colour=11 : 6 7 4 5
  ret
off:
  face polygon colour=12 : 6 7 4 5
  ret
body:
  attached 0
  attached 1
  select shift=4 mask=3 cases=a,b continue=tail
a:
  face polygon colour=13 : 2 6 5 1
  ret
b:
  face polygon colour=14 : 2 6 5 1
  ret
tail:
  ifmask 0x2 branch=extra continue=done
extra:
  face polygon colour=15 : 7 3 0 4
  ret
done:
  ret
end

model 1 turret "Turret"
  encoding short
)" + box_vertices() +
         R"(program
  face polygon colour=20 : 3 2 1 0
  ret
end

model 2 tank_lo "Vehicle, low detail"
  encoding short
)" + box_vertices() +
         R"(program
  face polygon colour=10 : 3 2 1 0
  ret
end
)";
}

std::string crate_text() {
  return "texture 1 type 2 checker 76 90 8\ntexture 2 type 1 solid 5\nmodel 0 crate \"Crate\"\n" +
         box_vertices() + R"(program
  face texture texture=1 colour=76 : 3/0/0 2/63/0 1/63/63 0/0/63
  ret
end
)";
}

const Engine& engine() {
  static const std::unique_ptr<Engine> e = apache::make_engine();
  return *e;
}

EngineInput archive_input(const std::vector<uint8_t>& bytes, std::optional<std::string> member,
                          const std::string& path = "nowhere/vehicle/3DOBJS.BIN") {
  EngineInput in;
  in.path = path;
  in.member = std::move(member);
  in.spec = path + (in.member ? ":" + *in.member : "");
  in.bytes = bytes;
  return in;
}

std::unique_ptr<Program> open_vehicle(std::optional<std::string> member = "#0") {
  static const apache::AssembledArchive assembled = apache::assemble_apache(vehicle_text(), "v");
  return engine().open(archive_input(assembled.archive, std::move(member)), {});
}

std::span<const uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct NullSink : EventSink {};

struct CountingSink : EventSink {
  uint64_t ops = 0;
  EndEvent end;
  bool wants_ops() const override { return true; }
  void on_op(const OpEvent&) override { ++ops; }
  void on_end(const EndEvent& e) override { end = e; }
};

// Records every pause point; returns true (stop) at pause number `stop_at` (1-based, 0 = never).
struct Recorder : PauseHandler {
  uint64_t stop_at = 0;
  std::vector<Snapshot> snapshots;
  std::vector<bool> ended;
  std::vector<std::string> mnemonics;
  std::vector<std::optional<int64_t>> anim, pool_x;
  bool pause(const PausePoint& p) override {
    snapshots.push_back(p.capture());
    ended.push_back(p.ended());
    mnemonics.emplace_back(p.mnemonic());
    anim.push_back(p.read("anim"));
    pool_x.push_back(p.read("vertices[0].x"));
    CHECK_FALSE(p.native());
    CHECK_FALSE(p.native_offset().has_value());
    return stop_at != 0 && snapshots.size() == stop_at;
  }
};

StateRequest request_with(std::vector<std::string> sets, std::vector<Setting> options = {}) {
  StateRequest r;
  r.sets = std::move(sets);
  r.options = std::move(options);
  return r;
}

}  // namespace

TEST_CASE("apache engine: name, title and recognition by content") {
  CHECK(engine().name() == "apache");
  CHECK(engine().title() == "Apache");
  const auto vehicle = apache::assemble_apache(vehicle_text(), "v.apa");
  const auto crate = apache::assemble_apache(crate_text(), "c.apa");
  CHECK(engine().recognises(vehicle.archive));
  CHECK(engine().recognises(crate.archive));
  CHECK(engine().is_container(vehicle.archive));
  // Its companions are not archives: the texture archive shares the offset table.
  REQUIRE_FALSE(crate.textures.empty());
  CHECK_FALSE(engine().recognises(crate.textures));
  CHECK_FALSE(engine().recognises(crate.palette));
  CHECK_FALSE(engine().recognises(vehicle.palette));
  // Other engines' files and noise.
  std::vector<uint8_t> ealib(4096, 0);
  std::copy_n("EALIB", 5, ealib.begin());
  CHECK_FALSE(engine().recognises(ealib));
  std::vector<uint8_t> pe(4096, 0);
  pe[0] = 'M';
  pe[1] = 'Z';
  CHECK_FALSE(engine().recognises(pe));
  const std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13,
                                    'I',  'H', 'D', 'R', 0,    0,    1,    0,    0, 0, 1, 0};
  CHECK_FALSE(engine().recognises(png));
  CHECK_FALSE(engine().recognises(std::vector<uint8_t>{}));
  std::mt19937 rng(7);
  for (int i = 0; i < 50; ++i) {
    std::vector<uint8_t> noise(512 + static_cast<size_t>(i) * 37);
    for (auto& b : noise) b = static_cast<uint8_t>(rng());
    CHECK_FALSE(engine().recognises(noise));
  }
  // Text is never an archive.
  CHECK_FALSE(engine().recognises(as_bytes(vehicle_text())));
}

TEST_CASE("apache engine: assembler text is recognised, FA's is not") {
  CHECK(engine().recognises_text(vehicle_text()));
  CHECK(engine().recognises_text(crate_text()));
  CHECK(engine().recognises_text(
      "; comment first\n\ncolour 1 2 3 4\nmodel 0 x\nprogram\nret\nend\n"));
  CHECK_FALSE(engine().recognises_text(".image base=0x0 code_va=0x1000\n.header radius=1\n"));
  CHECK_FALSE(engine().recognises_text("; only a comment\n"));
  CHECK_FALSE(engine().recognises_text("hello world\nmodel 0 x\n"));
#ifdef SHAPEVM_SOURCE_DIR
  for (const char* name : {"building", "crate", "tower", "vehicle"}) {
    const std::string text =
        read_text(std::string(SHAPEVM_SOURCE_DIR) + "/examples/apache/" + name + ".apa");
    REQUIRE_FALSE(text.empty());
    CHECK(engine().recognises_text(text));
    CHECK(&engine_for_text(text, name) == find_engine("apache"));
    // The example's archive is recognised; its palette and textures are not.
    const auto assembled = apache::assemble_apache(text, name);
    CHECK(engine().recognises(assembled.archive));
    CHECK_FALSE(engine().recognises(assembled.palette));
    if (!assembled.textures.empty()) CHECK_FALSE(engine().recognises(assembled.textures));
  }
  for (const char* name : {"hangar", "jet", "radar", "tank"}) {
    const std::string text =
        read_text(std::string(SHAPEVM_SOURCE_DIR) + "/examples/fa/" + name + ".fas");
    REQUIRE_FALSE(text.empty());
    CHECK_FALSE(engine().recognises_text(text));
  }
#endif
  // Through the registry: the archive's bytes are Apache's alone.
  const auto vehicle = apache::assemble_apache(vehicle_text(), "v.apa");
  CHECK(engine_for(archive_input(vehicle.archive, std::nullopt)).name() == "apache");
}

TEST_CASE("apache engine: knobs and state validation") {
  const auto knobs = engine().knobs();
  auto find = [&](const std::vector<Knob>& list, const std::string& name, bool option) {
    return std::find_if(list.begin(), list.end(),
                        [&](const Knob& k) { return k.name == name && k.option == option; });
  };
  for (const char* name : {"lod", "camera", "max-steps", "max-depth"})
    CHECK(find(knobs, name, true) != knobs.end());
  CHECK(find(knobs, "max-steps", true)->default_value == 1'000'000);
  CHECK(find(knobs, "max-depth", true)->default_value == 64);
  for (const char* name : {"anim", "lod", "light", "shadows", "ground", "cloud", "receiver",
                           "receiver_heading", "gouraud"})
    CHECK(find(knobs, name, false) != knobs.end());
  const auto slot = find(knobs, "slot", false);
  REQUIRE(slot != knobs.end());
  CHECK(slot->prefix);
  for (const Knob& k : knobs) CHECK_FALSE(k.help.empty());

  const auto program = open_vehicle();
  const auto pk = program->knobs();
  // The file's own inputs: anim's tested values and the gameplay slot.
  CHECK(find(pk, "anim", false)->values ==
        std::vector<int64_t>{0x1, 0x2, 0x3, 0x10, 0x11, 0x12, 0x13});
  const auto slot1 = find(pk, "slot1", false);
  REQUIRE(slot1 != pk.end());
  CHECK(slot1->from_file);

  CHECK_NOTHROW(validate_state(*program, request_with({"anim=3", "slot1=2", "slot7=1"},
                                                      {{"lod", "1"}, {"camera", "900,10,5"}})));
  try {
    validate_state(*program, request_with({"anmi=3"}));
    FAIL("an unknown --set name was taken");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("closest") != std::string::npos);
    CHECK(std::string(e.what()).find("anim") != std::string::npos);
  }
  CHECK_THROWS_AS(validate_state(*program, request_with({}, {{"merged", "1"}})), InputError);
  CHECK_THROWS_AS(validate_state(*program, request_with({}, {{"frame", "3"}})), InputError);
  // run() refuses what validation would.
  NullSink sink;
  CHECK_THROWS_AS(program->run(request_with({}, {{"merged", "1"}}), sink), InputError);
  CHECK_THROWS_AS(program->run(request_with({"anim=x"}), sink), InputError);
  // state_json follows the request.
  const auto j = program->state_json(request_with({"anim=3", "slot1=2"}, {{"lod", "1"}}));
  CHECK(j["anim"] == 3);
  CHECK(j["lod"] == 1);
  CHECK(j["slots"]["1"] == 2);
}

TEST_CASE("apache engine: a run pauses before every opcode and once at the end") {
  const auto program = open_vehicle();
  CHECK(program->runnable());
  CHECK(program->engine() == "apache");
  CHECK(program->source() == "nowhere/vehicle/3DOBJS.BIN:#0");
  CHECK(program->summary() == "nowhere/vehicle/3DOBJS.BIN:#0 \"tank\" (Vehicle)");
  const StateRequest state = request_with({"anim=0x13"}, {{"camera", "5000,0,0"}});

  CountingSink plain;
  const RunOutcome without = program->run(state, plain);
  CHECK(without.clean);
  CHECK(without.reason == "ret at top level");
  REQUIRE(without.counts.size() == 1);
  CHECK(without.counts[0].first == "shadow faces");
  CHECK(without.counts[0].second > 0);  // the vehicle casts a shadow (properties 1)
  CHECK(plain.ops == without.ops);

  Recorder recorder;
  CountingSink sink;
  const RunOutcome with = program->run(state, sink, &recorder);
  CHECK(with.clean);
  CHECK(with.ops == without.ops);
  CHECK(with.faces == without.faces);
  REQUIRE(recorder.snapshots.size() == with.ops + 1);
  CHECK(recorder.ended.back());
  CHECK(std::count(recorder.ended.begin(), recorder.ended.end(), true) == 1);
  CHECK(recorder.mnemonics.back() == "end");
  CHECK(recorder.mnemonics.front() == "face");
  CHECK(recorder.snapshots.back().ended);
  CHECK(recorder.snapshots.back().end_reason == "ret at top level");
  for (size_t i = 0; i + 1 < recorder.snapshots.size(); ++i) {
    CHECK(recorder.snapshots[i].steps == i);
    CHECK(recorder.anim[i] == 0x13);
  }
  CHECK(recorder.pool_x.front() == -50 * 16);  // vertex 0 in model units
  // The turret runs inside `attached 0`: one frame deeper, its own record.
  const auto turret =
      std::find_if(recorder.snapshots.begin(), recorder.snapshots.end(), [](const Snapshot& s) {
        return std::any_of(s.registers.begin(), s.registers.end(),
                           [](const DebugValue& v) { return v.name == "record" && v.value == 1; });
      });
  REQUIRE(turret != recorder.snapshots.end());
  CHECK(turret->depth == 1);
  REQUIRE(turret->frames.size() == 1);
  const auto pos_y = std::find_if(turret->registers.begin(), turret->registers.end(),
                                  [](const DebugValue& v) { return v.name == "pos.y"; });
  REQUIRE(pos_y != turret->registers.end());
  CHECK(pos_y->value == 100);
  // Globals carry the state.
  const auto& globals = recorder.snapshots.front().globals;
  CHECK(std::any_of(globals.begin(), globals.end(),
                    [](const DebugValue& v) { return v.name == "anim" && v.value == 0x13; }));

  // Determinism: the same run gives the same snapshots.
  Recorder again;
  NullSink quiet;
  program->run(state, quiet, &again);
  CHECK(again.snapshots == recorder.snapshots);
}

TEST_CASE("apache engine: the pause handler stops the run cleanly") {
  const auto program = open_vehicle();
  Recorder recorder;
  recorder.stop_at = 3;
  CountingSink sink;
  const RunOutcome out = program->run(request_with({}), sink, &recorder);
  CHECK(out.clean);
  CHECK(out.reason == "stopped by the debugger");
  CHECK(out.ops == 2);  // the third opcode did not execute
  CHECK(sink.end.reason == "stopped by the debugger");
  CHECK(sink.end.clean);
  // Three pauses, then the end pause.
  REQUIRE(recorder.snapshots.size() == 4);
  CHECK(recorder.ended.back());
  CHECK(recorder.snapshots.back().end_reason == "stopped by the debugger");
  CHECK(recorder.snapshots.back().offset == recorder.snapshots[2].offset);
}

TEST_CASE("apache engine: listing, info and render setup") {
  const auto program = open_vehicle();
  const std::string text = program->listing_text();
  const auto lines = program->listing_lines();
  CHECK(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) == lines.size());
  size_t with_offset = 0;
  for (const auto& l : lines) {
    CHECK_FALSE(l.native);
    if (!l.offset) continue;
    ++with_offset;
    // The line shows its own offset in the bytes comment.
    CHECK(l.text.find(fmt::format("; {:06x} ", *l.offset)) != std::string::npos);
  }
  CHECK(with_offset == 17);
  CHECK(program->info_json()["name"] == "tank");
  CHECK(program->info_text().find("\"tank\"") != std::string::npos);
  CHECK(program->static_errors().empty());
  const RenderSetup setup = program->render_setup(320, 200);
  CHECK(setup.frame.focal_pixels == 200);
  CHECK(setup.frame.near_z == 256);
  CHECK_FALSE(setup.textures);  // no OBJTEXT.BIN beside it
  CHECK(program->example_background() == 18);
}

TEST_CASE("apache engine: the whole archive is info only") {
  const auto program = open_vehicle(std::nullopt);
  CHECK_FALSE(program->runnable());
  CHECK(program->source() == "nowhere/vehicle/3DOBJS.BIN");
  CHECK(program->info_json()["records"] == 3);
  NullSink sink;
  try {
    program->run(StateRequest{}, sink);
    FAIL("the whole archive ran");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("name a record") != std::string::npos);
  }
  CHECK_THROWS_AS(open_vehicle("#9"), InputError);
  CHECK_THROWS_AS(open_vehicle("#x"), InputError);
  CHECK_THROWS_AS(open_vehicle("nosuch"), InputError);
  CHECK(open_vehicle("TURRET")->source() == "nowhere/vehicle/3DOBJS.BIN:#1");
}

TEST_CASE("apache engine: the viewer model") {
  const auto program = open_vehicle();
  const auto viewer = program->viewer(request_with({"slot1=1"}), 0);
  const ViewerCapabilities& caps = viewer->capabilities();
  CHECK(caps.engine == "apache");
  CHECK(caps.lod_levels == 2);
  CHECK(caps.detail_levels == 1);
  REQUIRE(caps.inputs.size() == 2);
  CHECK(caps.inputs[0].name == "anim");
  CHECK(caps.inputs[0].values == std::vector<int64_t>{0x1, 0x2, 0x3, 0x10, 0x11, 0x12, 0x13});
  CHECK(caps.inputs[1].name == "slot1");
  CHECK(caps.inputs[1].values == std::vector<int64_t>{1});  // not itself, nor its LOD record
  CHECK(caps.inputs[1].engine_default == -1);

  ViewerState state = viewer->initial_state();
  CHECK(state.camera.distance > 0);
  REQUIRE(state.inputs.size() == 2);
  CHECK_FALSE(state.inputs[0]);
  CHECK(state.inputs[1] == size_t{0});  // --set slot1=1
  CountingSink sink;
  ViewerRunResult r = viewer->run(state, 480, sink);
  CHECK(r.clean);
  state.inputs[0] = 2;  // anim 3
  const auto j = nlohmann::json::parse(viewer->state_json(state, 480));
  CHECK(j["anim"] == 3);
  CHECK(j["slots"]["1"] == 1);
  state.lod = 1;
  r = viewer->run(state, 240, sink);
  CHECK(r.clean);
  CHECK(viewer->palette() == program->render_setup(640, 480).palette);

  // The whole archive has no viewer.
  CHECK_THROWS_AS(open_vehicle(std::nullopt)->viewer(StateRequest{}, 0), InputError);
}

TEST_CASE("apache engine: members, extract, writers and examples") {
  const auto assembled = apache::assemble_apache(vehicle_text(), "v.apa");
  const EngineInput in = archive_input(assembled.archive, std::nullopt);
  const auto members = engine().members(in);
  REQUIRE(members.size() == 3);
  CHECK(members[0].name == "tank");
  CHECK(members[1].name == "turret");
  CHECK(members[2].index == 2);
  uint64_t total = 0;
  for (const auto& m : members) {
    const auto bytes = engine().extract(in, m);
    CHECK(bytes.size() == m.stored);
    CHECK(m.size == m.stored);
    REQUIRE(bytes.size() >= apache::kHeaderSize);
    CHECK(std::equal(bytes.begin(), bytes.end(), assembled.archive.begin() + m.offset));
    total += m.stored;
  }
  CHECK(total + 4 + 4 * 3 == assembled.archive.size());  // the table, then the records

  const auto files = engine().assemble(crate_text(), "crate.apa", "out/3DOBJS.BIN");
  REQUIRE(files.size() == 3);
  CHECK(files[0].name == "out/3DOBJS.BIN");
  CHECK(files[1].name == "OBJTEXT.BIN");
  CHECK(files[2].name == "3DPAL.RGB");
  CHECK(engine().assemble(vehicle_text(), "v.apa", "3DOBJS.BIN").size() == 2);  // no textures

  CHECK(engine().default_generate_count() == 1300);
  CHECK(engine().max_generate_count() == 20000);
  GenerateRequest gen;
  gen.count = 20;
  gen.seed = 3;
  gen.text = true;
  std::vector<std::string> written;
  std::vector<uint8_t> generated;
  engine().generate(gen, [&](OutputFile f) {
    written.push_back(f.name);
    if (f.name == "3DOBJS.BIN") generated = f.bytes;
  });
  CHECK(written == engine().generated_names(gen));
  CHECK(engine().recognises(generated));
  engine().generate(gen, [&](OutputFile f) {
    if (f.name == "OBJTEXT.BIN" || f.name == "3DPAL.RGB") CHECK_FALSE(engine().recognises(f.bytes));
  });

  const auto examples = engine().examples(in);
  REQUIRE(examples.size() == 3);
  CHECK(examples[0].spec == "nowhere/vehicle/3DOBJS.BIN:#0");
  CHECK(examples[0].stem == "apache_vehicle_tank");
  CHECK(examples[2].stem == "apache_vehicle_tank_lo");

  // The 3DPAL.RGB reads as a palette; other bytes do not.
  EngineInput pal = archive_input(assembled.palette, std::nullopt, "3DPAL.RGB");
  CHECK(engine().read_palette(pal).has_value());
  CHECK_FALSE(engine().read_palette(in).has_value());
}

TEST_CASE("apache engine: assembler text opens as its archive") {
  const auto one = engine().open_text(crate_text(), "crate.apa", std::nullopt, {});
  CHECK(one->runnable());
  CHECK(one->source() == "crate.apa:#0");
  // Its textures come from the assembled OBJTEXT.BIN.
  const RenderSetup setup = one->render_setup(640, 480);
  REQUIRE(setup.textures);
  CHECK(setup.textures("tex1") != nullptr);
  CHECK(setup.textures("tex1m") != nullptr);
  CHECK(setup.textures("tex9") == nullptr);
  NullSink sink;
  CHECK(one->run(StateRequest{}, sink).clean);
  // Several models: the whole archive.
  const auto several = engine().open_text(vehicle_text(), "vehicle.apa", std::nullopt, {});
  CHECK_FALSE(several->runnable());
  CHECK_THROWS_AS(engine().open_text("model 0 x\n", "bad.apa", std::nullopt, {}), InputError);
}

TEST_CASE("AP-10 AP-21 the cull_primaries and secondary_length knobs are declared and validated") {
  const auto knobs = engine().knobs();
  auto find = [&](const std::string& name) {
    return std::find_if(knobs.begin(), knobs.end(),
                        [&](const Knob& k) { return k.name == name && !k.option; });
  };
  REQUIRE(find("cull_primaries") != knobs.end());
  CHECK(find("cull_primaries")->type == KnobType::kFlag);
  CHECK(find("cull_primaries")->default_value == 0);  // the seed's op 0 draws its face
  REQUIRE(find("secondary_length") != knobs.end());
  const auto program = open_vehicle();
  CHECK_NOTHROW(validate_state(
      *program, request_with({"cull_primaries=1", "secondary_length=packet", "gouraud=0"})));
  const auto j = program->state_json(request_with({"cull_primaries=1", "secondary_length=packet"}));
  CHECK(j["cull_primaries"] == true);
  CHECK(j["secondary_length"] == "packet");
  const auto d = program->state_json(request_with({}));
  CHECK(d["cull_primaries"] == false);
  CHECK(d["secondary_length"] == "whole");
  NullSink sink;
  try {
    program->run(request_with({"secondary_length=self"}), sink);
    FAIL("secondary_length=self was taken");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("secondary_length=whole") != std::string::npos);
  }
}

TEST_CASE("AP-21 info counts the length bytes under both readings and notes mismatches") {
  // Three secondary packets of a 3-vertex polygon (6 bytes from the type byte, 7 with the byte):
  // the assembler's whole length, the other reading's 6, and a 9 that fits neither.
  const std::string text = "model 0 a\n" + box_vertices() + R"(program
  face polygon colour=1 : 3 2 1 0
  face2 polygon colour=2 : 3 2 1
  face2 polygon colour=3 length=6 : 3 2 1
  face2 polygon colour=4 length=9 : 3 2 1
  ret
end
)";
  const auto program = engine().open_text(text, "a.apa", std::nullopt, {});
  const auto j = program->info_json()["secondary_packets"];
  CHECK(j["count"] == 3);
  CHECK(j["whole_packet_lengths"] == 1);
  CHECK(j["type_on_lengths"] == 1);
  REQUIRE(j["mismatches"].size() == 2);
  // The mismatch is a note, not an error: info and a run go ahead.
  CHECK(program->static_errors().empty());
  const std::string info = program->info_text();
  CHECK(info.find("secondary packets: 3; length bytes counting the whole packet (the seed) 1, "
                  "counting from the type byte 1") != std::string::npos);
  CHECK(info.find(fmt::format("note: the secondary packet at 0x{:x} has a length byte",
                              j["mismatches"][0].get<uint32_t>())) != std::string::npos);
  // The listing writes such bytes out, so it assembles to the same archive.
  const std::string listing = program->listing_text();
  CHECK(listing.find("face2 polygon colour=3 length=6 : 3 2 1") != std::string::npos);
  CHECK(listing.find("face2 polygon colour=2 : 3 2 1") != std::string::npos);
  CHECK(listing.find("; note: the length byte 9 is not this packet's whole length 7") !=
        std::string::npos);
  const auto original = apache::assemble_apache(text, "a.apa");
  const auto again = apache::assemble_apache(
      "model 0 a\n" + box_vertices() + "program\n" + listing + "end\n", "b.apa");
  CHECK(again.archive == original.archive);
}

}  // namespace apache_engine_tests
