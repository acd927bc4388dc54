// The packet table and instruction decoding (AP-17, AP-20..AP-23), through the one opcode table.
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "interp/apache/opcodes.h"
#include "interp/apache/packets.h"
#include "tests/apache/apache_fixture.h"

namespace apache_opcodes_tests {

using namespace shapevm;
using shapevm::testing::ApacheFixture;

TEST_CASE("AP-22 each of the 22 packet types has the seed's header and per-vertex sizes") {
  // {type, header bytes including type and count, bytes per vertex} from the seed's table.
  const int kSeed[22][3] = {{0, 3, 1},  {1, 3, 1},  {2, 3, 1},  {3, 4, 1},  {4, 3, 1},  {5, 3, 1},
                            {6, 2, 1},  {7, 5, 3},  {8, 5, 3},  {9, 4, 1},  {10, 4, 1}, {11, 4, 1},
                            {12, 5, 1}, {13, 4, 1}, {14, 4, 1}, {15, 6, 3}, {16, 6, 3}, {17, 4, 2},
                            {18, 5, 2}, {19, 6, 4}, {20, 6, 4}, {21, 2, 1}};
  for (const auto& row : kSeed) {
    const apache::PacketType* t = apache::packet_type(static_cast<uint8_t>(row[0]));
    REQUIRE(t != nullptr);
    INFO(t->name);
    CHECK(t->header_bytes == row[1]);
    CHECK(t->vertex_bytes == row[2]);
    CHECK(apache::packet_type_by_name(t->name) == t);
  }
  CHECK(apache::packet_type(22) == nullptr);
  CHECK(apache::packet_type(6)->remap == apache::Remap::kGlass);
  CHECK(apache::packet_type(21)->remap == apache::Remap::kHeatHaze);
  CHECK(apache::packet_type(8)->masked);
  CHECK(apache::packet_type(5)->coarse_mesh);
}

TEST_CASE(
    "AP-20 AP-23 a primary packet is type, count, header, then index (U V) (normal) per vertex") {
  ApacheFixture f(R"(
model 0 a
  vertex 0 0 0
  vertex 1 0 0
  vertex 1 1 0
program
  face gouraudmasktexture texture=300 colour=7 normal=2 : 0/1/2/n3 1/4/5/n6 2/7/8/n9
  face twocolour colour=1 colour2=2 : 2 1 0
  ret
end
)");
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  apache::Instruction ins;
  apache::decode_instruction(f.archive.bytes(), program, "t", ins);
  CHECK(ins.op == 0);
  const apache::Packet& p = ins.packet;
  CHECK(p.offset == program + 1);
  CHECK(p.type->type == 20);
  CHECK(p.count == 3);
  CHECK(p.texture == 300);
  CHECK(p.colour == 7);
  CHECK(p.face_normal == 2);
  CHECK(p.size == 6 + 3 * 4);
  CHECK(ins.size == 1 + p.size);
  CHECK(p.vertex(1).index == 1);
  CHECK(p.vertex(1).u == 4);
  CHECK(p.vertex(1).v == 5);
  CHECK(p.vertex(1).normal == 6);
  // The raw bytes: type, count, texture lo/hi, colour, normal, then the vertices.
  const auto* b = f.archive.bytes().data() + p.offset;
  CHECK(b[0] == 20);
  CHECK(b[1] == 3);
  CHECK(b[2] == (300 & 0xFF));
  CHECK(b[3] == (300 >> 8));
  CHECK(b[6] == 0);
  apache::decode_instruction(f.archive.bytes(), program + ins.size, "t", ins);
  CHECK(ins.packet.type->type == 3);
  CHECK(ins.packet.colour2 == 2);
  CHECK(ins.packet.vertex(0).index == 2);
}

TEST_CASE("AP-21 a secondary packet has a preceding byte with its complete length") {
  ApacheFixture f(R"(
model 0 a
  vertex 0 0 0
  vertex 1 0 0
  vertex 1 1 0
program
  face2 texture texture=1 colour=3 : 0/0/0 1/1/1 2/2/2
  ret
end
)");
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  apache::Instruction ins;
  apache::decode_instruction(f.archive.bytes(), program, "t", ins);
  CHECK(ins.op == 1);
  // The complete secondary packet: the length byte 1 + type, count, texture u16, colour (5) +
  // 3 vertices x 3 bytes = 15, the byte itself included (the seed's reading).
  CHECK(f.archive.bytes()[program + 1] == 15);
  CHECK(ins.secondary_length == 15);
  CHECK(ins.secondary_expected == 15);
  CHECK_FALSE(ins.secondary_mismatch);
  CHECK(ins.size == 1 + 15);
  // Skipping by the length byte, counted from the byte itself, lands on the next opcode (ret).
  CHECK(ins.secondary_skip == program + 1 + 15);
  CHECK(f.archive.bytes()[ins.secondary_skip] == 7);

  // The other reading (from the type byte on) expects 14 here: the same byte is a mismatch that
  // is recorded, not an error, and its skip would land one byte past the ret.
  apache::decode_instruction(f.archive.bytes(), program, "t", ins,
                             apache::SecondaryLength::kAfterItself);
  CHECK(ins.secondary_expected == 14);
  CHECK(ins.secondary_mismatch);
  CHECK(ins.secondary_skip == program + 2 + 15);
  CHECK(ins.size == 1 + 15);  // the packet as decoded is the same either way

  // A byte of 13 fits neither reading: decoding still succeeds and says so.
  std::vector<uint8_t> bytes = f.assembled.archive;
  bytes[program + 1] = 13;
  apache::decode_instruction(bytes, program, "t", ins);
  CHECK(ins.secondary_length == 13);
  CHECK(ins.secondary_mismatch);
  CHECK(ins.secondary_skip == program + 1 + 13);
}

TEST_CASE("AP-21 the assembler writes the whole length and length=N writes another byte") {
  ApacheFixture f(R"(
model 0 a
  vertex 0 0 0
  vertex 1 0 0
  vertex 1 1 0
program
  face2 polygon colour=9 : 0 1 2
  face2 polygon colour=9 length=6 : 0 1 2
  ret
end
)");
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  const auto& b = f.archive.bytes();
  // op, length, type 2, count 3, colour 9, indices 0 1 2: the packet is 6 bytes, 7 with its byte.
  CHECK(std::vector<uint8_t>(b.begin() + program, b.begin() + program + 9) ==
        std::vector<uint8_t>{1, 7, 2, 3, 9, 0, 1, 2, 1});
  CHECK(b[program + 9] == 6);
  CHECK_THROWS_WITH_AS(
      apache::assemble_apache(
          "model 0 a\n  vertex 0 0 0\nprogram\n  face2 polygon colour=1 length=300 : 0 0 0\n"
          "  ret\nend\n",
          "x.apa"),
      doctest::Contains("300 is outside 0..255"), InputError);
}

TEST_CASE("AP-17 displacements are signed 16-bit relative to the byte after the displacement") {
  ApacheFixture f(R"(
model 0 a
  vertex 0 0 0
  vertex 1 0 0
  vertex 1 1 0
program
back:
  ret
  choose 0x10 set=back clear=fwd continue=cont
fwd:
  ret
cont:
  select shift=3 mask=7 cases=back,fwd,cont continue=cont
  ret
end
)");
  const uint32_t program = f.archive.record(0)->header.sections[apache::kProgram];
  const auto& bytes = f.archive.bytes();
  apache::Instruction ins;
  apache::decode_instruction(bytes, program + 1, "t", ins);
  REQUIRE(ins.op == 4);
  CHECK(ins.mask == 0x10);
  // The set displacement sits at program + 6 (opcode, mask); it is relative to program + 8.
  const int16_t d = static_cast<int16_t>(bytes[program + 6] | (bytes[program + 7] << 8));
  CHECK(d < 0);
  CHECK(program + 8 + d == program);
  CHECK(ins.branches[0] == f.label(0, "back"));
  CHECK(ins.branches[1] == f.label(0, "fwd"));
  CHECK(ins.continuation == f.label(0, "cont"));
  apache::decode_instruction(bytes, f.label(0, "cont"), "t", ins);
  REQUIRE(ins.op == 5);
  CHECK(ins.shift == 3);
  CHECK(ins.mask == 7);
  CHECK(ins.branches ==
        std::vector<uint32_t>{f.label(0, "back"), f.label(0, "fwd"), f.label(0, "cont")});
  CHECK(ins.continuation == f.label(0, "cont"));
}

TEST_CASE("malformed instructions: unknown opcode and packet type, truncation, wild branches") {
  std::vector<uint8_t> bytes{8};
  apache::Instruction ins;
  CHECK_THROWS_WITH_AS(apache::decode_instruction(bytes, 0, "t", ins),
                       doctest::Contains("expected a drawing opcode 0..7, found 8"), InputError);
  bytes = {0, 22, 1, 1};
  CHECK_THROWS_WITH_AS(apache::decode_instruction(bytes, 0, "t", ins),
                       doctest::Contains("offset 0x1: expected a primitive type 0..21, found 22"),
                       InputError);
  bytes = {0, 2, 3, 5, 0, 1};  // polygon of 3 vertices, only two index bytes
  CHECK_THROWS_WITH_AS(apache::decode_instruction(bytes, 0, "t", ins),
                       doctest::Contains("3 vertices of 1 bytes"), InputError);
  bytes = {3, 1, 0, 0, 0, 0x00, 0x40, 0, 0};  // ifmask branch to +0x4000
  CHECK_THROWS_WITH_AS(apache::decode_instruction(bytes, 0, "t", ins),
                       doctest::Contains("branch displacement 16384 of ifmask to land inside"),
                       InputError);
  bytes = {2, 2, 0, 1};
  CHECK_THROWS_WITH_AS(apache::decode_instruction(bytes, 0, "t", ins),
                       doctest::Contains("at least 3 vertices"), InputError);
}

}  // namespace apache_opcodes_tests
