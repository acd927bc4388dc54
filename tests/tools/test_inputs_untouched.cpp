// Tools never modify their inputs (DESIGN.md, "Contracts other programs rely on"): every command
// that reads files runs here over copies of the examples (one program per engine, their
// containers, palettes, captures, traces, a manifest and a debugger batch), and afterwards every
// input has the same bytes, modification time and status-change time, and the input folder holds
// no new file. And a write that fails (the output is a folder, its folder is missing, the disk
// is full) leaves no partial or temporary file behind.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "tests/fa/lib_builder.h"
#include "tests/tools/run_cli.h"

namespace tools_inputs_untouched_tests {

namespace {

namespace fs = std::filesystem;

struct FileState {
  std::vector<uint8_t> bytes;
  timespec modified{};
  timespec changed{};
  bool operator==(const FileState& o) const {
    return bytes == o.bytes && modified.tv_sec == o.modified.tv_sec &&
           modified.tv_nsec == o.modified.tv_nsec && changed.tv_sec == o.changed.tv_sec &&
           changed.tv_nsec == o.changed.tv_nsec;
  }
};

// Every file under `root`, by path relative to it.
std::map<std::string, FileState> snapshot(const fs::path& root) {
  std::map<std::string, FileState> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    struct stat st {};
    REQUIRE(::stat(entry.path().c_str(), &st) == 0);
    out[fs::relative(entry.path(), root).string()] = {shapevm::read_file(entry.path()), st.st_mtim,
                                                      st.st_ctim};
  }
  return out;
}

// Regular files under `root` (recursively): what a failed write must not leave.
std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  if (!fs::exists(root)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (!entry.is_directory()) out.push_back(fs::relative(entry.path(), root).string());
  return out;
}

// Runs `shapevm <args>` as on a full disk: `ulimit -f` caps the size of any file it writes (in
// 512-byte blocks) and, with SIGXFSZ ignored, a write past the cap fails with EFBIG instead of the
// signal killing the process. Its output goes through a pipe (which the cap does not limit) so
// its messages are still captured; its exit status follows as a last line "exit=N".
CliResult run_with_file_size_limit(int blocks, const std::string& args) {
  const auto r =
      run_command("{ (trap '' XFSZ; ulimit -f " + std::to_string(blocks) + "; exec " +
                  shell_quote(SHAPEVM_EXE) + " " + args + ") 2>&1; echo \"exit=$?\"; } | cat");
  const size_t at = r.out.rfind("exit=");
  REQUIRE(at != std::string::npos);
  return {std::stoi(r.out.substr(at + 5)), "", r.out.substr(0, at)};
}

void copy_example(const std::string& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(fs::path(SHAPEVM_EXAMPLES_BUILD_DIR) / from, to);
}

// The inputs: one program per engine and everything the commands below read.
struct Inputs {
  ScratchDir dir;
  fs::path in = dir / "in";
  fs::path out = dir / "out";
  std::string q(const std::string& name) const { return shell_quote((in / name).string()); }
  std::string o(const std::string& name) const { return shell_quote((out / name).string()); }

  Inputs() {
    fs::create_directories(in);
    fs::create_directories(out);
    copy_example("fa/jet.SH", in / "jet.SH");
    copy_example("fa/PALETTE.PAL", in / "PALETTE.PAL");
    for (const char* f : {"3DOBJS.BIN", "3DPAL.RGB", "OBJTEXT.BIN"})
      if (fs::exists(fs::path(SHAPEVM_EXAMPLES_BUILD_DIR) / "apache/building" / f))
        copy_example(std::string("apache/building/") + f, in / "apache" / f);
    copy_example("shp/fighter.SHP", in / "fighter.SHP");
    copy_example("bi2/units.LIB", in / "units.LIB");
    fs::copy_file(SHAPEVM_SOURCE_DIR "/examples/fa/jet.fas", in / "jet.fas");
    // An FA library holding the jet, stored as it is.
    const auto jet = shapevm::read_file(in / "jet.SH");
    const auto lib = shapevm::test::build_ealib({{"JET.SH", 0, jet}});
    std::ofstream(in / "FA.LIB", std::ios::binary)
        .write(reinterpret_cast<const char*>(lib.data()), static_cast<std::streamsize>(lib.size()));
    // Captures, traces, a manifest and a batch, made by the tool before the inputs are frozen.
    REQUIRE(run_cli("render " + q("jet.SH") + " -o " + q("jet.png")).exit_code == 0);
    REQUIRE(run_cli("render " + q("jet.SH") + " --frame 1 -o " + q("jet1.png")).exit_code == 0);
    REQUIRE(run_cli("trace " + q("jet.SH") + " -o " + q("a.jsonl")).exit_code == 0);
    REQUIRE(run_cli("trace " + q("jet.SH") + " --frame 1 -o " + q("b.jsonl")).exit_code == 0);
    std::ofstream(in / "m.json") << R"({"version": 1, "defaults": {"engine": "fa"}, "cases": [
      {"name": "jet", "file": "jet.SH", "capture": "jet.png"},
      {"name": "jet_lib", "file": "FA.LIB:JET.SH", "capture": "jet.png"}]})";
    std::ofstream(in / "steps.txt") << "break face 1\ncontinue\nbacktrace\nreverse-step\n";
  }
};

}  // namespace

TEST_CASE("inputs untouched: every command leaves its input files' bytes and times as they were") {
  Inputs t;
  const std::vector<std::string> programs = {"jet.SH", "FA.LIB:JET.SH", "apache/3DOBJS.BIN:#0",
                                             "fighter.SHP", "units.LIB:TANK001"};
  std::vector<std::string> commands;
  int n = 0;
  for (const auto& p : programs) {
    const std::string in = t.q(p);
    const std::string tag = std::to_string(n++);
    commands.push_back("info " + in);
    commands.push_back("info --json " + in);
    commands.push_back("disasm " + in + " -o " + t.o(tag + ".txt"));
    commands.push_back("disasm --json " + in);
    commands.push_back("check " + in);
    commands.push_back("render " + in + " -o " + t.o(tag + ".png"));
    commands.push_back("trace " + in + " -o " + t.o(tag + ".jsonl"));
    commands.push_back("export " + in + " -o " + t.o(tag + ".obj"));
    commands.push_back("export " + in + " -o " + t.o(tag + ".gltf"));
    commands.push_back("view " + in + " --headless --frames 2 -o " + t.o("frames" + tag));
    commands.push_back("debug " + in + " --batch " + t.q("steps.txt"));
  }
  for (const std::string lib : {"FA.LIB", "apache/3DOBJS.BIN", "units.LIB"}) {
    const std::string tag = std::to_string(n++);
    commands.push_back("lib ls " + t.q(lib));
    commands.push_back("lib ls --json " + t.q(lib));
    commands.push_back("lib extract " + t.q(lib) + " -o " + t.o("members" + tag));
  }
  commands.push_back("asm " + t.q("jet.fas") + " -o " + t.o("jet.SH"));
  commands.push_back("trace-diff " + t.q("a.jsonl") + " " + t.q("b.jsonl"));
  commands.push_back("compare " + t.q("jet.png") + " " + t.q("jet1.png") + " --diff " +
                     t.o("diff.png"));
  commands.push_back("compare " + t.q("jet.png") + " " + t.q("jet.png"));
  commands.push_back("regress " + t.q("m.json") + " --junit " + t.o("junit.xml") + " --html " +
                     t.o("report"));
  commands.push_back("variants JET.SH --class fighter --lib " + t.q("FA.LIB"));

  const auto before = snapshot(t.in);
  REQUIRE(before.size() >= 12);
  for (const auto& c : commands) {
    CAPTURE(c);
    const auto r = run_cli(c);
    INFO(r.err);
    CHECK(r.exit_code >= 0);  // exited (0, 1 differences, 2 bad input) rather than crashed
    CHECK(r.exit_code != 3);
  }
  const auto after = snapshot(t.in);
  CHECK(after.size() == before.size());  // nothing written beside the inputs
  for (const auto& [name, state] : before) {
    CAPTURE(name);
    REQUIRE(after.count(name) == 1);
    CHECK(after.at(name) == state);
  }
}

TEST_CASE("inputs untouched: a write that fails leaves no partial or temporary file") {
  Inputs t;
  // Commands with one output file each: the command, then the extension its output needs.
  const std::vector<std::pair<std::string, std::string>> writers = {
      {"render " + t.q("jet.SH") + " -o ", ".png"},
      {"trace " + t.q("jet.SH") + " -o ", ""},
      {"export " + t.q("jet.SH") + " -o ", ".gltf"},
      {"export " + t.q("jet.SH") + " -o ", ".obj"},
      {"disasm " + t.q("jet.SH") + " -o ", ""},
      {"asm " + t.q("jet.fas") + " -o ", ""},
      {"check " + t.q("jet.SH") + " -o ", ""},
      {"compare " + t.q("jet.png") + " " + t.q("jet1.png") + " --diff ", ".png"},
      {"regress " + t.q("m.json") + " --junit ", ""},
  };
  const auto before = snapshot(t.in);

  SUBCASE("the output path is a folder") {
    fs::create_directories(t.out / "taken.gltf");
    fs::create_directories(t.out / "taken.obj");
    fs::create_directories(t.out / "taken");
    fs::create_directories(t.out / "taken.png");
    for (const auto& [command, ext] : writers) {
      const std::string c = command + t.o("taken" + ext);
      CAPTURE(c);
      const auto r = run_cli(c);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("taken") != std::string::npos);
      CHECK(files_under(t.out).empty());
    }
  }
  SUBCASE("the output's folder does not exist") {
    for (const auto& [command, ext] : writers) {
      const std::string c = command + t.o("missing/file" + ext);
      CAPTURE(c);
      const auto r = run_cli(c);
      CHECK(r.exit_code == 2);
      CHECK(files_under(t.out).empty());
      CHECK_FALSE(fs::exists(t.out / "missing"));
    }
  }
  SUBCASE("the disk is full (a file size limit of 0, so every write stops with EFBIG)") {
    for (const auto& [command, ext] : writers) {
      const std::string c = command + t.o("full" + ext);
      CAPTURE(c);
      const auto r = run_with_file_size_limit(0, c);
      INFO(r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("full") != std::string::npos);
      CHECK(files_under(t.out).empty());
    }
  }
  SUBCASE("the disk fills between an export's MTL and its OBJ: neither is left") {
    // 512 bytes: the fighter's MTL (about 200 bytes) fits, its OBJ (about 2 KB) does not.
    copy_example("shp/fighter.SHP", t.dir / "fighter.SHP");
    const auto r = run_with_file_size_limit(
        1, "export " + shell_quote((t.dir / "fighter.SHP").string()) + " -o " + t.o("fighter.obj"));
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("fighter.obj: write failed") != std::string::npos);
    CHECK(files_under(t.out).empty());
  }
  SUBCASE("writing to /dev/full: refused before anything is written, or reported") {
    for (const auto& [command, ext] : writers) {
      const std::string c = command + "/dev/full";
      CAPTURE(c);
      const auto r = run_cli(c);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("/dev/full") != std::string::npos);
    }
    // stdout on a full device: the trace and the listing say the write failed (exit 2).
    for (const std::string& c :
         std::vector<std::string>{"trace " + t.q("jet.SH"), "disasm " + t.q("jet.SH")}) {
      CAPTURE(c);
      const auto r = run_command(shell_quote(SHAPEVM_EXE) + " " + c + " > /dev/full");
      CHECK(r.exit_code == 2);
    }
  }
  CHECK(snapshot(t.in) == before);
}

}  // namespace tools_inputs_untouched_tests
