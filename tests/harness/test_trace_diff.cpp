// trace-diff (harness/trace_diff): our JSON Lines against a reference (JSON Lines or plain
// `offset handler` lines), the first divergence with context, and precise errors for bad traces.
// The handler addresses are the FA vector_table's (FA-25): a reference trace names the same
// handlers by address or by name.
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "harness/trace_diff.h"

using namespace shapevm;
using harness::diff_traces;
using harness::parse_trace;

namespace {

const char* kOurs =
    R"({"ev":"start","eng":"fa","schema":1,"source":"a.SH","state":{}}
{"ev":"op","eng":"fa","off":14,"op":0,"name":"Nop","handler":"0x4D3100","depth":0}
{"ev":"op","eng":"fa","off":16,"op":200,"name":"JumpToLOD","handler":"0x4D3400","symbol":"_JumpToLOD","depth":0}
{"ev":"branch","eng":"fa","off":16,"kind":"lod","taken":false,"to":22,"value":80,"limit":48}
{"ev":"op","eng":"fa","off":22,"op":130,"name":"VertexBuffer","handler":"0x4D3500","depth":0}
{"ev":"op","eng":"fa","off":60,"op":252,"name":"Face","handler":"0x4D3600","depth":0}
{"ev":"end","eng":"fa","off":80,"reason":"EndObject","clean":true,"ops":4,"faces":1}
)";

}  // namespace

TEST_CASE(
    "trace-diff: FA-25 a plain reference with hex/decimal offsets and address/name handlers "
    "matches") {
  const auto ours = parse_trace(kOurs, "ours.jsonl");
  CHECK(ours.format == harness::Trace::Format::kJsonLines);
  CHECK(ours.events.size() == 6);  // start is not an event
  const auto theirs = parse_trace(
      "# offset handler\n0xE 0x4D3100\n16 _jumptolod\n\n16h JumpToLOD\n"
      "0x3C 4D3600h  # face\n",
      "ref.txt");
  // 16h = 22: the VertexBuffer line, named here by mnemonic rather than "0x4D3500".
  CHECK(theirs.format == harness::Trace::Format::kPlain);
  REQUIRE(theirs.events.size() == 4);
  CHECK(theirs.events[2].offset == 0x16);
  CHECK(theirs.events[2].line == 5);
  const auto d = diff_traces(ours, theirs);
  CHECK(d.diverged);  // line 5 says JumpToLOD where ours ran VertexBuffer
  CHECK(d.index == 2);
  CHECK(d.report.find("first divergence at opcode event 2: at offset 0x16: handler vertexbuffer "
                      "vs jumptolod") == 0);
  const auto same =
      parse_trace("0xE 0x4D3100\n16 _JumpToLOD\n22 VertexBuffer\n60 0x4D3600\n", "ref.txt");
  const auto ok = diff_traces(ours, same);
  CHECK_FALSE(ok.diverged);
  CHECK(ok.report == "traces match: 4 opcode events\n");
}

TEST_CASE("trace-diff: the first divergence is reported with context from both sides") {
  const auto ours = parse_trace(kOurs, "ours.jsonl");
  const auto theirs =
      parse_trace("14 0x4D3100\n16 0x4D3400\n30 0x4D3500\n60 0x4D3600\n", "ref.txt");
  const auto d = diff_traces(ours, theirs, 1);
  REQUIRE(d.diverged);
  CHECK(d.index == 2);
  CHECK(d.compared == 2);
  CHECK(d.report.find("first divergence at opcode event 2: offset 0x16 vs 0x1e\n") == 0);
  CHECK(d.report.find("ours (ours.jsonl):\n") != std::string::npos);
  CHECK(d.report.find("    line      3: {\"ev\":\"op\",\"eng\":\"fa\",\"off\":16") !=
        std::string::npos);
  CHECK(d.report.find("  > line      5: {\"ev\":\"op\",\"eng\":\"fa\",\"off\":22") !=
        std::string::npos);
  CHECK(d.report.find("theirs (ref.txt):\n") != std::string::npos);
  CHECK(d.report.find("  > line      3: 30 0x4D3500") != std::string::npos);
  CHECK(d.report.find("    line      4: 60 0x4D3600") != std::string::npos);
  CHECK(d.report.find("line      1: 14") == std::string::npos);  // context is 1 event
}

TEST_CASE("trace-diff: a trace that ends early diverges where it ends") {
  const auto ours = parse_trace(kOurs, "ours.jsonl");
  const auto d = diff_traces(ours, parse_trace("14 0x4D3100\n16 0x4D3400\n", "ref.txt"));
  CHECK(d.diverged);
  CHECK(d.index == 2);
  CHECK(d.report.find("theirs ends after 2 events, ours goes on") != std::string::npos);
  CHECK(d.report.find("(end of trace after 2 events)") != std::string::npos);
}

TEST_CASE("trace-diff: two JSON Lines traces compare every event after start") {
  const auto ours = parse_trace(kOurs, "a.jsonl");
  std::string changed = kOurs;
  changed.replace(changed.find("\"taken\":false"), 13, "\"taken\":true");
  const auto d = diff_traces(ours, parse_trace(changed, "b.jsonl"));
  CHECK(d.diverged);
  CHECK(d.index == 2);  // the branch event, which a plain trace would not see
  CHECK(d.report.find("first divergence at event 2: the events differ") == 0);
  std::string other_source = kOurs;
  other_source.replace(other_source.find("a.SH"), 4, "b.SH");
  CHECK_FALSE(diff_traces(ours, parse_trace(other_source, "c.jsonl")).diverged);
}

TEST_CASE("trace-diff: malformed traces name the file and line") {
  auto error = [](const std::string& text) -> std::string {
    try {
      parse_trace(text, "t");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error("") == "t: the trace is empty (no events)");
  CHECK(error("# only a comment\n") == "t: the trace is empty (no events)");
  CHECK(error("14 0x10\n16\n") == "t: line 2: expected \"offset handler\" (2 fields), got 1");
  CHECK(error("14 0x10\nzz 0x10\n") ==
        "t: line 2: expected an offset (0x1A2, 1A2h or decimal), got \"zz\"");
  CHECK(error("{\"ev\":\"op\",\"off\":1}\n{\"ev\":\n").find("t: line 2: expected a JSON object") ==
        0);
  CHECK(error("{\"ev\":\"op\"}\n") ==
        "t: line 1: an \"op\" event needs \"off\" (an unsigned integer)");
  CHECK(error("{\"off\":3}\n") == "t: line 1: expected a JSON object with a string \"ev\"");
  CHECK(error("{\"ev\":\"op\",\"off\":1,\"handler\":\"zz\"}\n") ==
        "t: line 1: \"handler\" must be an address string like \"0x4D30E4\"");
}
