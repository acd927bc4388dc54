// `shapevm debug` at a terminal, driven through a pseudo-terminal as a person would type: line
// editing and history (libedit), an empty line repeating the last move, Ctrl-C stopping a running
// `continue` without ending the session, and a typed command that fails leaving the exit code 0
// (a script's failure still gives 2).
#include <doctest/doctest.h>

#include <fstream>
#include <thread>

#include "tests/tools/pty_session.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_debug_tty_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";
constexpr std::string_view kPrompt = "(shapevm) ";
constexpr const char* kUp = "\x1b[A";
constexpr const char* kRight = "\x1b[C";

// The debugger on `program` at a terminal, waiting at its first prompt.
struct TtySession {
  ScratchDir home;
  PtySession pty;
  TtySession(const std::string& program, const std::vector<std::string>& args = {})
      : pty(argv(program, args), home.path().string()) {
    pty.expect(kPrompt);
    REQUIRE(pty.found());
  }
  static std::vector<std::string> argv(const std::string& program,
                                       const std::vector<std::string>& args) {
    std::vector<std::string> v = {SHAPEVM_EXE, "debug", program};
    v.insert(v.end(), args.begin(), args.end());
    return v;
  }
  // Types `keys` and returns what the debugger printed up to its next prompt.
  std::string type(const std::string& keys) {
    pty.send(keys);
    std::string out = pty.expect(kPrompt);
    CAPTURE(pty.output());
    REQUIRE(pty.found());
    return out;
  }
};

}  // namespace

TEST_CASE("cli debug tty: arrow keys edit the line, up recalls history, Enter repeats the move") {
  TtySession s(kJet, {"--set", "_PLgearDown=1"});
  CHECK(s.type("step 2\r").find("[tick 2, step 2,") != std::string::npos);
  // An empty line repeats the last move.
  CHECK(s.type("\r").find("[tick 4, step 4,") != std::string::npos);
  CHECK(s.type("print steps\r").find("steps = 4 (0x4)") != std::string::npos);
  // Up twice recalls "step 2" (up once would be "print steps"), so this is history, not repeat.
  CHECK(s.type(std::string(kUp) + kUp + "\r").find("[tick 6, step 6,") != std::string::npos);
  // Editing in the middle of the line: Ctrl-A to its start, right arrow, insert the missing t.
  CHECK(s.type("sep 1\x01" + std::string(kRight) + "t\r").find("[tick 7, step 7,") !=
        std::string::npos);
  // A view repeats too; commands that set something do not.
  CHECK(s.type("break Face\r").find("Breakpoint 1 on Face") != std::string::npos);
  const std::string nothing = s.type("\r");
  CHECK(nothing.find("Breakpoint") == std::string::npos);
  CHECK(nothing.find("error") == std::string::npos);
  s.pty.send("quit\r");
  CHECK(s.pty.wait_exit() == 0);
}

TEST_CASE("cli debug tty: Ctrl-C stops a running continue and the session goes on") {
  // A shape that never ends by itself: a jump to itself, with a budget far beyond any test.
  ScratchDir dir;
  const auto source = dir / "spin.fas";
  std::ofstream(source) << ".header radius_world=0 radius=100 scale=8 extents=10,10,10\n"
                           "spin:\n"
                           "    Jump @spin\n"
                           "    EndObject\n";
  const auto shape = dir / "spin.SH";
  const auto built =
      run_cli("asm " + shell_quote(source.string()) + " -o " + shell_quote(shape.string()));
  CAPTURE(built.err);
  REQUIRE(built.exit_code == 0);
  TtySession s(shape.string(), {"--max-steps", "4000000000"});
  s.pty.send("continue\r");
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  s.pty.send("\x03");
  const std::string stopped = s.pty.expect(kPrompt);
  CAPTURE(s.pty.output());
  REQUIRE(s.pty.found());
  CHECK(stopped.find("Stopped: interrupted") != std::string::npos);
  CHECK(stopped.find("=> 0x") != std::string::npos);  // where it stopped, inside the loop
  CHECK(stopped.find("end of run") == std::string::npos);
  // The session is alive and the position is a real one: stepping from it works.
  const std::string steps = s.type("print steps\r");
  CHECK(steps.find("steps = ") != std::string::npos);
  CHECK(steps.find("steps = 0 ") == std::string::npos);
  // Ctrl-C at the prompt drops the typed line.
  s.pty.send("frobnicate");
  s.pty.expect("frobnicate");
  s.pty.send("\x03");
  s.pty.expect(kPrompt);
  REQUIRE(s.pty.found());
  CHECK(s.type("print offset\r").find("offset = ") != std::string::npos);
  s.pty.send("quit\r");
  CHECK(s.pty.wait_exit() == 0);
  CHECK(s.pty.output().find("unknown command") == std::string::npos);
}

TEST_CASE("cli debug tty: a failed command does not fail an interactive session; a script's does") {
  TtySession s(kJet);
  CHECK(s.type("frobnicate\r").find("error: unknown command \"frobnicate\"") != std::string::npos);
  CHECK(s.type("finish\r").find("error: finish: the outermost fragment") != std::string::npos);
  s.pty.send("quit\r");
  CHECK(s.pty.wait_exit() == 0);

  ScratchDir dir;
  const auto script = dir / "script.gdb";
  std::ofstream(script) << "frobnicate\nquit\n";
  const auto batch =
      run_cli("debug " + shell_quote(kJet) + " --batch " + shell_quote(script.string()));
  CHECK(batch.exit_code == 2);
  CHECK(batch.out.find("(shapevm) frobnicate\nerror: unknown command") != std::string::npos);
  // Ctrl-D at the prompt ends the session like quit.
  TtySession d(kJet);
  // Typed a moment after the prompt, as a person would: a key that arrives while libedit is still
  // taking the terminal over could be lost under a heavily loaded machine.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  d.pty.send("\x04");
  CHECK(d.pty.wait_exit() == 0);
}

}  // namespace tools_cli_debug_tty_tests
