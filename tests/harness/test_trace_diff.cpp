// trace-diff (harness/trace_diff): our JSON Lines against a reference (JSON Lines or plain
// `offset handler` lines), the first divergence with context, and precise errors for bad traces.
// The handler addresses are the FA vector_table's (FA-25): a reference trace names the same
// handlers by address or by name.
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "harness/trace_diff.h"

namespace harness_trace_diff_tests {

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
  // The report names the field that differs, with both values.
  CHECK(d.report.find("first divergence at event 2: \"taken\": false vs true\n") == 0);
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

namespace {

// Ours as `shapevm trace` writes it: the start state's globals and the branches that read one
// carry the global's address in the original executable beside its name.
const char* kOursWithGlobals =
    R"({"ev":"start","eng":"fa","schema":1,"source":"a.SH","state":{"detail":1,"globals":{"_detail":{"addr":"0x515EEE","value":1},"_frameCounter":{"addr":"0x4EB738","value":5}}}}
{"ev":"op","eng":"fa","off":14,"op":166,"name":"JumpToDetail","handler":"0x4D2318","depth":0}
{"ev":"branch","eng":"fa","off":14,"kind":"detail","taken":false,"to":20,"value":1,"limit":1,"global":"_detail","addr":"0x515EEE"}
{"ev":"op","eng":"fa","off":20,"op":64,"name":"JumpToFrame","handler":"0x4D3134","symbol":"do_anim_jmp","depth":0}
{"ev":"branch","eng":"fa","off":20,"kind":"frame","taken":true,"to":40,"value":1,"limit":4,"global":"_frameCounter","addr":"0x4EB738"}
{"ev":"end","eng":"fa","off":40,"reason":"EndObject","clean":true,"ops":2,"faces":0}
)";

// The same run as a tool on the original executable would write it: globals only by address.
const char* kTheirsByAddress =
    R"({"ev":"start","eng":"fa","schema":1,"source":"A.SH","state":{"globals":{"0x515EEE":1,"0x4EB738":{"value":5}}}}
{"ev":"op","eng":"fa","off":14,"op":166,"name":"JumpToDetail","handler":"0x4D2318","depth":0}
{"ev":"branch","eng":"fa","off":14,"kind":"detail","taken":false,"to":20,"value":1,"limit":1,"global":"0x515EEE"}
{"ev":"op","eng":"fa","off":20,"op":64,"name":"JumpToFrame","handler":"0x4D3134","symbol":"do_anim_jmp","depth":0}
{"ev":"branch","eng":"fa","off":20,"kind":"frame","taken":true,"to":40,"value":1,"limit":4,"global":"4EB738h","addr":"0x4EB738"}
{"ev":"end","eng":"fa","off":40,"reason":"EndObject","clean":true,"ops":2,"faces":0}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("trace-diff: FA-45/FA-31 a reference that names globals by address matches ours") {
  const auto ours = parse_trace(kOursWithGlobals, "ours.jsonl");
  CHECK(ours.globals.size() == 2);
  CHECK(ours.globals[0].address == 0x515EEE);
  const auto theirs = parse_trace(kTheirsByAddress, "ref.jsonl");
  const auto d = diff_traces(ours, theirs);
  INFO(d.report);
  CHECK_FALSE(d.diverged);
  CHECK(d.state_differences.empty());
  CHECK(d.report == "traces match: 5 events\n");
  // Either side may be the one that uses addresses.
  CHECK_FALSE(diff_traces(theirs, ours).diverged);
}

TEST_CASE("trace-diff: a divergence in a branch names the field and shows globals by address") {
  const auto ours = parse_trace(kOursWithGlobals, "ours.jsonl");
  // The original took the detail branch: the report names "taken".
  const auto taken =
      parse_trace(replaced(kTheirsByAddress, R"("taken":false,"to":20)", R"("taken":true,"to":20)"),
                  "ref.jsonl");
  const auto d = diff_traces(ours, taken);
  CHECK(d.diverged);
  CHECK(d.index == 1);
  CHECK(d.report.find("first divergence at event 1: \"taken\": false vs true\n") == 0);
  // A branch that read another global: both named, with their addresses.
  const auto other = parse_trace(
      replaced(kTheirsByAddress, R"("global":"0x515EEE")", R"("global":"0x4EB738")"), "ref.jsonl");
  const auto g = diff_traces(ours, other);
  CHECK(g.diverged);
  CHECK(g.report.find("first divergence at event 1: \"global\": \"_detail\" (0x515EEE) vs "
                      "\"_frameCounter\" (0x4EB738)\n") == 0);
  // An "addr" that contradicts its "global" is a difference too.
  const auto wrong_addr =
      parse_trace(replaced(kTheirsByAddress, R"("global":"4EB738h","addr":"0x4EB738")",
                           R"("global":"4EB738h","addr":"0x515EEE")"),
                  "ref.jsonl");
  const auto w = diff_traces(ours, wrong_addr);
  CHECK(w.diverged);
  CHECK(w.index == 3);
  CHECK(w.report.find("\"addr\" only in theirs") != std::string::npos);
  // A field only one side has.
  const auto fewer = parse_trace(replaced(kTheirsByAddress, R"(,"limit":4)", ""), "ref.jsonl");
  CHECK(diff_traces(ours, fewer)
            .report.find("first divergence at event 3: \"limit\" only in ours (4)\n") == 0);
}

TEST_CASE("trace-diff: different start globals are reported by name and address") {
  const auto ours = parse_trace(kOursWithGlobals, "ours.jsonl");
  const auto theirs =
      parse_trace(replaced(kTheirsByAddress, R"("0x515EEE":1)", R"("0x515EEE":3)"), "ref.jsonl");
  const auto d = diff_traces(ours, theirs);
  CHECK(d.diverged);
  REQUIRE(d.state_differences.size() == 1);
  CHECK(d.state_differences[0] == "_detail (0x515EEE): 1 vs 3");
  CHECK(d.report.find("the runs start in different states:\n  _detail (0x515EEE): 1 vs 3\n") == 0);
  CHECK(d.report.find("events match: 5 events\n") != std::string::npos);
}

TEST_CASE("trace-diff: a plain reference gives its start state as GLOBAL=VALUE lines") {
  const auto ours = parse_trace(kOursWithGlobals, "ours.jsonl");
  const auto same = parse_trace(
      "# state\n0x515EEE=1\n_frameCounter = 0x5\n14 0x4D2318\n"
      "20 do_anim_jmp\n",
      "ref.txt");
  REQUIRE(same.globals.size() == 2);
  CHECK(same.globals[1].value == 5);
  const auto ok = diff_traces(ours, same);
  INFO(ok.report);
  CHECK_FALSE(ok.diverged);
  const auto other = parse_trace("515EEEh=0\n0x51CDAA=-4\n14 0x4D2318\n20 0x4D3134\n", "ref.txt");
  const auto d = diff_traces(ours, other);
  CHECK(d.diverged);
  CHECK(d.report.find("the runs start in different states:\n  _detail (0x515EEE): 1 vs 0\n") == 0);
  // A global ours does not trace is a note, not a difference.
  CHECK(d.report.find("note: theirs gives 0x51CDAA=-4 (line 2), which ours does not trace\n") !=
        std::string::npos);
  CHECK(d.report.find("events match: 2 opcode events\n") != std::string::npos);
}

TEST_CASE("trace-diff: malformed global lines and start globals name the file and line") {
  auto error = [](const std::string& text) -> std::string {
    try {
      parse_trace(text, "t");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error("0x515EEE=one\n14 0x10\n") ==
        "t: line 1: expected \"GLOBAL=VALUE\" (a name or an address like 0x515EEE, an integer), "
        "got \"0x515EEE=one\"");
  CHECK(error("=1\n") ==
        "t: line 1: expected \"GLOBAL=VALUE\" (a name or an address like 0x515EEE, an integer), "
        "got \"=1\"");
  CHECK(error("14 0x10\n0x515EEE=1\n") ==
        "t: line 2: a global's value (GLOBAL=VALUE) after the first \"offset handler\" line; "
        "give the start state first");
  CHECK(error(R"({"ev":"start","state":{"globals":[1]}})"
              "\n") == "t: line 1: \"state.globals\" must be an object");
  CHECK(error(R"({"ev":"start","state":{"globals":{"_detail":{"addr":"x","value":1}}}})"
              "\n") ==
        "t: line 1: state.globals._detail.addr must be an address string like \"0x515EEE\"");
  CHECK(error(R"({"ev":"start","state":{"globals":{"_detail":"one"}}})"
              "\n") ==
        "t: line 1: state.globals._detail must be an integer or {\"addr\": .., \"value\": "
        "integer}");
  // A start line alone is a trace with no events but a state.
  CHECK(error(R"({"ev":"start","state":{}})"
              "\n") == "t: the trace is empty (no events)");
}

}  // namespace harness_trace_diff_tests
