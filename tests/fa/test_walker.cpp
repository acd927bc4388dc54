// The static walker: header (FA-03/FA-04), the skip protocol (FA-17), PtrToObjEnd's two readings
// (FA-12), x86 regions bounded by relocation anchors, ShortEOF runs (FA-35) and diagnostics; the
// walk's outline against the whole walk.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "interp/fa/generator.h"
#include "interp/fa/shape_info.h"
#include "tests/fa/shape_text.h"

namespace fa_walker_tests {

using namespace shapevm;
using namespace shapevm::fa;
using shapevm::testing::build_shape;
using shapevm::testing::BuiltShape;
using shapevm::testing::item_kinds;
using shapevm::testing::with_header;

TEST_CASE("FA-03/FA-04: header fields and the scale table (7→0.5 … 11→8, 0 treated as 8)") {
  auto b =
      build_shape(".header radius_world=300 radius=150 scale=9 extents=11,-22,33\n EndShape\n");
  CHECK(b.shape.header.radius_world == 300);
  CHECK(b.shape.header.radius == 150);
  CHECK(b.shape.header.extents == std::array<int16_t, 3>{11, -22, 33});
  const std::pair<int16_t, double> table[] = {{7, 0.5},  {8, 1.0},  {9, 2.0},
                                              {10, 4.0}, {11, 8.0}, {0, 1.0}};
  for (auto [scale, factor] : table) {
    ShapeHeader h;
    h.scale = scale;
    INFO("scale " << scale);
    CHECK(h.scale_factor() == factor);
    CHECK(h.scale_in_table());
  }
  ShapeHeader odd;
  odd.scale = 12;
  CHECK_FALSE(odd.scale_in_table());
}

TEST_CASE("FA-03: a CODE section that does not start with FF FF, or is too short, is an error") {
  auto b = build_shape(with_header("EndShape\n"));
  auto file = b.assembled.file;
  const size_t code_at = b.shape.file_offset(0);
  file[code_at + 1] = 0x12;
  try {
    load_shape(file, "bad.SH");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.offset() == code_at);
    CHECK(std::string(e.what()).find("FF FF") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_header(std::vector<uint8_t>{0xFF, 0xFF, 0, 0}, "short", 0), InputError);
}

namespace {

// PtrToObjEnd, then an EndObject before its target (skipped to it) and one at it (the end).
std::string skip_protocol_text() {
  return with_header(R"(
    PtrToObjEnd @end
    Jump @after
    EndObject
    .db 11 22 33
after:
    ShortEOF
end:
    EndObject
    .db 01 02 03 02 01
)");
}

}  // namespace

TEST_CASE(
    "FA-17: EndObject before PtrToObjEnd's target skips to it; at the target it ends the object") {
  auto b = build_shape(skip_protocol_text());
  WalkResult walk = walk_shape(b.shape);
  CHECK(walk.diagnostics.empty());
  CHECK(item_kinds(walk) == std::vector<std::string>{"header@0+14", "PtrToObjEnd@14+4", "Jump@18+4",
                                                     "skipped@22+5", "EndObject@27+1",
                                                     "trailer@28+5"});
  REQUIRE(walk.obj_end_offset);
  CHECK(*walk.obj_end_offset == 27);
}

TEST_CASE("FA-17: without PtrToObjEnd the first EndObject ends the object") {
  auto b = build_shape(with_header("ShortEOF\n EndObject\n .db 82 00 ff\n"));
  WalkResult walk = walk_shape(b.shape);
  CHECK(walk.diagnostics.empty());
  CHECK(item_kinds(walk) ==
        std::vector<std::string>{"header@0+14", "ShortEOF@14+1", "EndObject@15+1", "trailer@16+3"});
}

TEST_CASE("FA-12: info reports which PtrToObjEnd reading lands on an EndObject") {
  // The seed's reading (absolute) names the EndObject; OpenFA's relative reading would land
  // 18 bytes later for a PtrToObjEnd at 0x0E.
  auto b =
      build_shape(with_header("PtrToObjEnd @end\n ShortEOF\nend:\n EndObject\n .db 01 02 03 02 01 "
                              "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"));
  WalkResult walk = walk_shape(b.shape);
  auto reports = obj_end_reports(b.shape, walk);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].absolute_target == 19);
  CHECK(reports[0].relative_target == 19 + 18);
  CHECK(reports[0].absolute_on_end_object);
  // Read relatively, the same operand points into the trailer, and the walker follows that choice.
  WalkResult rel = walk_shape(b.shape, {ObjEndReading::kRelative});
  REQUIRE(rel.obj_end_offset);
  CHECK(*rel.obj_end_offset == 37);
  // EndObject at 19 is before 37, so under that reading it opens a skipped region.
  CHECK(item_kinds(rel)[3] == "skipped@19+18");
}

TEST_CASE("info: instructions counted per mnemonic, in name order, in text and JSON") {
  auto b = build_shape(with_header("PtrToObjEnd @end\n ShortEOF\nend:\n EndObject\n"));
  WalkResult walk = walk_shape(b.shape);
  const ShapeInfo info = analyze_shape(b.shape, walk);
  REQUIRE(info.opcode_counts.size() == 3);
  CHECK(info.opcode_counts[0].mnemonic == "EndObject");
  CHECK(info.opcode_counts[1].mnemonic == "PtrToObjEnd");
  CHECK(info.opcode_counts[2].mnemonic == "ShortEOF");
  CHECK(info.count_of("EndObject") == 1);
  CHECK(info.count_of("ShortEOF") == 1);
  CHECK(info.count_of("Face") == 0);
  CHECK(info.count_of("") == 0);
  CHECK(info.count_of("ZZZ") == 0);
  const std::string text = shape_info_text(b.shape, walk, info);
  CHECK(text.find("by opcode          EndObject 1, PtrToObjEnd 1, ShortEOF 1\n") !=
        std::string::npos);
  const auto json = shape_info_json(b.shape, walk, info);
  CHECK(json["opcodes"] == nlohmann::json{{"EndObject", 1}, {"PtrToObjEnd", 1}, {"ShortEOF", 1}});
}

namespace {

// Two x86 blocks, each region ending at a relocation target (the Unmask after the first, the
// ShortEOF after the second), then two trampolines.
std::string two_x86_regions_text() {
  return with_header(R"(
    X86Code
    x86 66 83 3d {_PLgearDown} 01
    x86 75 11
    x86 68 {arm} 68 {do_start_interp} c3
arm:
    Unmask @frag
    X86Code
    x86 68 {join} 68 {do_start_interp} c3
join:
    ShortEOF
frag:
    ShortEOF
    EndObject
    .stub _PLgearDown
    .stub do_start_interp
)",
                     ".import _PLgearDown\n.import do_start_interp\n");
}

}  // namespace

TEST_CASE("FA-18/FA-21: an x86 region runs from after F0 00 to the next relocation target") {
  auto b = build_shape(two_x86_regions_text());
  WalkResult walk = walk_shape(b.shape);
  CHECK(walk.diagnostics.empty());
  CHECK(item_kinds(walk) == std::vector<std::string>{"header@0+14", "X86Code@14+2", "x86@16+21",
                                                     "Unmask@37+4", "X86Code@41+2", "x86@43+11",
                                                     "ShortEOF@54+1", "ShortEOF@55+1",
                                                     "EndObject@56+1", "stub@57+6", "stub@63+6"});
  CHECK(walk.reloc_targets == std::vector<uint32_t>{37, 54});
  ShapeInfo info = analyze_shape(b.shape, walk);
  CHECK(info.x86_blocks == 2);
  CHECK(info.x86_bytes == 32);
}

TEST_CASE("FA-35: in a run of ShortEOF only the first executes; the rest are marked alignment") {
  auto b = build_shape(with_header("ShortEOF\n ShortEOF\n ShortEOF\n EndShape\n"));
  WalkResult walk = walk_shape(b.shape);
  REQUIRE(walk.items.size() == 5);
  CHECK_FALSE(walk.items[1].alignment);
  CHECK(walk.items[2].alignment);
  CHECK(walk.items[3].alignment);
}

TEST_CASE("walker: an unknown opcode or a truncated instruction is an error with its offset") {
  auto b = build_shape(with_header(".db 02 00 00\n ShortEOF\n"));
  WalkResult walk = walk_shape(b.shape);
  REQUIRE(walk.has_errors());
  CHECK(walk.diagnostics[0].offset == 14);
  CHECK(walk.diagnostics[0].message.find("0x02") != std::string::npos);
  CHECK(item_kinds(walk).back() == "undecodable@14+4");

  auto t = build_shape(with_header(".db 82 00 05 00 00 00 01 02\n"));
  WalkResult tw = walk_shape(t.shape);
  REQUIRE(tw.has_errors());
  CHECK(tw.diagnostics[0].message.find("VertexBuffer") != std::string::npos);
}

namespace {

// One item a line: kind, opcode, offset, size.
std::string item_line(ItemKind kind, uint8_t op, uint32_t offset, uint32_t size) {
  return std::to_string(static_cast<int>(kind)) + " " + std::to_string(op) + " " +
         std::to_string(offset) + "+" + std::to_string(size) + "\n";
}
std::string outline_text(const std::vector<OutlineItem>& items) {
  std::string out;
  for (const auto& item : items) out += item_line(item.kind, item.op, item.offset, item.size);
  return out;
}
std::string walk_text(const WalkResult& walk) {
  std::string out;
  for (const auto& item : walk.items)
    out += item_line(item.kind, item.kind == ItemKind::kInstruction ? item.insn->op : 0,
                     item.offset, item.size);
  return out;
}

// walk_outline, and outline_of the whole walk, against the whole walk's items, under both
// readings of PtrToObjEnd; returns how many items the absolute reading has.
size_t check_outline(const Shape& shape) {
  size_t items = 0;
  for (const auto reading : {ObjEndReading::kAbsolute, ObjEndReading::kRelative}) {
    const WalkOptions options{reading};
    const WalkResult whole = walk_shape(shape, options);
    const std::string expected = walk_text(whole);
    CHECK(outline_text(walk_outline(shape, options)) == expected);
    CHECK(outline_text(outline_of(whole)) == expected);
    if (reading == ObjEndReading::kAbsolute) items = whole.items.size();
  }
  return items;
}

}  // namespace

TEST_CASE("the walk's outline lists the whole walk's items: kinds, opcodes and extents") {
  SUBCASE("the skip protocol, x86 regions and ShortEOF runs (FA-17, FA-18, FA-35)") {
    CHECK(check_outline(build_shape(skip_protocol_text()).shape) == 6);
    CHECK(check_outline(
              build_shape(with_header("ShortEOF\n ShortEOF\n ShortEOF\n EndShape\n")).shape) == 5);
    CHECK(check_outline(build_shape(two_x86_regions_text()).shape) == 11);
  }
  SUBCASE("what does not decode: an unknown opcode, a truncation, an overrun of the trampolines") {
    CHECK(check_outline(build_shape(with_header(".db 02 00 00\n ShortEOF\n")).shape) == 2);
    CHECK(check_outline(build_shape(with_header(".db 82 00 05 00 00 00 01 02\n")).shape) == 2);
    const BuiltShape overrun = build_shape(
        with_header(".db 82 00 01 00 00 00 01 00\n .stub _PLgearDown\n", ".import _PLgearDown\n"));
    const WalkResult overrun_walk = walk_shape(overrun.shape);
    REQUIRE(overrun_walk.has_errors());
    CHECK(overrun_walk.diagnostics[0].message.find("before the trampolines") != std::string::npos);
    CHECK(check_outline(overrun.shape) == 3);
  }
  SUBCASE("the generated corpus, stress profile (x86 guards, LODs, frames, planes)") {
    size_t items = 0;
    for (uint32_t i = 0; i < 200; ++i)
      items += check_outline(build_shape(generate_fa_shape(3, i, GeneratorProfile::kStress)).shape);
    CHECK(items > 10000);
  }
}

TEST_CASE(
    "info: counts vertex buffers, faces, textures, frames, LODs, detail, damage (FA-50 levels)") {
  auto b = build_shape(with_header(R"(
    TextureFile "_T.PIC"
    JumpToDetail @low threshold=2
    JumpToLOD @l1 size=50 threshold=40
    VertexBuffer at=0
        v 0, 0, 0
        v 1, 0, 0
        v 0, 1, 0
    Face content=0x04 layout=0x01 color=1 shadow=0 idx=0,1,2 uv=0,0,1,0,0,1
    JumpToFrame @f0, @f1, @f0
f0:
    Jump @l1
f1:
l1:
    JumpToLOD @low size=50 threshold=10
    JumpToLOD @low size=50 threshold=40
low:
    JumpToDamage @end
    Face content=0x00 layout=0x00 color=1 shadow=0 idx=0,1,2
end:
    EndShape
)"));
  WalkResult walk = walk_shape(b.shape);
  ShapeInfo info = analyze_shape(b.shape, walk);
  CHECK(info.vertex_buffers == 1);
  CHECK(info.vertices == 3);
  CHECK(info.faces == 2);
  CHECK(info.textured_faces == 1);
  CHECK(info.textures == std::vector<std::string>{"_T.PIC"});
  CHECK(info.max_frames == 3);
  CHECK(info.lod_sites == 3);
  CHECK(info.lod_levels() == 3);  // distinct thresholds 40 and 10, plus one
  CHECK(info.detail_sites == 1);
  CHECK(info.damage_branches == 1);
}

}  // namespace fa_walker_tests
