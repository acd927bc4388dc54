// The opcode table and instruction sizes against seed 000's tables (FA-05..FA-09, FA-13..FA-16,
// FA-25, FA-28..FA-30). The expected values are written out here independently of opcodes.cpp.
#include <doctest/doctest.h>

#include <ios>
#include <map>
#include <vector>

#include "interp/fa/instruction.h"
#include "interp/fa/opcodes.h"

namespace fa_opcodes_tests {

using namespace shapevm::fa;

namespace {

// Decodes `bytes` (padded so variable rules have room) and returns the size, or 0 on error.
uint32_t size_of(std::vector<uint8_t> bytes) {
  Instruction insn;
  DecodeError error;
  return decode_instruction(bytes, 0, insn, error) ? insn.size : 0;
}

std::vector<uint8_t> zeros_after(std::vector<uint8_t> head, size_t total) {
  head.resize(total, 0);
  return head;
}

}  // namespace

TEST_CASE("FA-06: every fixed-size opcode of the seed has its size, each checked on its own") {
  // Seed 000 "Instruction Dispatch": byte-magic and word-magic fixed sizes.
  const std::map<uint8_t, uint32_t> fixed = {
      {0x38, 3},  {0xBC, 2},  {0xF6, 7},  {0x08, 4},  {0x12, 4},  {0x2E, 4},  {0x3A, 6},
      {0x44, 4},  {0x46, 2},  {0x48, 4},  {0x4E, 2},  {0x50, 6},  {0x66, 10}, {0x68, 8},
      {0x6E, 6},  {0x72, 4},  {0x76, 10}, {0x78, 12}, {0x7A, 10}, {0x96, 6},  {0xA6, 6},
      {0xAC, 4},  {0xB2, 2},  {0xB8, 4},  {0xC4, 16}, {0xC6, 18}, {0xC8, 8},  {0xCA, 4},
      {0xCE, 40}, {0xD0, 4},  {0xD2, 8},  {0xDA, 4},  {0xDC, 12}, {0xE0, 4},  {0xE2, 16},
      {0xE4, 20}, {0xE6, 10}, {0xE8, 6},  {0xEA, 8},  {0xEE, 2},  {0xF2, 4},  {0xFF, 14}};
  for (const auto& [op, size] : fixed) {
    INFO("opcode 0x" << std::hex << int(op));
    CHECK(size_of(zeros_after({op}, 64)) == size);
    // One byte short is an error, never a read past the end.
    CHECK(size_of(zeros_after({op}, size - 1)) == 0);
  }
}

TEST_CASE(
    "FA-05: the table holds the seed's 55 corpus opcodes; word-magic ones expect 0x00 second") {
  int corpus = 0;
  for (const auto& info : all_opcodes()) corpus += info.origin == Origin::kCorpus;
  CHECK(corpus == 55);
  CHECK(find_opcode(0x82)->word_magic);
  CHECK(find_opcode(0x48)->word_magic);
  CHECK_FALSE(find_opcode(0x38)->word_magic);
  CHECK_FALSE(find_opcode(0xFC)->word_magic);
  CHECK_FALSE(find_opcode(0xF6)->word_magic);
  CHECK(find_opcode(0x02) == nullptr);
  CHECK(find_opcode(0x80) == nullptr);
}

TEST_CASE("FA-07: OrderPlane is 16 + u16@[14]; the short plane forms are 12 + u16@[10]") {
  auto op06 = zeros_after({0x06, 0x00}, 64);
  op06[14] = 8;
  CHECK(size_of(op06) == 24);
  for (uint8_t op : {0x0C, 0x0E, 0x10}) {
    INFO("opcode 0x" << std::hex << int(op));
    auto b = zeros_after({op, 0x00}, 64);
    b[10] = 8;
    CHECK(size_of(b) == 20);
    b[10] = 0x40;  // claims more bytes than exist
    CHECK(size_of(b) == 0);
  }
}

TEST_CASE("FA-08: JumpToFrame 4 + 2n, SourceName 2 + strlen + 1, VertexBuffer 6 + 6n") {
  CHECK(size_of(zeros_after({0x40, 0x00, 3, 0}, 64)) == 10);
  CHECK(size_of({0x42, 0x00, 'a', 'b', 'c', 0, 0x1E}) == 6);
  CHECK(size_of({0x42, 0x00, 'a', 'b', 'c'}) == 0);  // no terminator before the end
  CHECK(size_of(zeros_after({0x82, 0x00, 5, 0}, 64)) == 36);
  CHECK(size_of(zeros_after({0x82, 0x00, 20, 0}, 64)) == 0);
}

TEST_CASE("FA-09: OrderField is 13/14/16 bytes by its trailing embedded 38/48/50 jump") {
  auto b = zeros_after({0x6C, 0x00}, 32);
  b[10] = 0x38;
  CHECK(size_of(b) == 13);
  b[10] = 0x48;
  CHECK(size_of(b) == 14);
  b[10] = 0x50;
  CHECK(size_of(b) == 16);
  b[10] = 0x12;
  CHECK(size_of(b) == 0);
}

TEST_CASE("FA-13/FA-14/FA-15: Face size for every content/layout flag combination") {
  for (int content = 0; content < 256; ++content) {
    for (int layout = 0; layout < 16; ++layout) {
      for (int corners : {0, 1, 3, 5}) {
        const bool normal = content & 0x40, tex = content & 0x04;
        const bool short_idx = layout & 0x04, byte_centre = layout & 0x02, byte_tc = layout & 0x01;
        uint32_t expected = 5 + (normal ? 6 + (byte_centre ? 3 : 6) : 0) + 1;
        expected += corners * (short_idx ? 2 : 1);
        if (tex) expected += corners * (byte_tc ? 2 : 4);
        std::vector<uint8_t> b = {0xFC, uint8_t(content), uint8_t(layout), 0x33, 0};
        b.resize(5 + (normal ? 6 + (byte_centre ? 3 : 6) : 0), 0);
        b.push_back(uint8_t(corners));
        b.resize(200, 0);
        INFO("content 0x" << std::hex << content << " layout 0x" << layout << " corners "
                          << corners);
        CHECK(size_of(b) == expected);
        b.resize(expected - 1);
        CHECK(size_of(b) == 0);
      }
    }
  }
}

TEST_CASE("FA decode errors say where and what a well-formed stream has there") {
  // Each failure at CODE offset 3 (three bytes of something before it), so the offsets reported
  // are the instruction's own, not the buffer's start.
  auto failure = [](std::vector<uint8_t> insn) {
    std::vector<uint8_t> code = {0xEE, 0x00, 0x1E};
    code.insert(code.end(), insn.begin(), insn.end());
    Instruction decoded;
    DecodeError error;
    CHECK_FALSE(decode_instruction(code, 3, decoded, error));
    return error;
  };
  // A Face cut short before its flags, before its corner count, and in its corners.
  DecodeError e = failure({0xFC, 0x00, 0x00});
  CHECK(e.offset == 3);
  CHECK(e.expected ==
        "expected Face opcode, content, layout, colour and is_shadow (5 bytes) but only 3 remain "
        "before the end of CODE");
  e = failure({0xFC, 0x40, 0x00, 0x21, 0x00, 1, 2, 3});  // a normal and a 6-byte centre announced
  CHECK(e.offset == 3);
  CHECK(e.expected ==
        "expected Face normal/centre and corner count (18 bytes) but only 8 remain before the end "
        "of CODE");
  e = failure({0xFC, 0x04, 0x04, 0x21, 0x00, 3, 0, 0, 1, 0, 2, 0, 0xAA});  // texcoords missing
  CHECK(e.offset == 3);
  CHECK(e.expected ==
        "expected Face with 3 corners (content 0x04, layout 0x04) (24 bytes) but only 13 remain "
        "before the end of CODE");
  // Past the end of CODE altogether: nothing remains.
  {
    const std::vector<uint8_t> code = {0xFC, 0x00};
    DecodeError past;
    CHECK(face_size(code, 4, past) == 0);
    CHECK(past.offset == 4);
    CHECK(past.expected.find("but only 0 remain") != std::string::npos);
  }
  e = failure({0x02});
  CHECK(e.offset == 3);
  CHECK(e.expected.rfind("expected a known opcode, found 0x02 (no FA opcode has this value; the "
                         "engine would dispatch vector_table entry 0x",
                         0) == 0);
  std::vector<uint8_t> order_field(16, 0);
  order_field[0] = 0x6C;
  order_field[10] = 0x12;
  e = failure(order_field);
  CHECK(e.offset == 3 + 10);
  CHECK(e.expected ==
        "expected OrderField's embedded jump opcode 38, 48 or 50 at byte 10, found 12");
  e = failure({0x42, 0x00, 'A', 'B'});
  CHECK(e.offset == 3);
  CHECK(e.expected == "expected SourceName's NUL terminator before the end of CODE");
  e = failure(std::vector<uint8_t>(8, 0x34));
  CHECK(e.offset == 3);
  CHECK(e.expected.rfind("expected an opcode with a known size; 0x34 is the engine-only handler ",
                         0) == 0);
}

TEST_CASE("FA-13/FA-16: Face fields parse; the normal's float scale is 1/32765") {
  // content 0x44 (normal + texcoords), layout 0x07 (u16 indices, byte centre, byte texcoords)
  std::vector<uint8_t> b = {0xFC, 0x44, 0x07, 0x5A, 1, 0xFD, 0x7F, 0,  0,  0x03, 0x80, 1,  0xFF, 2,
                            3,    0x00, 0x01, 0x01, 0, 2,    0,    10, 20, 30,   40,   50, 60};
  Instruction insn;
  DecodeError error;
  REQUIRE(decode_instruction(b, 0, insn, error));
  CHECK(insn.size == b.size());
  FaceView f = parse_face(b, 0);
  CHECK(f.color == 0x5A);
  CHECK(f.is_shadow == 1);
  CHECK(f.normal == std::array<int16_t, 3>{32765, 0, -32765});
  CHECK(f.center == std::array<int16_t, 3>{1, -1, 2});
  CHECK(f.indices == std::vector<uint16_t>{256, 1, 2});
  CHECK(f.texcoords.size() == 3);
  CHECK(f.texcoords[2] == std::array<uint16_t, 2>{50, 60});
  CHECK(f.normal[0] * kFaceNormalScale == doctest::Approx(1.0));
}

TEST_CASE("FA-25: vector_table has 128 dword entries addressed at opcode*2; odd opcodes straddle") {
  CHECK(kVectorTableSlots == 128);
  CHECK(vector_table_entry_address(0x82) == 0x5183A0 + 0x104);
  CHECK(vector_table_entry_address(0x82) % 4 == 0x5183A0 % 4);
  // An odd opcode reads a dword starting two bytes into an entry: not any handler's slot.
  CHECK(vector_table_entry_address(0x01) % 4 != 0x5183A0 % 4);
}

TEST_CASE("FA-28/FA-29/FA-30: engine-only handlers, the six do_if_not_effect slots, the stub") {
  for (uint8_t op : {0x34, 0x36, 0x3E, 0x5C, 0xEC, 0xF4, 0xF8, 0xFA, 0xFE}) {
    INFO("opcode 0x" << std::hex << int(op));
    REQUIRE(find_opcode(op) != nullptr);
    CHECK(find_opcode(op)->origin == Origin::kEngineOnly);
    CHECK_FALSE(find_opcode(op)->handler.empty());
  }
  CHECK(find_opcode(0x34)->handler == "do_nop");
  CHECK(find_opcode(0xFE)->handler == "do_nt");
  // Exactly the seed's six slots share do_if_not_effect, and no other opcode does.
  std::vector<int> if_not_effect;
  for (const auto& info : all_opcodes()) {
    if (info.origin == Origin::kIfNotEffect) if_not_effect.push_back(info.op);
    CHECK((info.handler == kIfNotEffectHandler) == (info.origin == Origin::kIfNotEffect));
  }
  CHECK(if_not_effect == std::vector<int>{0x14, 0x16, 0x3C, 0xA8, 0xAA, 0xC0});
  for (uint8_t op : {0x14, 0x16, 0x3C, 0xA8, 0xAA, 0xC0}) {
    INFO("opcode 0x" << std::hex << int(op));
    REQUIRE(find_opcode(op) != nullptr);
    CHECK(find_opcode(op)->handler == "do_if_not_effect");
  }
  CHECK(kUnassignedStubAddress == 0x4D17E0);
  // No shipped shape uses them, so their sizes are untraced: decoding says so instead of guessing.
  Instruction insn;
  DecodeError error;
  CHECK_FALSE(decode_instruction(std::vector<uint8_t>(8, 0x34), 0, insn, error));
  CHECK(error.expected.find("untraced") != std::string::npos);
}

TEST_CASE("FA opcodes: no two opcodes share a mnemonic (info counts instructions by name)") {
  std::map<std::string_view, uint8_t> seen;
  for (const OpcodeInfo& op : all_opcodes()) {
    CAPTURE(op.mnemonic);
    CHECK(seen.emplace(op.mnemonic, op.op).second);
  }
  CHECK(seen.size() == all_opcodes().size());
}

TEST_CASE("FA handler names and addresses are the seed's") {
  CHECK(find_opcode(0x1E)->handler == "do_short_eof");
  CHECK(find_opcode(0x1E)->handler_address == 0x4D17F4);
  CHECK(find_opcode(0x38)->handler_address == 0x4D30E4);
  CHECK(find_opcode(0x40)->handler == "do_anim_jmp");
  CHECK(find_opcode(0xAC)->handler == "do_ifdestroyed");
  CHECK(find_opcode(0xC8)->handler == "do_jumpfar4");
  CHECK(find_opcode(0xF0)->handler == "do_start_asm");
  CHECK(find_opcode(0xF0)->handler_address == 0x4D4254);
  CHECK(find_opcode(0xFC)->handler == "do_new_poly");
  CHECK(find_opcode(0x6C)->handler == "sh_op_6C");
}

TEST_CASE("FA-33/FA-31/FA-38: link targets sit where the seed and the operand facts put them") {
  auto links = [](std::vector<uint8_t> b) {
    b.resize(64, 0);
    Instruction insn;
    DecodeError error;
    REQUIRE(decode_instruction(b, 0, insn, error));
    return insn.links;
  };
  CHECK(links({0x48, 0x00, 0x10, 0x00})[0].target == 4 + 0x10);
  CHECK(links({0x48, 0x00, 0xFC, 0xFF})[0].target == 0);  // -4: back to itself
  CHECK(links({0x38, 0x10, 0x00})[0].target == 3 + 0x10);
  CHECK(links({0x50, 0x00, 0x00, 0x01, 0x00, 0x00})[0].target == 6 + 0x100);
  // FA-33: rel32, not rel16. 0x00012340 reads as 0x2340 in its low half; -0x10000 as 0.
  CHECK(links({0x50, 0x00, 0x40, 0x23, 0x01, 0x00})[0].target == 6 + 0x12340);
  CHECK(links({0x50, 0x00, 0x00, 0x00, 0xFF, 0xFF})[0].target == 6 - 0x10000);
  // Unmask (rel16, signed) and UnmaskLong (rel32) call from the end of their operand.
  CHECK(links({0x12, 0x00, 0x08, 0x00})[0].target == 4 + 8);
  CHECK(links({0x12, 0x00, 0xF0, 0xFF})[0].target == 4 - 16);
  auto unmask_long = links({0x6E, 0x00, 0x08, 0x00, 0x01, 0x00});
  CHECK(unmask_long[0].role == LinkRole::kCall);
  CHECK(unmask_long[0].target == 6 + 0x10008);
  // XformUnmask: C4 00, six words, rel16 at [14]: call off + 16 + rel. XformUnmaskLong: rel32
  // at [14]: call off + 18 + rel.
  std::vector<uint8_t> xform = {0xC4, 0x00, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0x0A, 0x00};
  CHECK(links(xform)[0].role == LinkRole::kCall);
  CHECK(links(xform)[0].target == 16 + 10);
  std::vector<uint8_t> xform_long = {0xC6, 0x00, 1, 0, 2, 0,    3,    0,    4,
                                     0,    5,    0, 6, 0, 0x0A, 0x00, 0x01, 0x00};
  CHECK(links(xform_long)[0].target == 18 + 0x1000A);
  CHECK(links({0x12, 0x00, 0x08, 0x00})[0].role == LinkRole::kCall);
  CHECK(links({0xAC, 0x00, 0x08, 0x00})[0].target == 12);
  CHECK(links({0xA6, 0x00, 0x08, 0x00, 0x02, 0x00})[0].target ==
        14);  // from the end of the 6 bytes
  CHECK(links({0xC8, 0x00, 0, 0, 0, 0, 0x08, 0x00})[0].target == 16);
  // JumpToFrame: each rel16 is relative to its own slot (slots at 4 and 6).
  auto frames = links({0x40, 0x00, 2, 0, 0x10, 0x00, 0x20, 0x00});
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].target == 4 + 0x10);
  CHECK(frames[1].target == 6 + 0x20);
  // OrderField: call = opd + w3 + 8 (off + 10 + i16@[8]), continue = opd + 6 + w2 (off + 8 +
  // i16@[6]).
  auto sel = links({0x6C, 0x00, 0x0E, 0x00, 0x00, 0x00, 0x05, 0x00, 0x07, 0x00, 0x38, 0x02, 0x00});
  CHECK(sel[0].role == LinkRole::kCall);
  CHECK(sel[0].target == 10 + 7);
  CHECK(sel[1].role == LinkRole::kContinue);
  CHECK(sel[1].target == 8 + 5);
  CHECK(sel[2].role == LinkRole::kThen);
  CHECK(sel[2].target == 13 + 2);
  // OrderPlane: call = off + 18 + i16@[16]; the size field counts the bytes after it.
  std::vector<uint8_t> plane(18, 0);
  plane[0] = 0x06;
  plane[14] = 2;
  plane[16] = 0x20;
  auto pl = links(plane);
  CHECK(pl[0].target == 18 + 0x20);
  // The short forms: four words of plane data, u16 size at [10], call off + 14 + i16@[12].
  for (uint8_t op : {0x0C, 0x0E, 0x10}) {
    INFO("opcode 0x" << std::hex << int(op));
    auto s = links({op, 0x00, 1, 0, 2, 0, 3, 0, 4, 0, 0x02, 0x00, 0x20, 0x00});
    REQUIRE(s.size() == 1);
    CHECK(s[0].role == LinkRole::kCall);
    CHECK(s[0].target == 14 + 0x20);
    CHECK(links({op, 0x00, 1, 0, 2, 0, 3, 0, 4, 0, 0x02, 0x00, 0xFE, 0xFF})[0].target == 14 - 2);
  }
}

}  // namespace fa_opcodes_tests
