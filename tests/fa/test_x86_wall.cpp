// The x86 sandbox's wall: each kind of hostile block in the catalogue (docs/fa.md, "Embedded
// x86: the sandbox's wall") stops with a diagnostic that names what happened, and the same
// interpreter then runs a good state correctly; rdtsc and cpuid answer fixed values; self-
// modifying code runs its new bytes. The older kinds are in test_x86_sandbox.cpp.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/x86_runner.h"
#include "tests/fa/x86_block_shape.h"
#include "x86/sandbox.h"

namespace fa_x86_wall_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::run;
using shapevm::testing::shape_with_block;
using shapevm::testing::with;
using shapevm::testing::X86Run;

namespace {

// _PLgearDown == 1 re-enters at arm1 (colour 1); anything else falls into `hostile`, followed by
// a re-entry at `after` that a stopped block never reaches.
std::string guarded(const std::string& hostile) {
  return shape_with_block(R"(
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
hostile:
)" + hostile + R"(
    x86 68 {after} 68 {do_start_interp} c3)");
}

struct Hostile {
  const char* name;
  const char* x86;
  std::vector<const char*> expected;  // each must appear in the stop's diagnostic
};

// Runs the hostile arm twice and the good arm after each, on one interpreter: the stop is the
// same both times (deterministic), and the good state draws arm1 afterwards.
void check_wall(const Hostile& h) {
  INFO(std::string(h.name));
  const auto b = build_shape(guarded(h.x86));
  Interpreter interp(b.shape);
  std::string first;
  for (int round = 0; round < 2; ++round) {
    X86Run bad = run(interp, with("_PLgearDown=0"));
    CHECK_FALSE(bad.result.clean);
    CHECK(bad.result.stop == StopReason::kX86Stopped);
    CHECK(bad.sink.face_colors.empty());
    REQUIRE(!bad.sink.diagnostics.empty());
    const std::string& d = bad.sink.diagnostics.back();
    INFO(d);
    for (const char* e : h.expected) CHECK(d.find(e) != std::string::npos);
    if (round == 0) first = d;
    CHECK(d == first);
    X86Run good = run(interp, with("_PLgearDown=1"));
    CHECK(good.result.clean);
    CHECK(good.sink.face_colors == std::vector<uint8_t>{1});
  }
}

}  // namespace

TEST_CASE("sandbox wall: a stack exhausted by a push loop or by recursion is named") {
  check_wall({"push loop", "    x86 50 eb fd", {"stack exhausted", "access to 0x8ffffc", "push"}});
  check_wall({"call $ recursion",
              "    x86 e8 fb ff ff ff",
              {"stack exhausted", "access to 0x8ffffc", "call"}});
  // Five pops from a stack that holds one return address: reads above the stack's top.
  check_wall({"pops past the top", "    x86 58 58 58 58 58", {"stack underflow", "pop eax"}});
}

TEST_CASE("sandbox wall: privileged and segment instructions are refused and named") {
  check_wall({"mov cr0", "    x86 0f 22 c0", {"privileged instruction mov cr0, eax"}});
  check_wall({"lgdt", "    x86 0f 01 15 {arm1}", {"privileged instruction lgdt"}});
  check_wall({"cli", "    x86 fa", {"privileged instruction cli"}});
  check_wall({"far jump to a ring-0 selector",
              "    x86 ea {arm1} 08 00",
              {"privileged instruction ljmp"}});
  // A ring-0 data selector faults at the load itself.
  check_wall(
      {"mov ds, ring-0 selector", "    x86 66 b8 10 00 8e d8", {"privileged instruction mov ds"}});
  // The null selector loads without a fault (and Unicorn never faults its later use): the load
  // is found when the block stops, here at the do_start_interp exit it then reached.
  check_wall({"mov ds, null selector", "    x86 8e d8", {"segment register load (DS = 0x0)"}});
  // The resume after an answered rdtsc starts from the clean CPU: the load is found before it.
  check_wall({"mov es, null selector, then rdtsc",
              "    x86 8e c0 0f 31",
              {"segment register load (ES = 0x0)"}});
}

TEST_CASE("sandbox wall: system calls and the DOS extender's interrupt are not provided") {
  check_wall({"sysenter", "    x86 0f 34", {"system call instruction sysenter"}});
  check_wall({"syscall", "    x86 0f 05", {"system call instruction syscall"}});
  check_wall({"int 0x21",
              "    x86 b4 4c cd 21",
              {"interrupt 33", "DOS extender interface int 0x21 not provided", "int 0x21"}});
  check_wall({"int 3 in its two-byte form", "    x86 cd 03", {"interrupt 3", "CODE 0x3d: int 3)"}});
  check_wall(
      {"int 0x31", "    x86 cd 31", {"interrupt 49 (DPMI interface int 0x31 not provided)"}});
  check_wall({"int 0x80",
              "    x86 cd 80",
              {"interrupt 128 (software interrupt int 0x80: the sandbox has no handlers)"}});
}

TEST_CASE("sandbox wall: more imports than the globals region holds is an input error") {
  // Each import gets a 0x100-byte slot below the stack's lower guard: 3840 fit, 3841 do not.
  auto text = [](int imports) {
    std::string pre;
    for (int i = 0; i < imports; ++i) pre += ".import _g" + std::to_string(i) + "\n";
    return testing::with_header(R"(
    X86Code
    x86 68 {done} 68 {do_start_interp} c3
done:
    EndObject
.stub do_start_interp
)",
                                pre + ".import do_start_interp\n");
  };
  const auto fits = build_shape(text(3839));
  Interpreter ok(fits.shape);
  auto okr = run(ok, {});
  CHECK(okr.result.clean);
  const auto too_many = build_shape(text(3840));
  Interpreter bad(too_many.shape);
  try {
    run(bad, {});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    INFO(std::string(e.what()));
    CHECK(std::string(e.what()).find("3841 imports need 0xf1000 bytes of import slots") !=
          std::string::npos);
  }
}

TEST_CASE("sandbox wall: the descriptor table page is read-only to the guest") {
  check_wall({"write to the descriptor table",
              "    x86 c7 05 00 00 ff ff 00 00 00 00",
              {"protected access to 0xffff0000"}});
}

TEST_CASE("sandbox wall: a rep movsd of megabytes stops at the memory bound, quickly") {
  // ecx = 0x400000 dwords (16 MiB) from CODE into the stack: CODE is one page, so the read side
  // leaves the image first.
  const Hostile h{"rep movsd 16 MiB",
                  "    x86 b9 00 00 40 00 be {arm1} bf 00 00 90 00 f3 a5",
                  {"rep movsd with ECX = 0x", "still to go: access to unmapped address"}};
  const auto start = std::chrono::steady_clock::now();
  check_wall(h);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("rep movsd wall test (2 hostile + 2 good runs): " << seconds * 1000 << " ms");
  CHECK(seconds < 1.0);
}

TEST_CASE("sandbox wall: a rep string instruction over a large CODE stops on the budget") {
  // repe cmpsb of 4 MiB with ESI = EDI (every byte compares equal) over 100 KiB of padding that
  // follows in CODE: each iteration counts as an instruction, so the budget ends it.
  std::string hostile =
      "    x86 b9 00 00 40 00 be {hostile} 89 f7 f3 a6\n"
      "    x86 68 {after} 68 {do_start_interp} c3\n";
  const std::string line = "    .db" + [] {
    std::string bytes;
    for (int i = 0; i < 128; ++i) bytes += " 90";
    return bytes;
  }() + "\n";
  for (int i = 0; i < 800; ++i) hostile += line;
  const auto start = std::chrono::steady_clock::now();
  check_wall({"repe cmpsb 4 MiB",
              hostile.c_str(),
              {"repe cmpsb with ECX = 0x", "exhausted the instruction budget of 100000"}});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("repe cmpsb budget test (2 hostile + 2 good runs): " << seconds * 1000 << " ms");
  CHECK(seconds < 2.0);
}

TEST_CASE("sandbox wall: rdtsc polled in a loop stops on its read budget") {
  check_wall(
      {"rdtsc loop", "    x86 0f 31 eb fc", {"more than 16 rdtsc reads in one block (budget)"}});
}

TEST_CASE("sandbox wall: a jump into the bytecode's own bytes runs them as x86 and is named") {
  // push after; ret: EIP = the Face opcode at `after`. CODE is one executable section, so its
  // bytes run as x86 (as on the engine's CPU); the stop says it happened inside the bytecode.
  check_wall({"jump into the bytecode",
              "    x86 68 {after} c3",
              {"inside the bytecode instruction at CODE 0x"}});
}

TEST_CASE("sandbox wall: rdtsc and cpuid return fixed values, the same on every run") {
  // Each check re-enters at arm2 when the value is not the documented one; all pass -> arm1.
  const auto b = build_shape(shape_with_block(R"(
    x86 0f 31
    x86 3d 00 00 01 00 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 85 d2 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 0f 31
    x86 3d 00 00 02 00 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 31 c0 0f a2
    x86 83 f8 01 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 81 fb 47 65 6e 75 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 81 fa 69 6e 65 49 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 81 f9 6e 74 65 6c 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 b8 01 00 00 00 0f a2
    x86 3d 25 05 00 00 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 81 fa bf 01 00 00 74 0b
    x86 68 {arm2} 68 {do_start_interp} c3
    x86 68 {arm1} 68 {do_start_interp} c3)"));
  // The documented values the bytes above compare with.
  CHECK(x86::kTscTicksPerRead == 0x10000);
  CHECK(x86::kCpuidSignature == 0x525);
  CHECK(x86::kCpuidFeaturesEdx == 0x1BF);
  Interpreter interp(b.shape);
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    X86Run r = run(interp, {});
    CHECK(r.result.clean);
    CHECK(r.sink.face_colors == std::vector<uint8_t>{1});
  }
  RunState traced;
  traced.x86_trace = true;  // the tracing sandbox (its own engine) answers the same
  X86Run t = run(interp, traced);
  CHECK(t.result.clean);
  CHECK(t.sink.face_colors == std::vector<uint8_t>{1});
}

TEST_CASE("sandbox wall: self-modifying code runs the bytes it wrote over its next instruction") {
  // mov byte [trap], 0x90 turns the int3 about to run into a nop: the block re-enters at arm1.
  const auto nop = build_shape(shape_with_block(R"(
    x86 c6 05 {trap} 90
trap:
    x86 cc
    x86 68 {arm1} 68 {do_start_interp} c3)"));
  // mov dword [next+1], arm2 rewrites the push operand of the instruction that runs next.
  const auto retarget = build_shape(shape_with_block(R"(
    x86 c7 05 {next+1} {arm2}
next:
    x86 68 {arm1} 68 {do_start_interp} c3)"));
  RunState traced;
  traced.x86_trace = true;
  for (const RunState& state : {RunState{}, traced}) {
    Interpreter a(nop.shape), b(retarget.shape);
    for (int round = 0; round < 2; ++round) {  // CODE is restored between runs: same result
      INFO("traced " << state.x86_trace << " round " << round);
      X86Run ra = run(a, state);
      CHECK(ra.result.clean);
      CHECK(ra.sink.face_colors == std::vector<uint8_t>{1});
      X86Run rb = run(b, state);
      CHECK(rb.result.clean);
      CHECK(rb.sink.face_colors == std::vector<uint8_t>{2});
    }
  }
}

TEST_CASE("FA-19 sandbox wall: re-entry inside a re-entered sub-stream ends on the call depth") {
  // The block re-enters at `again`, which calls `sub`; sub's block re-enters at `again` once
  // more (a call one level deeper) unless _PLgearDown == 1, when it re-enters at `leaf`.
  const auto b = build_shape(testing::with_header(std::string(R"(
    VertexBuffer at=0
        v 0, 10, 0
        v 10, 10, 0
        v 0, 10, 10
    X86Code
    x86 68 {again} 68 {do_start_interp} c3
again:
    Unmask @sub
    Face content=0 layout=0 color=9 shadow=0 idx=0,1,2
    ShortEOF
sub:
    X86Code
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {leaf} 68 {do_start_interp} c3
    x86 68 {again} 68 {do_start_interp} c3
leaf:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    ShortEOF
    EndObject
)") + testing::kX86Stubs,
                                                  testing::kX86Imports));
  Interpreter interp(b.shape);
  for (int round = 0; round < 2; ++round) {
    X86Run bad = run(interp, with("_PLgearDown=0"));
    CHECK_FALSE(bad.result.clean);
    CHECK(bad.result.stop == StopReason::kCallDepthBudget);
    REQUIRE(!bad.sink.diagnostics.empty());
    const std::string& d = bad.sink.diagnostics.back();
    CHECK(d.find("call depth") != std::string::npos);
    CHECK(d.find("budget") != std::string::npos);
    CHECK(bad.sink.log.size() == RunState{}.call_depth_limit);  // one call per level
    X86Run good = run(interp, with("_PLgearDown=1"));
    CHECK(good.result.clean);
    CHECK(good.sink.face_colors == std::vector<uint8_t>{1, 9});
  }
}

TEST_CASE("sandbox: a block starts from the registers given and reports all nine at its stop") {
  // add eax, ebx; add edx, ecx; xchg edi, esi; hlt
  std::vector<uint8_t> code(x86::kPageSize, 0xF4);
  const uint8_t body[] = {0x01, 0xD8, 0x01, 0xCA, 0x87, 0xF7, 0xF4};
  std::copy(std::begin(body), std::end(body), code.begin());
  std::vector<uint8_t> stack(x86::kPageSize, 0);
  x86::Sandbox box;
  box.map(0x1000, code, x86::kReadExec);
  box.map(0x2000, stack, x86::kReadWrite);
  x86::Registers in;
  in.eax = 1, in.ebx = 2, in.ecx = 3, in.edx = 4, in.esi = 5, in.edi = 6, in.ebp = 7;
  in.esp = 0x2800, in.eip = 0x1000;
  box.begin_block();
  const x86::Outcome out = box.run(in, 100);
  CHECK(out.kind == x86::Outcome::Kind::kHalted);
  const x86::Registers& r = out.regs;
  CHECK(r.eax == 3);
  CHECK(r.ebx == 2);
  CHECK(r.ecx == 3);
  CHECK(r.edx == 7);
  CHECK(r.esi == 6);
  CHECK(r.edi == 5);
  CHECK(r.ebp == 7);
  CHECK(r.esp == 0x2800);
  CHECK(r.eip == 0x1006);  // a fault leaves EIP on the refused HLT
  const x86::Registers now = box.registers();
  CHECK(now.eax == 3);
  CHECK(now.edi == 5);
  CHECK(now.eip == 0x1006);
}

TEST_CASE("sandbox: read() sees the mapped bytes, across regions too, and refuses unmapped ones") {
  std::vector<uint8_t> a(x86::kPageSize), b(x86::kPageSize);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<uint8_t>(i * 7 + 1);
    b[i] = static_cast<uint8_t>(i * 13 + 5);
  }
  x86::Sandbox box;
  box.map(0x10000, a, x86::kReadWrite);
  box.map(0x11000, b,
          static_cast<uint8_t>(x86::Access::kRead));  // adjacent: a read may straddle the two
  uint32_t v = 0;
  REQUIRE(box.read32(0x10000, v));
  CHECK(v == (a[0] | a[1] << 8 | a[2] << 16 | uint32_t{a[3]} << 24));
  REQUIRE(box.read32(0x10FFC, v));  // the last four bytes of the first region
  CHECK(v == (a[0xFFC] | a[0xFFD] << 8 | a[0xFFE] << 16 | uint32_t{a[0xFFF]} << 24));
  REQUIRE(box.read32(0x10FFE, v));  // two bytes from each region
  CHECK(v == (a[0xFFE] | a[0xFFF] << 8 | b[0] << 16 | uint32_t{b[1]} << 24));
  REQUIRE(box.read32(0x11123, v));
  CHECK(v == (b[0x123] | b[0x124] << 8 | b[0x125] << 16 | uint32_t{b[0x126]} << 24));
  a[0x20] = 0xAB;  // the host's stores are the guest's memory
  uint8_t byte = 0;
  REQUIRE(box.read(0x10020, &byte, 1));
  CHECK(byte == 0xAB);
  CHECK_FALSE(box.read32(0x11FFE, v));  // runs past the second region into nothing
  CHECK_FALSE(box.read32(0x20000, v));
  CHECK(box.read32(x86::kSystemPage, v));  // the sandbox's own page, mapped by Unicorn itself
}

}  // namespace fa_x86_wall_tests
