// Memoised x86 guard blocks (interp/fa/x86_guard_memo.h): which blocks the static check accepts,
// traces identical with and without the memo over the generated corpus, and a guard whose
// compared value another block rewrites is run again rather than answered from the memo. A key
// holds every byte each compare reads, so values alike in their low byte are not confused.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/byte_writer.h"
#include "interp/fa/articulation.h"
#include "interp/fa/generator.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/x86_guard_memo.h"
#include "tests/fa/trace_text.h"
#include "tests/fa/x86_block_shape.h"

namespace fa_x86_memo_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::BuiltShape;
using shapevm::testing::with;

namespace {

constexpr uint32_t kCodeBase = 0x1000;
constexpr uint32_t kGlobals = 0x800000;
constexpr uint32_t kExits = 0xA00000;

// CODE `code` with a 0x1000-byte globals region and one exit page.
GuardMemory memory_of(const std::vector<uint8_t>& code) {
  GuardMemory m;
  m.code_base = kCodeBase;
  m.code = code;
  m.globals_base = kGlobals;
  m.globals_size = 0x1000;
  m.exits_base = kExits;
  m.exits_size = 0x1000;
  return m;
}

// x86 bytes at CODE offset 0, proved in memory_of(code).
std::optional<GuardProof> prove(const std::vector<uint8_t>& code) {
  return prove_pure_guard(memory_of(code), 0);
}

// `compare; jne +11; push arm; push exit; ret; [tail]; push join; push exit; ret`.
std::vector<uint8_t> guard(std::vector<uint8_t> compare, std::vector<uint8_t> tail = {}) {
  std::vector<uint8_t> c = std::move(compare);
  c.insert(c.end(), {0x75, 0x0B, 0x68});
  append_u32(c, kCodeBase + 0x100);
  c.push_back(0x68);
  append_u32(c, kExits + 0x10);
  c.push_back(0xC3);
  c.insert(c.end(), tail.begin(), tail.end());
  c.push_back(0x68);
  append_u32(c, kCodeBase + 0x200);
  c.push_back(0x68);
  append_u32(c, kExits + 0x10);
  c.push_back(0xC3);
  c.resize(0x300, 0xCC);
  return c;
}

std::vector<uint8_t> cmp_word(uint32_t address) {
  std::vector<uint8_t> c = {0x66, 0x83, 0x3D};
  append_u32(c, address);
  c.push_back(0x01);
  return c;
}

std::string trace(Interpreter& interp, const RunState& state) {
  return testing::trace_text(interp, state);
}

}  // namespace

TEST_CASE("a guard that compares globals, branches forward and re-enters is proved pure") {
  const auto word = prove(guard(cmp_word(kGlobals + 0x100)));
  REQUIRE(word);
  REQUIRE(word->reads.size() == 1);
  CHECK(word->reads[0].address == kGlobals + 0x100);
  CHECK(word->reads[0].width == 2);
  CHECK(word->pushes == 4);
  // cmp dword imm8, cmp byte, test byte, and a near jcc all qualify; the widths are the key's.
  std::vector<uint8_t> dword = {0x83, 0x3D};
  append_u32(dword, kGlobals + 0x200);
  dword.push_back(0x00);
  const auto d = prove(guard(dword));
  REQUIRE(d);
  CHECK(d->reads[0].width == 4);
  std::vector<uint8_t> byte = {0x80, 0x3D};
  append_u32(byte, kGlobals + 0x300);
  byte.push_back(0x00);
  REQUIRE(prove(guard(byte)));
  CHECK(prove(guard(byte))->reads[0].width == 1);
  std::vector<uint8_t> test = {0xF6, 0x05};
  append_u32(test, kGlobals + 0x300);
  test.push_back(0x04);
  CHECK(prove(guard(test)));
}

TEST_CASE("a block that could do more than compare and re-enter is not memoised") {
  // A store (mov dword [global], 1) where the jne lands.
  std::vector<uint8_t> store = {0xC7, 0x05};
  append_u32(store, kGlobals + 0x100);
  append_u32(store, 1);
  CHECK_FALSE(prove(guard(cmp_word(kGlobals + 0x100), store)));
  // A compare of CODE rather than of a global's storage.
  CHECK_FALSE(prove(guard(cmp_word(kCodeBase + 0x10))));
  // A compare that runs past the globals region.
  CHECK_FALSE(prove(guard(cmp_word(kGlobals + 0xFFF))));
  // A ret after a push of a CODE address: it would return into code no proof covered.
  std::vector<uint8_t> ret_into_code = {0x68};
  append_u32(ret_into_code, kCodeBase + 0x100);
  ret_into_code.push_back(0xC3);
  ret_into_code.resize(0x300, 0xCC);
  CHECK_FALSE(prove(ret_into_code));
  // A backward jump (a possible loop).
  std::vector<uint8_t> loop = cmp_word(kGlobals + 0x100);
  loop.insert(loop.end(), {0x75, 0xF6});  // jne back to the compare
  loop.resize(0x300, 0xC3);
  CHECK_FALSE(prove(loop));
  // A call (a host function, or code behind it).
  std::vector<uint8_t> call = {0xE8, 0, 0, 0, 0};
  call.resize(0x300, 0xC3);
  CHECK_FALSE(prove(call));
  // A guard whose jump leaves CODE.
  std::vector<uint8_t> out = cmp_word(kGlobals + 0x100);
  out.insert(out.end(), {0x0F, 0x85});
  append_u32(out, 0x10000);
  out.resize(0x300, 0xC3);
  CHECK_FALSE(prove(out));
}

TEST_CASE("the memo keys a guard by its compared bytes, up to kMaxKeyBytes of them") {
  // `count` dword compares of consecutive globals (each reads 4 bytes), then the guard's
  // branch, behind an X86Code opcode word at CODE offset 0 (entry() proves from f0 + 2).
  auto compares = [](int count) {
    std::vector<uint8_t> c;
    for (int i = 0; i < count; ++i) {
      c.insert(c.end(), {0x83, 0x3D});
      append_u32(c, kGlobals + 4 * static_cast<uint32_t>(i));
      c.push_back(0x01);
    }
    std::vector<uint8_t> code = {0xF0, 0x00};
    const std::vector<uint8_t> g = guard(c);
    code.insert(code.end(), g.begin(), g.end());
    return code;
  };
  std::vector<uint8_t> globals(0x1000, 0);

  // 9 dwords are 36 bytes: more than a key holds, so the block is never memoised.
  const std::vector<uint8_t> nine = compares(9);
  REQUIRE(prove_pure_guard(memory_of(nine), 2));  // pure all the same
  GuardMemo too_long;
  CHECK_FALSE(too_long.entry(0, memory_of(nine)).proof);
  CHECK(too_long.find(too_long.entry(0, memory_of(nine)), globals, kGlobals) == nullptr);
  CHECK(too_long.misses() == 0);  // not even looked for

  // 8 dwords, 32 bytes: memoised, keyed by every byte compared.
  const std::vector<uint8_t> eight = compares(8);
  GuardMemo memo;
  GuardMemo::Entry& e = memo.entry(0, memory_of(eight));
  REQUIRE(e.proof);
  CHECK(e.proof->reads.size() == 8);
  CHECK(memo.find(e, globals, kGlobals) == nullptr);
  memo.record(e, globals, kGlobals, {0x100, {1, 2, 3, 4}});
  const GuardMemo::Outcome* known = memo.find(memo.entry(0, memory_of(eight)), globals, kGlobals);
  REQUIRE(known != nullptr);
  CHECK(known->resume == 0x100);
  CHECK(known->stack == std::vector<uint8_t>{1, 2, 3, 4});
  // A change in the last byte of the last global compared is another key.
  globals[31] = 7;
  CHECK(memo.find(e, globals, kGlobals) == nullptr);
  // A byte next to them that no compare reads is not.
  globals[31] = 0;
  globals[32] = 7;
  CHECK(memo.find(e, globals, kGlobals) != nullptr);
  CHECK(memo.hits() == 2);
  CHECK(memo.misses() == 2);

  // A store into the block's bytes empties its entry; the next lookup proves it again.
  memo.invalidate(4, 1);
  CHECK_FALSE(e.proof);
  CHECK(memo.find(e, globals, kGlobals) == nullptr);
  GuardMemo::Entry& again = memo.entry(0, memory_of(eight));
  CHECK(&again == &e);
  CHECK(again.proof);
  CHECK(memo.find(again, globals, kGlobals) == nullptr);  // its outcomes went with it
}

TEST_CASE("memoised and unmemoised runs trace the generated corpus alike") {
  uint64_t hits = 0, shapes = 0;
  for (uint32_t i = 0; i < 1275; ++i) {
    const BuiltShape b = build_shape(generate_fa_shape(7, i));
    const auto an = analyze_articulations(b.shape, walk_shape(b.shape));
    if (an.blocks.empty()) continue;
    ++shapes;
    std::vector<RunState> states(1);
    for (const auto& [input, values] : an.inputs)
      for (int64_t value : an.distinct_values(input)) {
        RunState s;
        s.imports[input] = value;
        states.push_back(s);
      }
    Interpreter memoised(b.shape), plain(b.shape);
    for (int pass = 0; pass < 2; ++pass)
      for (size_t k = 0; k < states.size(); ++k) {
        RunState off = states[k];
        off.x86_memo = false;
        const std::string with_memo = trace(memoised, states[k]);
        if (with_memo != trace(plain, off)) {
          INFO("shape " << i << " state " << k << " pass " << pass);
          CHECK(with_memo == trace(plain, off));
        }
      }
    REQUIRE(memoised.x86_runner() != nullptr);
    hits += memoised.x86_runner()->memo_hits();
    CHECK(plain.x86_runner()->memo_hits() == 0);
  }
  CHECK(shapes > 100);
  CHECK(hits > shapes);  // the second pass took every guard's outcome from the first
}

TEST_CASE("a guard whose compared value another block rewrites runs again") {
  // Block A, when _lowMemory == 1, rewrites the immediate of block B's compare from 1 to 2
  // (mov byte [b_value], 2). Block B is a pure guard: _PLgearDown == its immediate re-enters
  // at arm1 (colour 1), anything else at arm2 (colour 2).
  const BuiltShape b = build_shape(testing::with_header(testing::kTriangleVertices + R"(
    X86Code
    x86 66 83 3d {_lowMemory} 01
    x86 75 07
    x86 c6 05 {b_value} 02
    x86 68 {block_b} 68 {do_start_interp} c3
block_b:
    X86Code
    x86 66 83 3d {_PLgearDown}
b_value:
    x86 01
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    EndObject
arm2:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    EndObject
)" + testing::kX86Stubs,
                                                        testing::kX86Imports));
  const RunState plain = with("_PLgearDown=1");
  RunState rewritten = plain;
  rewritten.imports["_lowMemory"] = 1;
  Interpreter interp(b.shape);
  // plain twice (the second from the memo), rewritten (B's bytes changed: run again), plain
  // (CODE restored: run again), each compared with --no-memo.
  const std::vector<std::pair<const RunState*, uint8_t>> sequence = {
      {&plain, 1}, {&plain, 1}, {&rewritten, 2}, {&plain, 1}, {&rewritten, 2}};
  for (const auto& [state, colour] : sequence) {
    for (bool memo : {true, false}) {
      RunState s = *state;
      s.x86_memo = memo;
      testing::RecordingSink sink;
      sink.ops = false;
      const RunResult r = interp.run(s, sink);
      INFO("memo " << memo << " rewritten " << (state == &rewritten));
      CHECK(r.clean);
      CHECK(sink.face_colors == std::vector<uint8_t>{colour});
    }
  }
  CHECK(interp.x86_runner()->memo_hits() >= 1);
}

TEST_CASE("a memoised guard's key holds every byte each compare reads, at its width") {
  // Values of _PLgearDown alike in their low byte and not above it (1 and 0x101, 1 and
  // 0x10001) must each take their own arm on one interpreter, memo on or off: the key holds the
  // word compare's two bytes, the dword compare's four, and the byte compare's one beside the
  // dword compare of the same address, not one read for both.
  const std::string arms = R"(
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    EndObject
arm2:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    EndObject
)";
  struct Case {
    const char* what;
    std::string compares;  // ending in a jne to arm2's push
    int64_t other;         // a value taking arm2 that agrees with 1 in the low byte
  };
  const Case cases[] = {
      {"cmp word", "x86 66 83 3d {_PLgearDown} 01\n x86 75 0b\n", 0x101},
      {"cmp dword", "x86 83 3d {_PLgearDown} 01\n x86 75 0b\n", 0x10001},
      // cmp byte [g], 1; jne arm2; cmp dword [g], 1; jne arm2
      {"cmp byte, then cmp dword of the same global",
       "x86 80 3d {_PLgearDown} 01\n x86 75 14\n x86 83 3d {_PLgearDown} 01\n x86 75 0b\n", 0x101},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const BuiltShape b = build_shape(testing::with_header(
        testing::kTriangleVertices + "    X86Code\n " + c.compares + arms + testing::kX86Stubs,
        testing::kX86Imports));
    REQUIRE(analyze_articulations(b.shape, walk_shape(b.shape)).blocks.size() == 1);
    Interpreter interp(b.shape);
    for (int round = 0; round < 2; ++round)
      for (const int64_t value : {int64_t{1}, c.other, int64_t{0}}) {
        for (const bool memo : {true, false}) {
          INFO("round " << round << ", value " << value << ", memo " << memo);
          RunState s;
          s.imports["_PLgearDown"] = value;
          s.x86_memo = memo;
          testing::RecordingSink sink;
          sink.ops = false;
          CHECK(interp.run(s, sink).clean);
          CHECK(sink.face_colors == std::vector<uint8_t>{static_cast<uint8_t>(value == 1 ? 1 : 2)});
        }
      }
    CHECK(interp.x86_runner()->memo_hits() >= 3);  // the second round from the memo
  }
}

TEST_CASE(
    "a block that calls a host function is run every time, its outcome hanging on the answer") {
  // push cont; push @HARDNumLoaded@8; ret: the host function returns its value in EAX at cont,
  // which re-enters at arm1 when it is 2, else at arm2. The block reads no global, so a recorded
  // outcome would be answered for every value: none may be recorded for a block that called out.
  const BuiltShape b = build_shape(testing::with_header(testing::kTriangleVertices + R"(
    X86Code
    x86 68 {cont} 68 {@HARDNumLoaded@8} c3
cont:
    x86 83 f8 02
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    EndObject
arm2:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    EndObject
)" + testing::kX86Stubs,
                                                        testing::kX86Imports));
  Interpreter interp(b.shape);
  for (int round = 0; round < 2; ++round)
    for (const int64_t loaded : {2, 1, 2, 3}) {
      INFO("round " << round << ", @HARDNumLoaded@8 " << loaded);
      RunState s;
      s.imports["@HARDNumLoaded@8"] = loaded;
      testing::RecordingSink sink;
      sink.ops = false;
      CHECK(interp.run(s, sink).clean);
      CHECK(sink.face_colors == std::vector<uint8_t>{static_cast<uint8_t>(loaded == 2 ? 1 : 2)});
    }
  CHECK(interp.x86_runner()->memo_hits() == 0);
}

TEST_CASE("a memoised guard leaves on the stack what running it would have left") {
  // Guard A pushes its re-entry (a1 or a2) before leaving. Block B, not a pure guard, reads that
  // stale stack word below its own ESP and re-enters at arm1 when it is a1, else at arm2. An
  // outcome taken from the memo must leave the same word, whatever the run before it left.
  const BuiltShape b = build_shape(testing::with_header(testing::kTriangleVertices + R"(
    X86Code
    x86 66 83 3d {_PLgearDown} 01
    x86 75 0b
    x86 68 {a1} 68 {do_start_interp} c3
    x86 68 {a2} 68 {do_start_interp} c3
a1:
    Jump @block_b
a2:
    Jump @block_b
block_b:
    X86Code
    x86 8b 44 24 fc
    x86 3d {a1}
    x86 75 0b
    x86 68 {arm1} 68 {do_start_interp} c3
    x86 68 {arm2} 68 {do_start_interp} c3
arm1:
    Face content=0 layout=0 color=1 shadow=0 idx=0,1,2
    EndObject
arm2:
    Face content=0 layout=0 color=2 shadow=0 idx=0,1,2
    EndObject
)" + testing::kX86Stubs,
                                                        testing::kX86Imports));
  Interpreter interp(b.shape);
  for (int round = 0; round < 3; ++round)
    for (int gear : {1, 0}) {
      INFO("round " << round << " gear " << gear);
      testing::RecordingSink sink;
      sink.ops = false;
      CHECK(interp.run(with("_PLgearDown=" + std::to_string(gear)), sink).clean);
      CHECK(sink.face_colors == std::vector<uint8_t>{static_cast<uint8_t>(gear == 1 ? 1 : 2)});
    }
  CHECK(interp.x86_runner()->memo_hits() >= 4);
}

}  // namespace fa_x86_memo_tests
