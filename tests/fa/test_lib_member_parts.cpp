// A member of an FA EALIB opened from the parts of the file it needs (the directory with its
// terminator, the member's stored bytes) gives what the whole file gives: the same info, listing,
// run and frame, the same refusals; the other members are never read.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/partial_file.h"
#include "interp/common/registry.h"
#include "interp/fa/assembler.h"
#include "interp/fa/ealib.h"
#include "interp/fa/generator.h"
#include "tests/fa/lib_builder.h"
#include "tests/support/member_parts.h"
#include "tests/tools/run_cli.h"

namespace fa_lib_member_parts_tests {

namespace {

using shapevm::write_file_atomic;
using shapevm::testing::never_loaded;
using shapevm::testing::opened_whole;
using shapevm::testing::opens_alike;

// `count` generated shapes, every third stored and the others DCL-compressed.
std::vector<shapevm::test::LibMemberSpec> generated_members(uint32_t count) {
  std::vector<shapevm::test::LibMemberSpec> members;
  for (uint32_t i = 0; i < count; ++i) {
    const auto shape =
        shapevm::fa::assemble_fa(shapevm::fa::generate_fa_shape(11, i), "gen.fas").file;
    const std::string name = shapevm::fa::generated_shape_stem(i) + ".SH";
    if (i % 3 == 0)
      members.push_back({name, 0, shape});
    else
      members.push_back({name, 4, shapevm::test::dcl_member_payload(shape)});
  }
  return members;
}

}  // namespace

TEST_CASE("an EALIB member read in part opens, runs and draws as from the whole file") {
  ScratchDir dir;
  auto members = generated_members(16);
  members.push_back({"LZSS.SH", 1, {1, 2, 3, 4, 5}});  // listed, never decoded
  const auto lib = shapevm::test::build_ealib(members);
  const std::string path = (dir / "FA_2.LIB").string();
  write_file_atomic(path, lib);

  std::vector<std::string> names;
  for (uint32_t i = 0; i < 16; ++i) names.push_back("#" + std::to_string(i));
  names.push_back("gen00007.sh");  // by name, case aside
  names.push_back("LZSS.SH");      // refused by its flags
  names.push_back("#17");          // past the directory
  names.push_back("NONE.SH");
  for (const std::string& member : names) {
    CAPTURE(member);
    CHECK(opens_alike(path, member));
  }
  CHECK(opened_whole(path + ":LZSS.SH").find("LZSS") != std::string::npos);

  // What was read: the directory and its terminator, and the member; nothing of the others.
  const shapevm::fa::EaLib whole(lib, path);
  const auto& entries = whole.entries();
  shapevm::PartialFile file(path);
  REQUIRE(shapevm::engine_named("fa").load_member_parts(file, "GEN00010.SH"));
  CHECK(file.loaded_bytes() == 7 + 18 * (entries.size() + 1) + entries[9].stored_size);
  const auto bytes = file.bytes();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == 9) continue;
    CAPTURE(i);
    CHECK(never_loaded(bytes, entries[i].offset, entries[i].stored_size));
  }
}

TEST_CASE("an EALIB whose directory does not hold is read whole, with its refusal") {
  ScratchDir dir;
  const auto lib = shapevm::test::build_ealib(generated_members(6));
  struct Case {
    const char* what;
    size_t at;
    uint32_t value;  // little-endian u32 written at `at`
    bool in_part;
  };
  const Case cases[] = {
      {"a member before the directory ends", shapevm::test::ealib_offset_field_at(2), 9, false},
      {"a member past the end", shapevm::test::ealib_offset_field_at(4), 0x7FFFFFFF, false},
      {"the terminator's offset wrong", shapevm::test::ealib_offset_field_at(6), 12345, false},
      {"a count past the file", 5, 0xFFFF, false},  // a u16; the u32 also changes entry 0's name
      {"the magic", 0, 0x4C414545, false},          // "EEAL"
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    auto bad = lib;
    for (size_t i = 0; i < 4; ++i) bad.at(c.at + i) = static_cast<uint8_t>(c.value >> (8 * i));
    const std::string path = (dir / "bad.LIB").string();
    write_file_atomic(path, bad);
    for (const std::string member : {"#0", "#3", "GEN00006.SH"}) {
      CAPTURE(member);
      CHECK(opens_alike(path, member) == c.in_part);
    }
  }
}

}  // namespace fa_lib_member_parts_tests
