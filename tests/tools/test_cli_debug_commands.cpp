// `shapevm debug`: the gdb command names a gdb user reaches for (ni, si, tbreak, until, display,
// x/N, disassemble, info breakpoints with hit counts), help listing every name, x86 shown with
// the program's own names as `disasm` writes it (FA-18: the gear guard reads _PLgearDown and
// re-enters the bytecode through do_start_interp), and a breakpoint and a watchpoint that hold at
// the same stop both reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/tools/debug_batch.h"
#include "tests/tools/run_cli.h"

namespace tools_cli_debug_commands_tests {

namespace {

const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";

CliResult session(const std::string& args, const std::string& script) {
  ScratchDir dir;
  return debug_batch(dir, kJet, args, script);
}

// The CODE offset `disasm` gives the nth line starting with `prefix` ("0x01a2").
std::string offset_of(const std::string& prefix, int nth = 1) {
  const auto r = run_cli("disasm " + shell_quote(kJet));
  REQUIRE(r.exit_code == 0);
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, prefix.size(), prefix) != 0) continue;
    if (--nth > 0) continue;
    return "0x" + line.substr(line.find(" ; ") + 3, 4);
  }
  FAIL("no listing line " << prefix);
  return "";
}

}  // namespace

TEST_CASE("cli debug: help lists every command name, and help NAME answers for each") {
  const auto r = session("", "help\n");
  REQUIRE(r.exit_code == 0);
  const std::string help = output_of(r.out, "help");
  for (const char* names :
       {"continue, c ", "backtrace, bt, where ", "stepi, si [N]", "nexti, ni [N]",
        "until, u [OFFSET]", "tbreak LOCATION", "display [/x] [NAME]", "undisplay [N...]",
        "x/N[x|d|i] [pool[I]|OFFSET|$pc]", "disassemble [START[,END|,+LENGTH]]",
        "info, i breakpoints|display", "x86 finish, native finish", "quit, q, exit",
        "print, p [/x] NAME", "delete, d [ID...]"})
    CHECK_MESSAGE(help.find(names) != std::string::npos, names);
  // Every name help lists is one the debugger knows.
  std::set<std::string> names;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    for (std::string w; words >> w;) {
      const bool more = !w.empty() && w.back() == ',';
      if (more) w.pop_back();
      if (w == "x86" || w == "native") break;  // "x86 finish": two words
      w = w.substr(0, w.find('/'));            // "x/N[x|d|i]": the name is x
      names.insert(w);
      if (!more) break;
    }
  }
  CHECK(names.size() >= 45);
  std::string script;
  for (const auto& n : names) script += "help " + n + "\n";
  const auto each = session("", script);
  CAPTURE(each.out);
  CHECK(each.exit_code == 0);
  CHECK(each.out.find("error: ") == std::string::npos);
  CHECK(output_of(each.out, "help c").find("continue\n") == 0);
  CHECK(output_of(each.out, "help bt").find("Also: bt, where") != std::string::npos);
}

TEST_CASE("cli debug: ni and si, tbreak, until and info breakpoints with hit counts") {
  const std::string unmask = offset_of("Unmask @");
  const std::string after = offset_of("ShortJump @");
  const std::string x86 = offset_of("X86Code");
  const auto r = session("--set _PLgearDown=1",
                         "tbreak Unmask\nbreak Face\ninfo breakpoints\ncontinue\ncontinue\n"
                         "info breakpoints\ndelete\ncontinue\nni\n"
                         "run\nuntil " +
                             x86 +
                             "\nsi\nni\nni\nrun\ntbreak Unmask\ncontinue\n"
                             "until\ninfo breakpoints\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 2);  // ni after the end fails (checked below)
  CHECK(r.out.find("Temporary breakpoint 1 on Unmask") != std::string::npos);
  CHECK(output_of(r.out, "info breakpoints") ==
        "Num  Type        Disp Enb What\n"
        "1    breakpoint  del  y   on Unmask\n"
        "2    breakpoint  keep y   on Face\n");
  // The first Face comes before the first Unmask.
  CHECK(output_of(r.out, "continue").find("Stopped: breakpoint 2 (on Face)") == 0);
  const std::string twice = output_of(r.out, "continue", 2);
  CHECK(twice.find("Stopped: breakpoint 2 (on Face)") == 0);
  CHECK(output_of(r.out, "info breakpoints", 2) ==
        "Num  Type        Disp Enb What\n"
        "1    breakpoint  del  y   on Unmask\n"
        "2    breakpoint  keep y   on Face\n"
        "        hit 2 times\n");
  // continue runs on to the jet's first Unmask only with breakpoints; `delete` removed them all
  // so it runs to the end, and ni has nowhere to go.
  CHECK(output_of(r.out, "continue", 3).find("end of run") != std::string::npos);
  CHECK(output_of(r.out, "ni").find("error: the run has ended") == 0);
  // until OFFSET runs to the x86 block; si enters it; ni steps one x86 instruction.
  CHECK(output_of(r.out, "until " + x86).find("=> " + x86 + ": X86Code") == 0);
  CHECK(output_of(r.out, "si").find("cmp word ptr [_PLgearDown], 1") != std::string::npos);
  CHECK(output_of(r.out, "ni", 2).find(": jne ") != std::string::npos);
  CHECK(output_of(r.out, "ni", 3).find(": push L_") != std::string::npos);
  // The temporary breakpoint stops once and is gone; until at an Unmask runs its call whole.
  const std::string hit = output_of(r.out, "continue", 4);
  CHECK(hit.find("Stopped: temporary breakpoint 3 (on Unmask)") == 0);
  CHECK(hit.find("=> " + unmask + ": Unmask") != std::string::npos);
  CHECK(output_of(r.out, "until").find("=> " + after + ": ShortJump") == 0);
  CHECK(output_of(r.out, "info breakpoints", 3) == "No breakpoints or watchpoints.\n");
}

TEST_CASE("cli debug: ni steps over a call where si steps into it") {
  const std::string unmask = offset_of("Unmask @");
  const std::string after = offset_of("ShortJump @");
  const auto r = session("", "break " + unmask + "\ncontinue\nni\nreverse-next\nsi\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(output_of(r.out, "ni").find("=> " + after + ": ShortJump") == 0);
  CHECK(output_of(r.out, "si").find("depth 1,") != std::string::npos);
}

TEST_CASE("cli debug: display shows values after every stop; x/N examines rows and code") {
  const auto r = session("",
                         "display steps\ndisplay/x pool[9].x\nstep\ninfo display\n"
                         "undisplay 1\ntbreak Face\ncontinue\nx/2 pool[8]\nx/2x pool[9]\n"
                         "x/3i $pc\nx/2i 0x000e\nx/i pool[0]\ndisplay\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 2);  // x/i on a memory row fails (checked below)
  CHECK(output_of(r.out, "display steps") == "1: steps = 0 (0x0)\n");
  CHECK(output_of(r.out, "display/x pool[9].x") == "2: /x pool[9].x = <no value here>\n");
  const std::string step = output_of(r.out, "step");
  CHECK(step.find("=> 0x") == 0);
  CHECK(step.find("\n1: steps = 1 (0x1)\n2: /x pool[9].x = <no value here>\n") !=
        std::string::npos);
  CHECK(output_of(r.out, "info display") ==
        "Auto-display expressions:\nNum Expression\n1   steps\n2   /x pool[9].x\n");
  // At the first Face the vertex buffer has written pool[9]; display 1 is gone.
  const std::string face = output_of(r.out, "continue");
  CHECK(face.find("1: steps") == std::string::npos);
  CHECK(face.find("\n2: /x pool[9].x = 0xffffffffffffffc4\n") != std::string::npos);
  CHECK(output_of(r.out, "display") == "2: /x pool[9].x = 0xffffffffffffffc4\n");
  const std::string rows = output_of(r.out, "x/2 pool[8]");
  CHECK(rows.find("[   8] source (") == 0);
  CHECK(rows.find("\n[   9] source (   -60,    -20,      0)") != std::string::npos);
  CHECK(rows.find("[  10]") == std::string::npos);
  CHECK(output_of(r.out, "x/2x pool[9]").find("[   9] source (0xffffffffffffffc4,") == 0);
  const std::string code = output_of(r.out, "x/3i $pc");
  CHECK(code.find("=> ") == 0);
  CHECK(code.find("Face") != std::string::npos);
  CHECK(std::count(code.begin(), code.end(), '\n') == 3);
  const std::string start = output_of(r.out, "x/2i 0x000e");
  CHECK(start.find("PtrToObjEnd") != std::string::npos);
  CHECK(start.find("=> ") == std::string::npos);
  CHECK(std::count(start.begin(), start.end(), '\n') == 2);
  CHECK(output_of(r.out, "x/i pool[0]").find("error: x/i: pool[0] is a memory view row") == 0);
}

TEST_CASE("cli debug: FA-18 x86 is shown with the names disasm gives, in every view") {
  const auto listing = run_cli("disasm " + shell_quote(kJet));
  REQUIRE(listing.exit_code == 0);
  CHECK(listing.out.find(": cmp word ptr [_PLgearDown], 1\n") != std::string::npos);
  CHECK(listing.out.find(": push do_start_interp\n") != std::string::npos);
  CHECK(listing.out.find(": cmp dword ptr [_PLleftFlap], 0\n") != std::string::npos);
  const auto r = session("--set _PLgearDown=1",
                         "break x86\ncontinue\ninfo x86\ndisassemble\nsi\nsi\nsi\nx/1i $pc\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  const std::string entry = output_of(r.out, "continue");
  CHECK(entry.find(": cmp word ptr [_PLgearDown], 1  [in the x86 block") != std::string::npos);
  CHECK(entry.find("0x800000") == std::string::npos);  // never the sandbox's address
  CHECK(output_of(r.out, "info x86").find(": cmp word ptr [_PLgearDown], 1\n") !=
        std::string::npos);
  // disassemble: the labelled block around the current x86 instruction, => on it.
  const std::string block = output_of(r.out, "disassemble");
  CHECK(block.find("=> ") != std::string::npos);
  CHECK(block.substr(block.find("=> ")).find("; 020e: cmp word ptr [_PLgearDown], 1") !=
        std::string::npos);
  CHECK(block.find("X86Code") != std::string::npos);
  CHECK(output_of(r.out, "si", 2).find(": push L_0223  [") != std::string::npos);
  CHECK(output_of(r.out, "si", 3).find(": push do_start_interp  [") != std::string::npos);
  CHECK(output_of(r.out, "x/1i $pc").find("=> ") == 0);
}

TEST_CASE("cli debug: a breakpoint and a watchpoint that hold at one stop are both reported") {
  // The vertex buffer writes pool[9]; the instruction after it is the first Face.
  const auto r = session("", "break Face\nwatch pool[9]\ncontinue\ninfo breakpoints\n");
  CAPTURE(r.out);
  REQUIRE(r.exit_code == 0);
  const std::string both = output_of(r.out, "continue");
  CHECK(both.find("Stopped: breakpoint 1 (on Face)\n"
                  "Stopped: watchpoint 2: pool[9].x <none> -> -60\n=> ") == 0);
  CHECK(output_of(r.out, "info breakpoints") ==
        "Num  Type        Disp Enb What\n"
        "1    breakpoint  keep y   on Face\n"
        "        hit 1 time\n"
        "2    watchpoint  keep y   pool[9]\n"
        "        hit 1 time\n");
}

}  // namespace tools_cli_debug_commands_tests
