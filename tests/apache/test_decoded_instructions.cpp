// Instructions decoded once and kept between runs (interp/apache/decoded_instructions.h): one
// interpreter running a record again and again, in changing states, must give each run exactly
// what a fresh interpreter gives it (AP-10..AP-16, AP-21 as traced by each run), and decoding
// errors are reported on every run that reaches them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "interp/apache/decoded_instructions.h"
#include "interp/apache/interpreter.h"
#include "tests/apache/apache_fixture.h"

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
  for (const auto& f : sink.faces)
    out += "face " + std::to_string(f.offset) + " " + std::to_string(f.color) + "/" +
           std::to_string(f.color2) + "\n";
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
