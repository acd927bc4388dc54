// `shapevm dap`: a scripted Debug Adapter Protocol client. The requests are written framed
// (Content-Length) into a pipe to the server; its responses and events come back framed on
// stdout. Breakpoints are set on lines of the disassembly listing (the served source equals
// `shapevm disasm`), and stepping, stepping back, the stack, scopes, disassembly and x86
// single-stepping (FA-18: the gear guard) are checked against the same listing.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/dap_server.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_dap_tests {

using nlohmann::json;

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

// 1-based line numbers of `shapevm disasm`'s listing whose text (after indentation) starts with
// `prefix`.
int disasm_line(const std::string& listing, const std::string& prefix, int nth = 1) {
  std::istringstream in(listing);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, prefix.size(), prefix) == 0 && --nth == 0)
      return n;
  }
  return 0;
}

struct Exchange {
  std::vector<json> messages;
  std::map<int, json> responses;      // by request seq
  std::map<int, int> response_count;  // how many responses each request seq got
  // The first message of `kind` after the response to request `seq`.
  json event_after(int seq, const std::string& kind) const {
    bool seen = false;
    for (const auto& m : messages) {
      if (m["type"] == "response" && m["request_seq"] == seq) seen = true;
      if (seen && m["type"] == "event" && m["event"] == kind) return m;
    }
    return nullptr;
  }
};

Exchange run_dap(const std::vector<json>& requests, const ScratchDir& dir) {
  std::ostringstream framed;
  for (const auto& r : requests) shapevm::harness::write_dap_message(framed, r);
  const auto in = dir / "requests.dap";
  std::ofstream(in, std::ios::binary) << framed.str();
  // Through a pipe, as an editor connects.
  auto r = run_command("cat " + shell_quote(in.string()) + " | " + SHAPEVM_EXE + " dap");
  REQUIRE(r.exit_code == 0);
  Exchange ex;
  std::istringstream out(r.out);
  while (auto m = shapevm::harness::read_dap_message(out)) {
    ex.messages.push_back(*m);
    if ((*m)["type"] == "response") {
      ex.responses[(*m)["request_seq"].get<int>()] = *m;
      ++ex.response_count[(*m)["request_seq"].get<int>()];
    }
  }
  return ex;
}

json request(int seq, const std::string& command, json arguments = json::object()) {
  return {{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", arguments}};
}

}  // namespace

TEST_CASE("dap: framing round-trips and rejects malformed headers") {
  std::stringstream s;
  shapevm::harness::write_dap_message(s, {{"a", 1}});
  auto m = shapevm::harness::read_dap_message(s);
  REQUIRE(m);
  CHECK((*m)["a"] == 1);
  CHECK_FALSE(shapevm::harness::read_dap_message(s));
  std::istringstream bad("Content-Length: x\r\n\r\n{}");
  CHECK_THROWS_AS(shapevm::harness::read_dap_message(bad), std::invalid_argument);
  std::istringstream short_body("Content-Length: 10\r\n\r\n{}");
  CHECK_THROWS_AS(shapevm::harness::read_dap_message(short_body), std::invalid_argument);
  // A Content-Length with no value (found by the dap fuzz target: it escaped as out_of_range).
  for (const char* empty : {"Content-Length:\r\n\r\n{}", "Content-Length:   \r\n\r\n{}"}) {
    std::istringstream no_value(empty);
    CHECK_THROWS_AS(shapevm::harness::read_dap_message(no_value), std::invalid_argument);
  }
}

TEST_CASE("dap: breakpoints on listing lines then next stepBack stepIn stepOut and x86 stepping") {
  ScratchDir dir;
  const auto disasm = run_cli("disasm " + shell_quote(kJet));
  REQUIRE(disasm.exit_code == 0);
  // jet.fas: the first Unmask calls the wings, then ShortJump; the third is the gear arm.
  const int unmask_line = disasm_line(disasm.out, "Unmask @");
  const int after_line = unmask_line + 1;
  const int gear_line = disasm_line(disasm.out, "Unmask @", 3);
  REQUIRE(unmask_line > 0);
  REQUIRE(gear_line > 0);
  const json source = {{"sourceReference", 1}};
  std::vector<json> rq = {
      request(1, "initialize", {{"adapterID", "shapevm"}}),
      request(2, "launch", {{"program", kJet}, {"args", {"--set", "_PLgearDown=1"}}}),
      request(3, "setBreakpoints",
              {{"source", source}, {"breakpoints", {{{"line", unmask_line}}}}}),
      request(4, "configurationDone"),
      request(5, "continue", {{"threadId", 1}}),
      request(6, "stackTrace", {{"threadId", 1}}),
      request(7, "next", {{"threadId", 1}}),
      request(8, "stackTrace", {{"threadId", 1}}),
      request(9, "stepBack", {{"threadId", 1}}),
      request(10, "stackTrace", {{"threadId", 1}}),
      request(11, "stepIn", {{"threadId", 1}}),
      request(12, "stackTrace", {{"threadId", 1}}),
      request(13, "stepOut", {{"threadId", 1}}),
      request(14, "stackTrace", {{"threadId", 1}}),
      request(15, "scopes", {{"frameId", 0}}),
      request(16, "variables", {{"variablesReference", 3}}),
      request(17, "disassemble", {{"memoryReference", "0x0e"}, {"instructionCount", 2}}),
      request(18, "reverseContinue", {{"threadId", 1}}),
      request(19, "stackTrace", {{"threadId", 1}}),
      request(20, "setFunctionBreakpoints", {{"breakpoints", {{{"name", "x86"}}}}}),
      request(21, "continue", {{"threadId", 1}}),
      request(22, "stackTrace", {{"threadId", 1}}),
      request(23, "next", {{"threadId", 1}, {"granularity", "instruction"}}),
      request(24, "stackTrace", {{"threadId", 1}}),
      request(25, "scopes", {{"frameId", 0}}),
      request(26, "stepOut", {{"threadId", 1}}),
      request(27, "stackTrace", {{"threadId", 1}}),
      request(28, "source", {{"sourceReference", 1}}),
      request(29, "evaluate", {{"expression", "depth"}, {"context", "watch"}}),
      request(30, "finish-this-is-no-request"),
      request(31, "disconnect"),
  };
  const Exchange ex = run_dap(rq, dir);
  for (int seq = 1; seq <= 31; ++seq) {
    CAPTURE(seq);
    REQUIRE(ex.responses.count(seq) == 1);
    CHECK(ex.responses.at(seq)["success"] == (seq != 30));
  }
  auto top_line = [&](int seq) { return ex.responses.at(seq)["body"]["stackFrames"][0]["line"]; };
  auto frames = [&](int seq) { return ex.responses.at(seq)["body"]["stackFrames"].size(); };

  CHECK(ex.responses.at(1)["body"]["supportsStepBack"] == true);
  CHECK(ex.event_after(1, "initialized") != nullptr);
  CHECK(ex.responses.at(3)["body"]["breakpoints"][0]["verified"] == true);
  CHECK(ex.responses.at(3)["body"]["breakpoints"][0]["line"] == unmask_line);
  CHECK(ex.event_after(4, "stopped")["body"]["reason"] == "entry");
  CHECK(ex.event_after(5, "stopped")["body"]["reason"] == "breakpoint");
  CHECK(top_line(6) == unmask_line);
  CHECK(frames(6) == 1);
  CHECK(top_line(8) == after_line);  // next ran the wing fragment
  CHECK(frames(8) == 1);
  CHECK(top_line(10) == unmask_line);  // stepBack (reverse-next) over the call
  CHECK(frames(12) == 2);              // stepIn entered the fragment
  CHECK(ex.responses.at(12)["body"]["stackFrames"][1]["line"] == unmask_line);
  CHECK(top_line(14) == after_line);  // stepOut returned to the caller
  CHECK(ex.responses.at(15)["body"]["scopes"].size() == 3);
  CHECK(ex.responses.at(16)["body"]["variables"].size() == 16);  // the LOD 0 VertexBuffer
  const json dis = ex.responses.at(17)["body"]["instructions"];
  REQUIRE(dis.size() == 2);
  CHECK(dis[0]["address"] == "0x000e");
  CHECK(dis[0]["instruction"].get<std::string>().rfind("PtrToObjEnd", 0) == 0);
  CHECK(top_line(19) == unmask_line);  // reverseContinue to the breakpoint
  CHECK(ex.event_after(21, "stopped")["body"]["reason"] == "breakpoint");
  const std::string x86_frame = ex.responses.at(22)["body"]["stackFrames"][0]["name"];
  CHECK(x86_frame.rfind("x86: cmp word ptr", 0) == 0);
  // Named as disasm names it, not by the sandbox address of its trampoline.
  CHECK(x86_frame.find("word ptr [_PL") != std::string::npos);
  const std::string x86_next = ex.responses.at(24)["body"]["stackFrames"][0]["name"];
  CHECK(x86_next.rfind("x86: jne", 0) == 0);
  CHECK(ex.responses.at(25)["body"]["scopes"].size() == 4);  // with the x86 registers
  CHECK(top_line(27) == gear_line);  // stepOut of the block: re-entry at the gear arm
  CHECK(ex.responses.at(28)["body"]["content"] == disasm.out);
  CHECK(ex.responses.at(29)["body"]["result"] == "0");
}

TEST_CASE("dap: a launch with a missing program or bad state fails with a message") {
  ScratchDir dir;
  const Exchange ex = run_dap(
      {request(1, "initialize"), request(2, "launch", {{"program", (dir / "none.SH").string()}}),
       request(3, "launch", {{"program", kJet}, {"args", {"--frame", "x"}}}),
       request(4, "stackTrace", {{"threadId", 1}}), request(5, "disconnect")},
      dir);
  CHECK(ex.responses.at(2)["success"] == false);
  CHECK(ex.responses.at(3)["success"] == false);
  CHECK(ex.responses.at(3)["message"].get<std::string>().find("--frame") != std::string::npos);
  CHECK(ex.responses.at(4)["success"] == false);
  CHECK(ex.responses.at(5)["success"] == true);
}

TEST_CASE(
    "dap: every request kind gets exactly one response, before launch, mid-run and after the end") {
  // An editor pairs a response with its request by request_seq; a second response to the same
  // request (success, then "the run has ended") would leave it showing a running session.
  ScratchDir dir;
  // Every request kind the server knows, plus one it does not.
  const std::vector<std::pair<std::string, json>> kinds = {
      {"threads", json::object()},
      {"setBreakpoints", {{"source", {{"sourceReference", 1}}}, {"breakpoints", json::array()}}},
      {"setFunctionBreakpoints", {{"breakpoints", json::array()}}},
      {"setExceptionBreakpoints", {{"filters", json::array()}}},
      {"source", {{"sourceReference", 1}}},
      {"continue", {{"threadId", 1}}},
      {"next", {{"threadId", 1}}},
      {"next", {{"threadId", 1}, {"granularity", "instruction"}}},
      {"stepIn", {{"threadId", 1}}},
      {"stepOut", {{"threadId", 1}}},
      {"pause", {{"threadId", 1}}},
      {"stackTrace", {{"threadId", 1}}},
      {"scopes", {{"frameId", 0}}},
      {"variables", {{"variablesReference", 1}}},
      {"evaluate", {{"expression", "depth"}}},
      {"evaluate", {{"expression", "step"}}},
      {"disassemble", {{"memoryReference", "0"}, {"instructionCount", 1}}},
      {"no-such-request", json::object()},
      {"stepBack", {{"threadId", 1}}},
      {"reverseContinue", {{"threadId", 1}}},
      {"restart", json::object()},
  };
  std::vector<json> rq;
  int seq = 0;
  std::vector<int> after_end;  // seqs of the moves forward sent once the run had ended
  rq.push_back(request(++seq, "initialize"));
  for (const auto& [command, args] : kinds) rq.push_back(request(++seq, command, args));
  rq.push_back(request(++seq, "launch", {{"program", kJet}}));
  rq.push_back(request(++seq, "configurationDone"));
  for (const auto& [command, args] : kinds) rq.push_back(request(++seq, command, args));
  // Run to the end, then every kind again: forward moves now fail, once each.
  rq.push_back(request(++seq, "continue", {{"threadId", 1}}));
  const int end_seq = seq;
  for (const auto& [command, args] : kinds) {
    rq.push_back(request(++seq, command, args));
    if (command == "continue" || command == "next" || command == "stepIn") after_end.push_back(seq);
    if (command == "stepBack") rq.push_back(request(++seq, "continue", {{"threadId", 1}}));
  }
  rq.push_back(request(++seq, "terminate"));
  const Exchange ex = run_dap(rq, dir);
  int responses = 0;
  for (const auto& m : ex.messages) responses += m["type"] == "response";
  CHECK(responses == seq);
  for (int k = 1; k <= seq; ++k) {
    CAPTURE(k);
    CAPTURE(rq[static_cast<size_t>(k - 1)]["command"]);
    CHECK(ex.response_count.count(k) == 1);
    if (ex.response_count.count(k)) CHECK(ex.response_count.at(k) == 1);
  }
  REQUIRE(ex.event_after(end_seq, "stopped") != nullptr);
  CHECK(ex.event_after(end_seq, "stopped")["body"]["text"].get<std::string>().rfind("end of run",
                                                                                    0) == 0);
  REQUIRE(after_end.size() == 4);
  for (int k : after_end) {
    CAPTURE(k);
    CHECK(ex.responses.at(k)["success"] == false);
    CHECK(ex.responses.at(k)["message"].get<std::string>().find("the run has ended") !=
          std::string::npos);
    // A failed move reports no stop: the editor keeps showing the stopped end.
    const json next = ex.event_after(k, "stopped");
    if (next != nullptr) CHECK(next["seq"] > ex.responses.at(k + 1)["seq"]);
  }
}

}  // namespace tools_cli_dap_tests
