// What an Apache interpreter keeps between runs: the instructions it decoded
// (interp/apache/decoded_instructions.h) and the models it placed. One interpreter running a
// record again and again, in changing states, must give each run exactly what a fresh interpreter
// gives it (AP-10..AP-16, AP-21, AP-31 as traced by each run), and decoding errors are reported on
// every run that reaches them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/apache/decoded_instructions.h"
#include "interp/apache/interpreter.h"
#include "tests/apache/apache_fixture.h"

namespace apache_repeated_runs_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;
using shapevm::testing::ApacheSink;
using shapevm::testing::box_vertices;

namespace {

apache::RunState view(int heading, uint32_t anim, bool packet_reading = false) {
  apache::RunState s;
  s.shadows = false;
  s.camera = {5000, heading, 0};
  s.anim = anim;
  if (packet_reading) apache::apply_set(s, "secondary_length=packet");
  return s;
}

// Everything a run emitted, as text: each op's offset and name, each branch and call, each face's
// offset and colours, each diagnostic, and how the run ended.
std::string transcript(const ApacheSink& sink) {
  std::string out;
  for (const auto& op : sink.ops)
    out += "op " + std::to_string(op.offset) + " " + std::string(op.name) + "\n";
  for (const auto& b : sink.branches)
    out += "branch " + std::to_string(b.offset) + " " + std::string(b.kind) + " " +
           std::to_string(b.taken) + " -> " + std::to_string(b.target) + "\n";
  for (const auto& c : sink.calls)
    out += "call " + std::to_string(c.offset) + " -> " + std::to_string(c.target) + "\n";
  for (const auto& f : sink.faces) {
    out += "face " + std::to_string(f.offset) + " " + std::to_string(f.color) + "/" +
           std::to_string(f.color2) + (f.shadow ? " shadow" : "") + " shade";
    for (const int32_t row : f.shade) out += " " + std::to_string(row);
    out += " at";
    for (const auto& v : f.view)
      out += " " + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z);
    out += "\n";
  }
  for (const auto& d : sink.diagnostics)
    out += "diagnostic " + std::to_string(d.offset) + " " + d.message + "\n";
  out += "end " + std::to_string(sink.end.offset) + " " + sink.end.reason + " " +
         std::to_string(sink.end.ops) + "\n";
  return out;
}

std::string fresh_run(const ApacheFixture& f, uint32_t record, const apache::RunState& s) {
  ApacheSink sink;
  apache::Interpreter interp(f.archive, f.tables, nullptr);
  interp.run(record, s, sink);
  return transcript(sink);
}

// A box whose program takes every kind of branch, with a secondary packet whose length byte (8)
// is one too large: drawn, the run resumes after its vertices; skipped, where the byte leads. So
// the instruction after it depends on the view, and under the other reading the byte leads
// elsewhere again.
const char* const kProgram = R"(model 0 box
VERTICES  normal 0 0 -127
  attach 1 0 0 0
program
  face polygon colour=11 : 6 7 4 5
  face2 polygon colour=20 length=8 : 3 2 1
  ret
  face polygon colour=40 : 3 2 1 0
  winding 3 2 1 front=front back=back continue=masks
front:
  face polygon colour=41 : 3 2 1 0
  ret
back:
  face polygon colour=42 : 6 7 4 5
  ret
masks:
  ifmask 0x4 branch=lit continue=pick
lit:
  face polygon colour=50 : 3 2 1 0
  ret
pick:
  choose 0x1 set=on clear=off continue=cases
on:
  face polygon colour=51 : 3 2 1 0
  ret
off:
  attached 0
  ret
cases:
  select shift=4 mask=3 cases=a,b continue=end
a:
  face polygon colour=60 : 3 2 1 0
  ret
b:
  face polygon colour=61 : 3 2 1 0
  ret
end:
  ret
end
model 1 child
VERTICESprogram
  face polygon colour=70 : 3 2 1 0
  ret
end
)";

std::string program_text() {
  std::string text = kProgram;
  for (size_t at; (at = text.find("VERTICES")) != std::string::npos;)
    text.replace(at, 8, box_vertices());
  return text;
}

}  // namespace

TEST_CASE("AP-10..AP-16 AP-21 one interpreter's runs in changing states equal fresh runs") {
  const ApacheFixture f(program_text());
  // Heading 0 sees the box's front, 180 its back: the face2 is skipped by its byte in one and
  // drawn in the other. The animation values take each mask and select branch both ways.
  std::vector<apache::RunState> states;
  for (const int heading : {0, 180})
    for (const uint32_t anim : {0u, 1u, 4u, 5u, 0x10u, 0x25u})
      for (const bool packet : {false, true}) states.push_back(view(heading, anim, packet));
  std::vector<std::string> expected;
  for (const auto& s : states) expected.push_back(fresh_run(f, 0, s));
  // The states differ in what they run: the test covers more than one path.
  CHECK(expected[0] != expected[2]);
  CHECK(expected[0] != expected[12]);
  CHECK(expected[0] != expected[1]);

  apache::Interpreter interp(f.archive, f.tables, nullptr);
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    for (size_t i = 0; i < states.size(); ++i) {
      CAPTURE(i);
      ApacheSink sink;
      interp.run(0, states[i], sink);
      CHECK(transcript(sink) == expected[i]);
    }
    // The same states in reverse order: each instruction's remembered successor and callees were
    // left by a different state.
    for (size_t i = states.size(); i-- > 0;) {
      CAPTURE(i);
      ApacheSink sink;
      interp.run(0, states[i], sink);
      CHECK(transcript(sink) == expected[i]);
    }
  }
}

TEST_CASE("a decoding error is reported again by every run that reaches it") {
  // choose 0x1's clear branch runs into byte 9, which is no opcode: only runs with anim bit 0
  // clear reach it.
  const ApacheFixture f(
      "model 0 box\n" + box_vertices() +
      "program\n  choose 0x1 set=on clear=bad continue=end\non:\n  face polygon colour=1 : 3 2 "
      "1 0\n  ret\nbad:\n  bytes 9\nend:\n  ret\nend\n");
  apache::Interpreter interp(f.archive, f.tables, nullptr);
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    ApacheSink bad;
    const auto r = interp.run(0, view(0, 0), bad);
    CHECK_FALSE(r.clean);
    CHECK(r.reason.find("expected a drawing opcode 0..7, found 9") != std::string::npos);
    CHECK(transcript(bad) == fresh_run(f, 0, view(0, 0)));
    ApacheSink good;
    CHECK(interp.run(0, view(0, 1), good).clean);
    CHECK(transcript(good) == fresh_run(f, 0, view(0, 1)));
  }
}

TEST_CASE("an offset that fails to decode is not kept, however often it is reached") {
  // Every offset from the program to the archive's end, three times each while keeping: the
  // ones that are no instruction (byte 9, operands read as opcodes) throw each time and leave
  // the cache as it was; the others are kept once.
  const ApacheFixture f("model 0 box\n" + box_vertices() +
                        "program\n  face polygon colour=1 : 3 2 1 0\n  bytes 9\n  ret\nend\n");
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  apache::DecodedInstructions kept(f.archive.bytes(), f.archive.source(),
                                   apache::SecondaryLength::kWhole);
  kept.begin_run();
  kept.begin_run();
  size_t failures = 0, decoded = 0;
  for (uint32_t off = program; off < f.archive.bytes().size(); ++off) {
    CAPTURE(off);
    for (int again = 0; again < 3; ++again) {
      const size_t before = kept.size();
      try {
        const apache::DecodedInstruction& d = kept.at(off, 0);
        CHECK(d.kept);
        CHECK(d.ins.offset == off);
        CHECK(kept.size() == before + (again == 0 ? 1 : 0));
        decoded += again == 0;
      } catch (const InputError&) {
        ++failures;
        CHECK(kept.size() == before);
      }
    }
  }
  CHECK(failures > 0);
  CHECK(decoded > 0);
  CHECK(kept.size() == decoded);
}

TEST_CASE("decoded instructions are kept from the second run on, and only up to the limit") {
  const ApacheFixture f(program_text());
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  apache::DecodedInstructions kept(f.archive.bytes(), f.archive.source(),
                                   apache::SecondaryLength::kWhole, 2);
  kept.begin_run();
  // The first run decodes into scratch storage, one instruction per depth.
  apache::DecodedInstruction& first = kept.at(program, 0);
  CHECK_FALSE(first.kept);
  CHECK(kept.size() == 0);
  kept.begin_run();
  apache::DecodedInstruction& again = kept.at(program, 0);
  CHECK(again.kept);
  CHECK(again.ins.offset == program);
  CHECK(again.ins.op == static_cast<uint8_t>(apache::Opcode::kFace));
  CHECK(&kept.at(program, 0) == &again);
  // Its successor, linked once found.
  const uint32_t second = again.ins.offset + again.ins.size;
  apache::DecodedInstruction& next = kept.after(again, second, 0);
  CHECK(next.kept);
  CHECK(again.next == &next);
  CHECK(&kept.after(again, second, 0) == &next);
  CHECK(kept.size() == 2);
  // Past the limit: decoded each time into scratch storage, never linked.
  const uint32_t third = next.ins.offset + next.ins.size;
  apache::DecodedInstruction& scratch = kept.after(next, third, 0);
  CHECK_FALSE(scratch.kept);
  CHECK(scratch.ins.offset == third);
  CHECK(scratch.ins.op == static_cast<uint8_t>(apache::Opcode::kReturn));
  CHECK(next.next == nullptr);
  CHECK(kept.size() == 2);
}

namespace {

// A shadow caster whose program draws a fixed attachment or a gameplay slot by the animation
// value, with a low-detail record one LOD step away. Record 2 fills the slot with other vertices.
std::string placements_program() {
  const std::string box = box_vertices();
  return "model 0 caster\n  properties 1\n  lod 100000 next 3\n" + box +
         "  normal 0 0 -127\n  attach 1 160 -320 0\n  attach 0 0 0 0\nprogram\n"
         "  face shadedpolygon colour=10 normal=0 : 3 2 1 0\n"
         "  ifmask 0x1 branch=kid continue=slot\nkid:\n  attached 0\n  ret\n"
         "slot:\n  attached 1\n  face polygon colour=12 : 6 7 4 5\n  ret\nend\n"
         "model 1 child\n" +
         box + "program\n  face polygon colour=70 : 3 2 1 0\n  ret\nend\n" +
         "model 2 other\n  vertex -90 0 -20\n  vertex 90 0 -20\n  vertex 90 40 -20\n"
         "  vertex -90 40 -20\nprogram\n  face polygon colour=71 : 3 2 1 0\n  ret\nend\n"
         "model 3 low\n  vertex -50 0 -50\n  vertex 50 0 -50\n  vertex 0 100 -50\nprogram\n"
         "  face polygon colour=80 : 2 1 0\n  ret\nend\n";
}

}  // namespace

TEST_CASE("AP-16 AP-31 AP-34 a placement is recalled only when everything it depends on is equal") {
  const ApacheFixture f(placements_program());
  // One camera throughout, so runs of the same record in the same light are steady and recall
  // the run before's placements; what changes is what is placed where, and the shadow's plane.
  std::vector<apache::RunState> states;
  // The animation value varies fastest: record 1 is placed by the slot with one transform and by
  // the fixed attachment with another, at the same point of the run.
  for (const int slot : {-1, 1, 2}) {
    for (const int lod : {0, 1}) {
      for (const int ground : {0, -40}) {
        for (const uint32_t anim : {0u, 1u}) {
          apache::RunState s = view(0, anim);
          s.camera = {6000, 30, 40};
          s.shadows = true;
          if (slot >= 0) s.slots[1] = static_cast<uint32_t>(slot);
          if (lod > 0) s.lod = static_cast<uint32_t>(lod);
          s.ground = ground;
          states.push_back(s);
        }
      }
    }
  }
  // The light moves once: a run in another light is not steady and places afresh.
  apache::RunState lit = states.front();
  lit.light = {-40, 90, 30};
  states.push_back(lit);
  states.push_back(lit);
  std::vector<std::string> expected;
  for (const auto& s : states) expected.push_back(fresh_run(f, 0, s));
  CHECK(expected[0] != expected[1]);   // anim bit 0 draws the fixed attachment
  CHECK(expected[0] != expected[2]);   // the ground moves the shadow
  CHECK(expected[0] != expected[4]);   // the LOD step draws record 3
  CHECK(expected[0] != expected[8]);   // the slot holds record 1
  CHECK(expected[8] != expected[9]);   // record 1 by the slot, then by the fixed attachment
  CHECK(expected[0] != expected[24]);  // the light turns the shading and the shadow

  apache::Interpreter interp(f.archive, f.tables, nullptr);
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    // Each state twice in a row (the second run recalls what the first placed), forward then in
    // reverse, so each placement is also tried against those of a different state.
    for (size_t k = 0; k < 2 * states.size(); ++k) {
      const size_t i = round == 0 ? k / 2 : states.size() - 1 - k / 2;
      CAPTURE(i);
      ApacheSink sink;
      interp.run(0, states[i], sink);
      CHECK(transcript(sink) == expected[i]);
    }
  }
}

}  // namespace apache_repeated_runs_tests
