// Many inputs in one process (tools/batch.h): several arguments and CONTAINER:PATTERN, one output
// per input in the -o folder, a line per input, and an input that fails leaves the others done.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "interp/common/json_text.h"
#include "interp/common/registry.h"
#include "tests/fa/lib_builder.h"
#include "tests/tools/run_cli.h"
#include "tools/batch.h"

namespace tools_cli_batch_tests {

namespace {

namespace fs = std::filesystem;

const std::string kExamples = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/";

std::string q(const fs::path& p) {
  return shell_quote(p.string());
}

size_t count_lines(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// A FA library holding the jet and the tank under awkward names: one that climbs out of the
// output folder, and one name twice.
fs::path awkward_library(const ScratchDir& dir) {
  const auto jet = shapevm::read_file(kExamples + "jet.SH");
  const auto tank = shapevm::read_file(kExamples + "tank.SH");
  const fs::path lib = dir / "AWKWARD.LIB";
  shapevm::write_file_atomic(lib, shapevm::test::build_ealib({{"../EVIL.SH", 0, jet},
                                                              {"TANK.SH", 0, tank},
                                                              {"tank.sh", 0, jet},
                                                              {"TANK.SH", 0, jet}}));
  return lib;
}

}  // namespace

TEST_CASE("render: several inputs write one PNG each into the -o folder, as single runs do") {
  const ScratchDir dir;
  const CliResult r = run_cli("render " + q(kExamples + "jet.SH") + " " + q(kExamples + "tank.SH") +
                              " -o " + q(dir / "out"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == kExamples + "jet.SH -> " + (dir / "out" / "jet.SH.png").string() + "\n" +
                     kExamples + "tank.SH -> " + (dir / "out" / "tank.SH.png").string() + "\n");
  CHECK(r.err.find("shapevm: 2 inputs: 2 done, 0 failed\n") != std::string::npos);
  for (const std::string name : {"jet", "tank"}) {
    const CliResult one =
        run_cli("render " + q(kExamples + name + ".SH") + " -o " + q(dir / (name + ".png")));
    REQUIRE(one.exit_code == 0);
    CHECK(shapevm::read_file(dir / (name + ".png")) ==
          shapevm::read_file(dir / "out" / (name + ".SH.png")));
  }
}

TEST_CASE("an input that fails is reported and the others are still done; the exit is 2") {
  const ScratchDir dir;
  shapevm::write_file_atomic(dir / "BROKEN.SH", shapevm::test::to_bytes("MZ but nothing else"));
  const CliResult r = run_cli("render " + q(kExamples + "jet.SH") + " " + q(dir / "BROKEN.SH") +
                              " " + q(kExamples + "hangar.SH") + " -o " + q(dir / "out"));
  CHECK(r.exit_code == 2);
  CHECK(fs::exists(dir / "out" / "jet.SH.png"));
  CHECK(fs::exists(dir / "out" / "hangar.SH.png"));
  CHECK_FALSE(fs::exists(dir / "out" / "BROKEN.SH.png"));
  CHECK(r.out.find((dir / "BROKEN.SH").string() + ": failed (exit 2)\n") != std::string::npos);
  CHECK(r.err.find("shapevm: error: " + (dir / "BROKEN.SH").string()) != std::string::npos);
  CHECK(r.err.find("shapevm: 3 inputs: 2 done, 1 failed\n") != std::string::npos);

  // Run again: every output exists, so without --force each input fails and nothing is replaced.
  const auto before = fs::last_write_time(dir / "out" / "jet.SH.png");
  const CliResult again = run_cli("render " + q(kExamples + "jet.SH") + " " +
                                  q(kExamples + "hangar.SH") + " -o " + q(dir / "out"));
  CHECK(again.exit_code == 2);
  CHECK(count_lines(again.err, "exists (--force overwrites it)") == 2);
  CHECK(fs::last_write_time(dir / "out" / "jet.SH.png") == before);
  CHECK(run_cli("render " + q(kExamples + "jet.SH") + " " + q(kExamples + "hangar.SH") + " -o " +
                q(dir / "out") + " --force")
            .exit_code == 0);
}

TEST_CASE("with both streams in one file, a failing input's error follows the text before it") {
  // Output to a file is buffered in large blocks; the error must still come between the text of
  // the input before it and the input after it, as a reader of the combined log expects.
  const ScratchDir dir;
  shapevm::write_file_atomic(dir / "BROKEN.SH", shapevm::test::to_bytes("MZ but nothing else"));
  const CliResult r = run_command(shell_quote(SHAPEVM_EXE) + " info " + q(kExamples + "jet.SH") +
                                  " " + q(dir / "BROKEN.SH") + " " + q(kExamples + "hangar.SH") +
                                  " > " + q(dir / "log.txt") + " 2>&1");
  CHECK(r.exit_code == 2);
  const auto bytes = shapevm::read_file(dir / "log.txt");
  const std::string log(bytes.begin(), bytes.end());
  const size_t jet = log.find("jet.SH\n");
  const size_t error = log.find("shapevm: error: " + (dir / "BROKEN.SH").string());
  const size_t hangar = log.find("hangar.SH\n");
  REQUIRE(jet != std::string::npos);
  REQUIRE(error != std::string::npos);
  REQUIRE(hangar != std::string::npos);
  CHECK(jet < error);
  CHECK(error < hangar);
}

TEST_CASE("CONTAINER:PATTERN runs every member whose name matches, in container order") {
  const ScratchDir dir;
  const fs::path lib = awkward_library(dir);
  const CliResult r = run_cli("render " + q(lib.string() + ":*.sh") + " -o " + q(dir / "out"));
  REQUIRE(r.exit_code == 0);
  // Matched without regard to case; a name repeated (in any case) is reached by index and written
  // under a suffixed name; a name that climbs out of the folder stays inside it.
  CHECK(r.out == lib.string() + ":../EVIL.SH -> " + (dir / "out" / "_.._EVIL.SH.png").string() +
                     "\n" + lib.string() + ":TANK.SH -> " + (dir / "out" / "TANK.SH.png").string() +
                     "\n" + lib.string() + ":#2 -> " + (dir / "out" / "tank.sh~2.png").string() +
                     "\n" + lib.string() + ":#3 -> " + (dir / "out" / "TANK.SH~3.png").string() +
                     "\n");
  CHECK_FALSE(fs::exists(dir / "EVIL.SH.png"));
  // Each output is the member's own frame: #3 holds the jet, TANK.SH the tank.
  REQUIRE(run_cli("render " + q(kExamples + "jet.SH") + " -o " + q(dir / "jet.png")).exit_code ==
          0);
  CHECK(shapevm::read_file(dir / "out" / "TANK.SH~3.png") == shapevm::read_file(dir / "jet.png"));
  CHECK(shapevm::read_file(dir / "out" / "TANK.SH.png") != shapevm::read_file(dir / "jet.png"));

  const CliResult none = run_cli("render " + q(lib.string() + ":*.PIC") + " -o " + q(dir / "o2"));
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("the pattern '*.PIC' matches none of the 4 members of " + lib.string()) !=
        std::string::npos);

  const CliResult nested = run_cli("info " + q(lib.string() + ":TANK.SH:*"));
  CHECK(nested.exit_code == 2);
  CHECK(nested.err.find("a member pattern needs a container file, not a member of one") !=
        std::string::npos);

  const CliResult not_container = run_cli("info " + q(kExamples + "jet.SH") + ":*");
  CHECK(not_container.exit_code == 2);
  CHECK(not_container.err.find("holds no members") != std::string::npos);
}

TEST_CASE("a batch that must write files needs -o, and -o must be a folder") {
  const ScratchDir dir;
  const std::string two = q(kExamples + "jet.SH") + " " + q(kExamples + "tank.SH");
  const CliResult no_output = run_cli("export " + two + " -o ''");
  CHECK(no_output.exit_code == 2);
  const CliResult render_file = run_cli("render " + two + " -o " + q(dir / "a.png"));
  CHECK(render_file.exit_code == 0);  // a folder named a.png is made: -o names a folder here
  CHECK(fs::is_directory(dir / "a.png"));
  shapevm::write_file_atomic(dir / "file", shapevm::test::to_bytes("x"));
  const CliResult onto_file = run_cli("render " + two + " -o " + q(dir / "file"));
  CHECK(onto_file.exit_code == 2);
  CHECK(onto_file.err.find("is a file: with several inputs, -o names a folder") !=
        std::string::npos);
}

TEST_CASE("trace, disasm, info, export and check run over many inputs too") {
  const ScratchDir dir;
  const std::string two = q(kExamples + "jet.SH") + " " + q(kExamples + "tank.SH");

  // trace to stdout: one trace after the other, each with its start and end.
  const CliResult traces = run_cli("trace --no-ops " + two);
  REQUIRE(traces.exit_code == 0);
  CHECK(count_lines(traces.out, "{\"ev\":\"start\"") == 2);
  CHECK(count_lines(traces.out, "{\"ev\":\"end\"") == 2);
  // trace into a folder: each file is the single run's trace.
  REQUIRE(run_cli("trace " + two + " -o " + q(dir / "traces")).exit_code == 0);
  const CliResult single = run_cli("trace " + q(kExamples + "tank.SH"));
  CHECK(shapevm::read_file(dir / "traces" / "tank.SH.jsonl") ==
        shapevm::test::to_bytes(single.out));

  // disasm into a folder, text and JSON.
  REQUIRE(run_cli("disasm " + two + " -o " + q(dir / "listings")).exit_code == 0);
  CHECK(shapevm::read_file(dir / "listings" / "jet.SH.txt") ==
        shapevm::test::to_bytes(run_cli("disasm " + q(kExamples + "jet.SH")).out));
  REQUIRE(run_cli("disasm --json " + two + " -o " + q(dir / "json")).exit_code == 0);
  CHECK(fs::exists(dir / "json" / "tank.SH.json"));

  // info: a broken input between two good ones; both good ones are described.
  shapevm::write_file_atomic(dir / "BROKEN.SH", shapevm::test::to_bytes("nothing"));
  const CliResult info = run_cli("info --json " + q(kExamples + "jet.SH") + " " +
                                 q(dir / "BROKEN.SH") + " " + q(kExamples + "tank.SH"));
  CHECK(info.exit_code == 2);
  CHECK(count_lines(info.out, "\n") == 2);  // one JSON object per line, for the two good ones
  CHECK(info.err.find("shapevm: 3 inputs: 2 done, 1 failed") != std::string::npos);

  // export: an OBJ and its MTL per input.
  REQUIRE(run_cli("export " + two + " -o " + q(dir / "meshes")).exit_code == 0);
  CHECK(fs::exists(dir / "meshes" / "jet.SH.obj"));
  CHECK(fs::exists(dir / "meshes" / "jet.SH.mtl"));
  REQUIRE(run_cli("export " + two + " --format glb -o " + q(dir / "glb")).exit_code == 0);
  CHECK(fs::exists(dir / "glb" / "tank.SH.glb"));

  // check: one verdict line per input, and the rewrites under their own names.
  const CliResult check = run_cli("check " + two + " -o " + q(dir / "rewritten"));
  CHECK(check.exit_code == 0);
  CHECK(count_lines(check.out, "identical when written again") == 2);
  CHECK(shapevm::read_file(dir / "rewritten" / "jet.SH") ==
        shapevm::read_file(kExamples + "jet.SH"));
}

TEST_CASE("-j runs inputs at once and prints exactly what one at a time prints, in input order") {
  // More inputs than the threads may run ahead of the oldest unprinted one (4 per job), with a
  // broken file, a run its budget stops and a warning among them; both streams into one file, so
  // the order of every line, on stdout or stderr, is compared.
  const ScratchDir dir;
  shapevm::write_file_atomic(dir / "BROKEN.SH", shapevm::test::to_bytes("MZ but nothing else"));
  std::string inputs;
  for (int round = 0; round < 6; ++round)
    for (const std::string name : {"jet", "tank", "hangar", "radar"})
      inputs += " " + q(kExamples + name + ".SH");
  inputs += " " + q(dir / "BROKEN.SH") + " " + q(kExamples + "hangar.SH");
  struct Command {
    std::string args;  // with {OUT} for the output folder, when the command writes files
    int exit_code;
  };
  const std::vector<Command> commands = {
      {"info", 2},
      {"info --json", 2},
      {"disasm", 2},
      {"trace --no-ops", 2},
      {"trace --max-steps 40 --no-ops", 2},
      {"render --max-steps 40 -o {OUT}", 2},
      {"render -o {OUT}", 2},
      {"export -o {OUT}", 2},
      {"check -o {OUT}", 2},
  };
  for (const Command& command : commands) {
    CAPTURE(command.args);
    std::string logs[2];
    for (const int jobs : {1, 3}) {
      std::string args = command.args;
      const fs::path out = dir / ("out-" + std::to_string(jobs));
      fs::remove_all(out);
      if (const size_t at = args.find("{OUT}"); at != std::string::npos)
        args.replace(at, 5, q(out));
      const fs::path log = dir / "log.txt";
      const CliResult r = run_command(shell_quote(SHAPEVM_EXE) + " " + args + " -j " +
                                      std::to_string(jobs) + inputs + " > " + q(log) + " 2>&1");
      CHECK(r.exit_code == command.exit_code);
      const auto bytes = shapevm::read_file(log);
      logs[jobs == 1 ? 0 : 1] = std::string(bytes.begin(), bytes.end());
    }
    CHECK(logs[0].find("shapevm: 26 inputs: 25 done, 1 failed\n") != std::string::npos);
    // The output lines name their folders, which differ; the same text otherwise.
    std::string with_j3 = logs[1];
    for (size_t at = with_j3.find("out-3"); at != std::string::npos; at = with_j3.find("out-3"))
      with_j3.replace(at, 5, "out-1");
    CHECK(with_j3 == logs[0]);
    if (command.args.find("{OUT}") != std::string::npos) {
      size_t files = 0;
      for (const auto& entry : fs::directory_iterator(dir / "out-1")) {
        ++files;
        CHECK(shapevm::read_file(entry.path()) ==
              shapevm::read_file(dir / "out-3" / entry.path().filename()));
      }
      CHECK(files >= 25);
    }
  }
}

TEST_CASE("-j: stdout that refuses writes is an error, exit 2, as one at a time") {
  const std::string inputs =
      q(kExamples + "jet.SH") + " " + q(kExamples + "tank.SH") + " " + q(kExamples + "hangar.SH");
  for (const std::string jobs : {"1", "2"}) {
    CAPTURE(jobs);
    const CliResult r = run_cli("disasm -j " + jobs + " " + inputs + " > /dev/full");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("shapevm: error: stdout") != std::string::npos);
  }
  // -j 0 means one per core; a value out of range is a usage error.
  CHECK(run_cli("info -j 0 " + inputs).exit_code == 0);
  CHECK(run_cli("info -j 257 " + inputs).exit_code == 2);
}

TEST_CASE("a pattern's container is read once: every member's run gets the batch's bytes") {
  const ScratchDir dir;
  const fs::path lib = awkward_library(dir);
  const auto inputs = shapevm::tools::expand_inputs({lib.string() + ":*.SH"}, "");
  REQUIRE(inputs.size() == 4);
  for (const auto& input : inputs) {
    CAPTURE(input.spec);
    CHECK(input.container.same_storage(inputs[0].container));
    // What the command reads for the member is the held read, not the file read again.
    CHECK(shapevm::read_input(input.spec).bytes.same_storage(input.container));
  }
  CHECK(inputs[0].container == shapevm::read_file(lib));
  // A plain argument holds nothing: its run reads its file.
  const auto plain =
      shapevm::tools::expand_inputs({kExamples + "jet.SH", kExamples + "tank.SH"}, "");
  REQUIRE(plain.size() == 2);
  CHECK(plain[0].container.empty());
}

TEST_CASE("every member of a container through a pattern is described as when named alone") {
  // The batch shares one read of the container, its parsed archive and its recognition between
  // the members' runs; each member must still be its own.
  const ScratchDir dir;
  const std::vector<std::string> containers = {
      SHAPEVM_EXAMPLES_BUILD_DIR "/apache/vehicle/3DOBJS.BIN",
      SHAPEVM_EXAMPLES_BUILD_DIR "/bi2/units.LIB", awkward_library(dir).string()};
  for (const std::string& container : containers) {
    CAPTURE(container);
    const CliResult listed =
        run_cli("render " + q(container + ":*") + " -o " + q(dir / "frames") + " --force");
    REQUIRE(listed.exit_code == 0);
    const CliResult batch = run_cli("info --json " + q(container + ":*"));
    REQUIRE(batch.exit_code == 0);
    std::string alone;
    size_t members = 0;
    for (size_t at = 0; at < listed.out.size();) {
      const size_t end = listed.out.find('\n', at);
      const std::string line = listed.out.substr(at, end - at);
      at = end + 1;
      const std::string spec = line.substr(0, line.find(" -> "));
      const CliResult one = run_cli("info --json " + q(spec));
      REQUIRE(one.exit_code == 0);
      // Alone, the JSON is indented; in a batch, one line.
      alone += shapevm::dump_json(nlohmann::json::parse(one.out), -1) + "\n";
      ++members;
    }
    CHECK(members >= 2);
    CHECK(batch.out == alone);
  }
}

}  // namespace tools_cli_batch_tests
