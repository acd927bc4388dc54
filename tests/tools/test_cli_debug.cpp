// `shapevm debug`: scripted REPL sessions on the bundled examples (commands from --batch FILE or
// from stdin through a pipe). Each session checks where the debugger stops against the listing
// `shapevm disasm` prints: breakpoints, next over a call, finish back to the caller, x86
// single-stepping of the gear guard (FA-18/FA-19), exact reverse stepping, and the partial frame.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "raster/png_io.h"
#include "tests/tools/debug_batch.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_debug_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

// The CODE offset of the nth listing line whose text starts with `prefix` (the listing writes
// each instruction's offset first in its comment: "; 015f: 12 00 ..."). In jet.fas the Unmask
// lines are, in order: @wings, @fin, and the gear arm after the first x86 block.
std::string offset_of(const std::string& prefix, int nth = 1) {
  const auto r = run_cli("disasm " + shell_quote(kJet));
  REQUIRE(r.exit_code == 0);
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0) continue;
    if (--nth > 0) continue;
    const auto at = line.find(" ; ");
    REQUIRE(at != std::string::npos);
    return "0x" + line.substr(at + 3, 4);
  }
  FAIL("no listing line " << prefix);
  return "";
}

CliResult session(const ScratchDir& dir, const std::string& args, const std::string& script) {
  return debug_batch(dir, kJet, args, script);
}

}  // namespace

TEST_CASE("cli debug: the listing offsets the tests rely on are CODE offsets") {
  CHECK(offset_of("Unmask @").size() == 6);
  CHECK(offset_of("Unmask @", 3) != offset_of("Unmask @", 2));
}

TEST_CASE("cli debug: breakpoint on a mnemonic then next over the call and finish to the caller") {
  ScratchDir dir;
  const std::string unmask = offset_of("Unmask @");
  const std::string after = offset_of("ShortJump @");
  const auto r = session(dir, "",
                         "break Unmask\ncontinue\nbt\nnext\nreverse-next\nstep\nbt\n"
                         "finish\nfinish\nquit\n");
  CAPTURE(r.out);
  CHECK(r.exit_code == 2);  // the second finish fails (asserted below)
  CHECK(r.out.find("=> 0x000e: PtrToObjEnd") != std::string::npos);  // the session starts there
  const std::string hit = output_of(r.out, "continue");
  CHECK(hit.find("Stopped: breakpoint 1 (on Unmask)") != std::string::npos);
  CHECK(hit.find("=> " + unmask + ": Unmask @") != std::string::npos);
  CHECK(output_of(r.out, "bt") == "#0  " + unmask + " in the top level\n");
  CHECK(output_of(r.out, "next").find("=> " + after + ": ShortJump @") != std::string::npos);
  CHECK(output_of(r.out, "reverse-next").find("=> " + unmask + ": Unmask") != std::string::npos);
  const std::string bt = output_of(r.out, "bt", 2);
  CHECK(bt.find("#0  ") == 0);
  CHECK(bt.find("(called from " + unmask + ", returns to " + after + ")") != std::string::npos);
  CHECK(bt.find("#1  " + unmask + " in the top level") != std::string::npos);
  // The first finish leaves the wing fragment: back at the caller's next instruction.
  const std::string fin = output_of(r.out, "finish");
  CHECK(fin.find("Stopped: finish: returned from the fragment") != std::string::npos);
  CHECK(fin.find("=> " + after + ": ShortJump @") != std::string::npos);
  CHECK(fin.find("depth 0") != std::string::npos);
  CHECK(output_of(r.out, "finish", 2).find("error: finish: the outermost fragment") !=
        std::string::npos);
}

TEST_CASE("cli debug: FA-18 x86 si shows the gear guard's instructions and x86 finish its resume") {
  ScratchDir dir;
  const std::string arm = offset_of("Unmask @", 3);
  const auto r = session(dir, "--set _PLgearDown=1",
                         "break x86\ncontinue\nsi\nsi\nx86 finish\nset _PLgearDown=0\n"
                         "info breakpoints\ncontinue\nx86 finish\nquit\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  const std::string entry = output_of(r.out, "continue");
  CHECK(entry.find("Stopped: breakpoint 1 (on entering x86)") != std::string::npos);
  CHECK(entry.find("=> x86 0x") != std::string::npos);
  CHECK(entry.find(": cmp word ptr [_PLgearDown], 1") != std::string::npos);
  CHECK(entry.find("eax=0x") != std::string::npos);
  CHECK(output_of(r.out, "si").find(": jne 0x") != std::string::npos);
  CHECK(output_of(r.out, "si", 2).find(": push L_") != std::string::npos);  // the arm's label
  const std::string resume = output_of(r.out, "x86 finish");
  CHECK(resume.find("Stopped: x86 finish: back in the bytecode") != std::string::npos);
  CHECK(resume.find("=> " + arm + ": Unmask @") != std::string::npos);
  // set restarts and keeps the breakpoint; without the gear the guard skips the arm.
  CHECK(output_of(r.out, "set _PLgearDown=0").find("=> 0x000e: PtrToObjEnd") != std::string::npos);
  CHECK(output_of(r.out, "info breakpoints").find("1    breakpoint  keep y   on entering x86\n") !=
        std::string::npos);
  const std::string skipped = output_of(r.out, "x86 finish", 2);
  // the guard's jne lands in the second block, which re-enters after the arm
  CHECK(skipped.find("=> " + arm) == std::string::npos);
  CHECK(skipped.find(": UnkB8") != std::string::npos);
}

// jet.SH with the gear down runs 43 instructions, so 40 and 30 stand for the issue's 50 and 40.
TEST_CASE("cli debug: step 40 then back 10 prints the same state as step 30") {
  ScratchDir dir;
  const std::string inspect = "info frame\nregs\nglobals\nbt\npool\n";
  const auto a = session(dir, "--set _PLgearDown=1", "step 40\nback 10\n" + inspect);
  const auto b = session(dir, "--set _PLgearDown=1", "step 30\n" + inspect);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const auto tail = [](const std::string& s) { return s.substr(s.find("(shapevm) info frame")); };
  CHECK(tail(a.out) == tail(b.out));
  CHECK(tail(a.out).find("step 30,") != std::string::npos);
  CHECK(tail(a.out).find("[  15] source") != std::string::npos);
}

TEST_CASE("cli debug: watchpoints conditions reverse-continue list print and png") {
  ScratchDir dir;
  const auto png = dir / "partial.png";
  const auto r = session(dir, "",
                         "watch pool[9]\ncontinue\ndelete 1\nbreak Face if pool[9].x == -60\n"
                         "continue\nprint pool[9].x\nlist\ncontinue\nreverse-continue\n"
                         "png " +
                             png.string() + "\npng " + png.string() + "\nquit\n");
  CAPTURE(r.out);
  CHECK(r.exit_code == 2);  // the second png refuses to overwrite
  CHECK(output_of(r.out, "continue").find("Stopped: watchpoint 1: pool[9].x <none> -> -60") !=
        std::string::npos);
  CHECK(
      output_of(r.out, "continue", 2).find("Stopped: breakpoint 2 (on Face if pool[9].x == -60)") !=
      std::string::npos);
  CHECK(output_of(r.out, "print pool[9].x") == "pool[9].x = -60 (0xffffffffffffffc4)\n");
  const std::string list = output_of(r.out, "list");
  CHECK(list.find("=> ") != std::string::npos);
  CHECK(list.find("Face content=0x04") != std::string::npos);
  const std::string second = output_of(r.out, "continue", 3);
  const std::string back = output_of(r.out, "reverse-continue");
  CHECK(back.find("Stopped: breakpoint 2") != std::string::npos);
  // continue from the second Face stops at the third; reverse-continue goes back to the second
  CHECK(second.find("faces 2]") != std::string::npos);
  CHECK(back.find("faces 1]") != std::string::npos);
  const auto image = shapevm::raster::read_png(png);
  CHECK(image.frame.width() == 640);
  CHECK(output_of(r.out, "png " + png.string(), 2).find("error: ") == 0);
}

TEST_CASE("cli debug: commands from a pipe, help, and a bad command makes exit code 2") {
  auto r = run_command("printf 'help\\nhelp step\\nstep 2\\nfrobnicate\\n' | " +
                       std::string(SHAPEVM_EXE) + " debug " + shell_quote(kJet));
  CAPTURE(r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("reverse-continue") != std::string::npos);
  CHECK(output_of(r.out, "help step").find("step [N]") == 0);
  CHECK(output_of(r.out, "step 2").find("step 2,") != std::string::npos);
  CHECK(output_of(r.out, "frobnicate").find("error: unknown command") == 0);
  r = run_cli("debug " + shell_quote(kJet) + " --batch /nonexistent/script");
  CHECK(r.exit_code == 2);
}

}  // namespace tools_cli_debug_tests
