// Apache through the engine-neutral tools, as a user types them: `view --headless`, `debug
// --batch` (step, back, break on an opcode and on the Nth face, reverse-continue), `dap`, and
// `regress` with "engine": "apache"; plus the engine's own state declarations (an FA-only option
// names the engines that take it).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/file_io.h"
#include "harness/dap_server.h"
#include "raster/png_io.h"
#include "tests/tools/run_cli.h"

namespace apache_cli_apache_tools_tests {

using nlohmann::json;

namespace {

const std::string kVehicle = SHAPEVM_EXAMPLES_BUILD_DIR "/apache/vehicle/3DOBJS.BIN";
const std::string kTank = kVehicle + ":tank";

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

json request(int seq, const std::string& command, json arguments = json::object()) {
  return {{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", arguments}};
}

}  // namespace

TEST_CASE("cli apache: view --headless writes frames through the Apache viewer model") {
  ScratchDir dir;
  const auto r =
      run_cli("view " + shell_quote(kTank) + " --headless --frames 3 --size 160x120 -o " +
              shell_quote((dir / "frames").string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(has(r.out, "3 frames"));
  const auto first = shapevm::raster::read_png(dir / "frames" / "frame_00000.png");
  CHECK(first.frame.width() == 160);
  CHECK(first.frame.height() == 120);
  // The viewer draws what `render` draws for the same state and size.
  const auto rendered = run_cli("render " + shell_quote(kTank) + " --size 160x120 -o " +
                                shell_quote((dir / "r.png").string()));
  REQUIRE(rendered.exit_code == 0);
  CHECK(shapevm::raster::read_png(dir / "r.png").frame == first.frame);
}

TEST_CASE("cli apache: debug --batch steps, steps back, breaks on an opcode and a face") {
  ScratchDir dir;
  const auto listing = run_cli("disasm " + shell_quote(kTank));
  REQUIRE(listing.exit_code == 0);
  const std::string batch = (dir / "cmds").string();
  shapevm::write_text_atomic(batch,
                             "step 3\n"
                             "info frame\n"
                             "back 2\n"
                             "info frame\n"
                             "break face 2\n"
                             "continue\n"
                             "regs\n"
                             "reverse-continue\n"
                             "info frame\n"
                             "delete 1\n"
                             "continue\n");
  const auto r = run_cli("debug " + shell_quote(kTank) + " --batch " + shell_quote(batch));
  REQUIRE_MESSAGE(r.exit_code == 0, r.out << r.err);
  CHECK(has(r.out, "tick 3"));
  CHECK(has(r.out, "tick 1"));
  CHECK(has(r.out, "record"));  // a register the Apache engine declares
  CHECK(has(r.out, "end of run"));
  // A --set name Apache does not declare is refused before the session starts.
  const auto bad =
      run_cli("debug " + shell_quote(kTank) + " --set colour=3 --batch " + shell_quote(batch));
  CHECK(bad.exit_code == 2);
  CHECK(has(bad.err, "closest"));
}

TEST_CASE("cli apache: the DAP server launches an Apache record and steps forwards and back") {
  ScratchDir dir;
  std::ostringstream framed;
  const std::vector<json> rq = {
      request(1, "initialize", {{"adapterID", "shapevm"}}),
      request(2, "launch", {{"program", kTank}, {"args", {"--set", "anim=0x23"}}}),
      request(3, "configurationDone"),
      request(4, "next", {{"threadId", 1}}),
      request(5, "next", {{"threadId", 1}}),
      request(6, "stackTrace", {{"threadId", 1}}),
      request(7, "stepBack", {{"threadId", 1}}),
      request(8, "stackTrace", {{"threadId", 1}}),
      request(9, "scopes", {{"frameId", 0}}),
      request(10, "disconnect"),
  };
  for (const auto& m : rq) shapevm::harness::write_dap_message(framed, m);
  const auto in = dir / "requests.dap";
  std::ofstream(in, std::ios::binary) << framed.str();
  const auto r = run_command("cat " + shell_quote(in.string()) + " | " + SHAPEVM_EXE + " dap");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<int, json> responses;
  std::istringstream out(r.out);
  while (auto m = shapevm::harness::read_dap_message(out))
    if ((*m)["type"] == "response") responses[(*m)["request_seq"].get<int>()] = *m;
  for (int seq = 1; seq <= 10; ++seq) {
    CAPTURE(seq);
    REQUIRE(responses.count(seq) == 1);
    CHECK(responses[seq]["success"] == true);
  }
  const auto line_of = [&](int seq) {
    return responses[seq]["body"]["stackFrames"][0]["line"].get<int>();
  };
  CHECK(line_of(8) < line_of(6));  // stepping back moved up the listing
  CHECK_FALSE(responses[9]["body"]["scopes"].empty());
}

TEST_CASE("cli apache: regress runs a manifest with engine apache") {
  ScratchDir dir;
  const auto png = (dir / "tank.png").string();
  REQUIRE(run_cli("render " + shell_quote(kTank) + " --background 18 -o " + shell_quote(png))
              .exit_code == 0);
  const std::string manifest = (dir / "m.json").string();
  shapevm::write_text_atomic(manifest, json({{"version", 1},
                                             {"cases",
                                              {{{"name", "tank"},
                                                {"engine", "apache"},
                                                {"background", 18},
                                                {"file", kTank},
                                                {"capture", "tank.png"}},
                                               {{"name", "tank_anim"},
                                                {"engine", "apache"},
                                                {"background", 18},
                                                {"file", kTank},
                                                {"state", {{"set", {"anim=0x23"}}}},
                                                {"capture", "tank.png"}}}}})
                                           .dump());
  const auto r = run_cli("regress " + shell_quote(manifest));
  CHECK(r.exit_code == 1);  // the animation state changes the frame
  CHECK(has(r.out, "1 passed, 1 failed"));
}

TEST_CASE("cli apache: state options it does not take name the engines that do") {
  const auto merged = run_cli("render " + shell_quote(kTank) + " -o /dev/null --merged");
  CHECK(merged.exit_code == 2);
  CHECK(has(merged.err, "--merged"));
  CHECK(has(merged.err, "engines that do: fa"));
  const auto frame = run_cli("trace " + shell_quote(kTank) + " --frame 2");
  CHECK(frame.exit_code == 2);
  CHECK(has(frame.err, "engines that do: fa"));
}

}  // namespace apache_cli_apache_tools_tests
