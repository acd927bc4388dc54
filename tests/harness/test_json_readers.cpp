// Every JSON reader (the regression manifest, trace-diff's traces, the DAP server's messages)
// reports every nlohmann failure as a precise input error: a number beyond a double's range
// (1e400, -1e400: nlohmann's out_of_range 406, not a parse_error), a field of the wrong type, an
// integer too large for its field (2^64 + 1). The message names the input and where; the CLI
// exits 2.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "harness/dap_server.h"
#include "harness/json_input.h"
#include "harness/regress_manifest.h"
#include "harness/trace_diff.h"
#include "tests/tools/run_cli.h"

namespace harness_json_readers_tests {

using namespace shapevm;

namespace {

// 2^64 + 1: no 64-bit integer holds it, so nlohmann reads it as a double.
const char* kHuge = "18446744073709551617";

std::string manifest_with_frame(const std::string& frame) {
  return R"({"version": 1, "cases": [{"name": "a", "engine": "fa", "file": "a.SH",
    "capture": "a.png", "state": {"frame": )" +
         frame + "}}]}";
}

// The InputError a manifest gives, as the CLI prints it.
std::string manifest_error(const std::string& text) {
  try {
    harness::parse_manifest(text, "/data/m.json", {"fa"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string trace_error(const std::string& text) {
  try {
    harness::parse_trace(text, "theirs.jsonl");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string dap_framed(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("json input: a number out of a double's range is an InputError at its offset") {
  const std::string text = R"({"a": [1, 2, 1e400]})";
  try {
    harness::parse_json_input(text, "x.json");
    FAIL("1e400 parsed");
  } catch (const InputError& e) {
    CHECK(e.source() == "x.json");
    REQUIRE(e.has_offset());
    CHECK(e.offset() == text.find("1e400"));
    CHECK(std::string(e.what()).find("1e400") != std::string::npos);
  }
  const auto failure = harness::find_json_failure("[-1e400]");
  REQUIRE(failure);
  CHECK(failure->offset == 1);
  CHECK_FALSE(harness::find_json_failure("[1e300]"));
}

TEST_CASE("regress manifest: 1e400, -1e400, a wrong type and 2^64+1 are precise errors") {
  for (const std::string number : {"1e400", "-1e400"}) {
    const std::string text = manifest_with_frame(number);
    const std::string e = manifest_error(text);
    CAPTURE(e);
    CHECK(e.find("/data/m.json") != std::string::npos);
    CHECK(e.find(fmt::format("offset 0x{:x}", text.find(number))) != std::string::npos);
  }
  const std::string typed = manifest_error(manifest_with_frame("\"two\""));
  CHECK(typed.find("/data/m.json") != std::string::npos);
  CHECK(typed.find("/cases/0/state/frame: expected an integer 0..4294967295") != std::string::npos);
  const std::string huge = manifest_error(manifest_with_frame(kHuge));
  CAPTURE(huge);
  CHECK(huge.find("/cases/0/state/frame: expected an integer") != std::string::npos);
  const std::string version = manifest_error(R"({"version": "1", "cases": []})");
  CHECK(version.find("/version: expected an integer") != std::string::npos);

  // Through the CLI: exit 2, the file named.
  ScratchDir dir;
  std::ofstream(dir / "m.json") << manifest_with_frame("1e400");
  const auto r = run_cli("regress " + shell_quote((dir / "m.json").string()));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("m.json") != std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
}

TEST_CASE("trace-diff: 1e400, -1e400, a wrong type and 2^64+1 name the trace and the line") {
  const std::string start = R"({"ev":"start","eng":"fa","schema":1,"source":"a.SH","state":{}})";
  for (const std::string number : {"1e400", "-1e400"}) {
    const std::string e = trace_error(start + "\n{\"ev\":\"op\",\"off\":" + number + "}\n");
    CAPTURE(e);
    CHECK(e.find("theirs.jsonl") != std::string::npos);
    CHECK(e.find("line 2: expected a JSON object (column 18: ") != std::string::npos);
  }
  const std::string typed = trace_error(start + "\n{\"ev\":\"op\",\"off\":\"14\"}\n");
  CHECK(typed.find("line 2: an \"op\" event needs \"off\" (an unsigned integer)") !=
        std::string::npos);
  const std::string huge = trace_error(start + "\n{\"ev\":\"op\",\"off\":" + kHuge + "}\n");
  CHECK(huge.find("line 2: an \"op\" event needs \"off\"") != std::string::npos);
  // A global's start value: an integer, and one an int64 holds (2^64 - 1 does not).
  const std::string global = trace_error(
      R"({"ev":"start","eng":"fa","state":{"globals":{"_detail":18446744073709551615}}})");
  CHECK(global.find("line 1: state.globals._detail must be an integer") != std::string::npos);
  const std::string ev = trace_error(R"({"ev":7})");
  CHECK(ev.find("line 1: expected a JSON object with a string \"ev\"") != std::string::npos);

  // Through the CLI: exit 2, the file named.
  ScratchDir dir;
  std::ofstream(dir / "ours.jsonl") << start << "\n{\"ev\":\"op\",\"off\":14}\n";
  std::ofstream(dir / "theirs.jsonl") << start << "\n{\"ev\":\"op\",\"off\":1e400}\n";
  const auto r = run_cli("trace-diff " + shell_quote((dir / "ours.jsonl").string()) + " " +
                         shell_quote((dir / "theirs.jsonl").string()));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("theirs.jsonl: line 2: expected a JSON object (column 18: ") !=
        std::string::npos);
}

TEST_CASE("dap: 1e400, -1e400, a wrong type and 2^64+1 are precise errors, not exceptions") {
  for (const std::string number : {"1e400", "-1e400"}) {
    std::istringstream in(dap_framed(R"({"seq":)" + number + "}"));
    try {
      harness::read_dap_message(in);
      FAIL("parsed");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("DAP message body, byte 7") != std::string::npos);
    }
  }
  // The stream as `shapevm dap` reads it: a malformed envelope ends the session with exit 2 and
  // the problem named.
  auto serve = [](const std::string& body) {
    ScratchDir dir;
    std::ofstream(dir / "in", std::ios::binary) << dap_framed(body);
    return run_command(shell_quote(SHAPEVM_EXE) + " dap < " + shell_quote((dir / "in").string()));
  };
  const auto typed = serve(R"({"seq":"1","type":"request","command":"initialize"})");
  CHECK(typed.exit_code == 2);
  CHECK(typed.err.find("\"seq\" must be an integer 0..2147483647, got \"1\"") != std::string::npos);
  const auto huge =
      serve(std::string(R"({"seq":)") + kHuge + R"(,"type":"request","command":"initialize"})");
  CHECK(huge.exit_code == 2);
  CHECK(huge.err.find("\"seq\" must be an integer") != std::string::npos);
  const auto command = serve(R"({"seq":1,"type":"request","command":5})");
  CHECK(command.exit_code == 2);
  CHECK(command.err.find("expected a string \"command\"") != std::string::npos);
  const auto out_of_range = serve(R"({"seq":1e400,"type":"request","command":"initialize"})");
  CHECK(out_of_range.exit_code == 2);
  CHECK(out_of_range.err.find("byte 7") != std::string::npos);
}

TEST_CASE("dap: a request argument of the wrong type or beyond its range fails that request") {
  // Raw bodies: nlohmann would not write 2^64 + 1 as an integer.
  const std::string jet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
  const std::vector<std::string> bodies = {
      R"({"seq":1,"type":"request","command":"initialize","arguments":{}})",
      R"({"seq":2,"type":"request","command":"launch","arguments":{"program":")" + jet +
          R"(","stopOnEntry":true}})",
      R"({"seq":3,"type":"request","command":"setBreakpoints","arguments":{"source":{"sourceReference":1},"breakpoints":[{"line":)" +
          std::string(kHuge) + "}]}}",
      R"({"seq":4,"type":"request","command":"disassemble","arguments":{"memoryReference":"0","instructionCount":"ten"}})",
      R"({"seq":5,"type":"request","command":"disconnect","arguments":{}})"};
  std::string stream;
  for (const auto& b : bodies) stream += dap_framed(b);
  ScratchDir dir;
  std::ofstream(dir / "in", std::ios::binary) << stream;
  const auto r =
      run_command(shell_quote(SHAPEVM_EXE) + " dap < " + shell_quote((dir / "in").string()));
  INFO(r.err);
  CHECK(r.exit_code == 0);  // the session goes on: each bad request got its failure response
  std::istringstream out(r.out);
  std::map<int, nlohmann::json> responses;
  while (auto m = harness::read_dap_message(out))
    if ((*m)["type"] == "response") responses[(*m)["request_seq"].get<int>()] = *m;
  REQUIRE(responses.count(3) == 1);
  CHECK(responses[3]["success"] == false);
  CHECK(responses[3]["message"].get<std::string>().find(
            "\"line\": expected an integer -2147483648..2147483647, got 1.8446744073709552e+19") !=
        std::string::npos);
  REQUIRE(responses.count(4) == 1);
  CHECK(responses[4]["success"] == false);
  CHECK(responses[4]["message"].get<std::string>().find(
            "\"instructionCount\": expected an integer 0..2147483647, got \"ten\"") !=
        std::string::npos);
  CHECK(responses[5]["success"] == true);
}

}  // namespace harness_json_readers_tests
