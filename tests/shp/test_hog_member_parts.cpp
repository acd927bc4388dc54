// A member of a Starlancer HOG opened from the parts of the file it needs (the header and
// directory, the members recognition probes, the member itself) gives what the whole file gives:
// the same info, listing, run and frame, the same refusals; the rest of the file is never read.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/partial_file.h"
#include "harness/program_frame.h"
#include "interp/common/registry.h"
#include "interp/shp/generator.h"
#include "interp/shp/hog.h"
#include "raster/png_io.h"
#include "tests/support/member_parts.h"
#include "tests/support/program_helpers.h"
#include "tests/tools/run_cli.h"

namespace shp_hog_member_parts_tests {

namespace {

using shapevm::EngineInput;
using shapevm::write_file_atomic;
using shapevm::testing::never_loaded;
using shapevm::testing::opened;
using shapevm::testing::opened_whole;
using shapevm::testing::opens_alike;

// The big-endian u32 of a HOG's header and directory.
void put_be32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) bytes.at(at + i) = static_cast<uint8_t>(v >> (24 - 8 * i));
}

}  // namespace

TEST_CASE("SL-01, SL-02: a HOG member read in part opens, runs and draws as from the whole file") {
  ScratchDir dir;
  const auto hog = shapevm::shp::generate_resource_hog(5, 24);
  const std::string path = (dir / "resource.hog").string();
  write_file_atomic(path, hog);
  const shapevm::shp::Hog directory = shapevm::shp::read_hog(hog, path);
  REQUIRE(directory.entries.size() == 24);

  std::vector<std::string> members;
  for (const auto& e : directory.entries) members.push_back("#" + std::to_string(e.index));
  members.push_back(directory.entries[20].name);  // by name
  std::string upper = directory.entries[21].name;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  members.push_back(upper);       // by name, case aside
  members.push_back("#24");       // past the directory
  members.push_back("none.shp");  // no such name
  size_t partial_reads = 0;
  for (const std::string& member : members) {
    CAPTURE(member);
    partial_reads += opens_alike(path, member) ? 1 : 0;
  }
  // Every member was read in part, the missing ones too (the directory tells they are missing).
  CHECK(partial_reads == members.size());
  CHECK(opened_whole(path + ":#24").find("no member named #24") != std::string::npos);

  // What was read: the directory, the start of the first member (recognition probes members up
  // to the first that is a model, and of a RefPack one reads the commands that give its first
  // chunk header: its first 4 KiB hold them) and the member; nothing of the others.
  shapevm::PartialFile file(path);
  REQUIRE(shapevm::engine_named("shp").load_member_parts(file, "#17"));
  const shapevm::shp::HogEntry& first = directory.entries[0];
  REQUIRE(first.size > 8192);
  CHECK(file.loaded_bytes() == directory.data_offset + 4096 + directory.entries[17].size);
  const auto bytes = file.bytes();
  CHECK(never_loaded(bytes, first.offset + 4096, first.size - 4096));
  for (const auto& e : directory.entries) {
    if (e.index == 0 || e.index == 17) continue;
    CAPTURE(e.index);
    CHECK(never_loaded(bytes, e.offset, e.size));
  }
}

TEST_CASE("SL-01: a HOG whose directory or probes do not hold is read whole, with its refusal") {
  ScratchDir dir;
  const auto hog = shapevm::shp::generate_resource_hog(6, 12);
  const shapevm::shp::Hog directory = shapevm::shp::read_hog(hog, "resource.hog");
  struct Case {
    const char* what;
    size_t at;
    uint32_t value;                    // big-endian u32 written at `at`
    std::vector<std::string> in_part;  // the members of #1, #5, #10 still read in part
  };
  const std::vector<std::string> all = {"#1", "#5", "#10"}, none;
  const Case cases[] = {
      {"the data offset beyond the file", 12, 0x7FFFFFF0u, none},
      {"the data offset before the directory ends", 12, 20, none},
      {"a count whose directory cannot fit", 8, 0x01000000u, none},
      {"entry 3 outside the file", 0x10, 0, all},  // offset of entry 3 set below
      {"the archive size wrong", 4, 1234, all},
      {"no probed member a model", 0, 0, none},  // every probed member's bytes spoiled below
      {"the first two members no models", 0, 0, all},
      // RefPack streams whose first commands give a model's first chunk header but which do not
      // decompress whole: recognition reads only those commands, so the file still holds models
      // (read in part as whole); #1 itself is refused when opened, alike either way.
      {"the first two members' streams broken", 0, 0, all},
      // Streams broken in their first command: no model there, the probes go on to the third.
      {"the first two members' first commands broken", 0, 0, all},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    auto bad = hog;
    if (std::string(c.what) == "entry 3 outside the file") {
      put_be32(bad, directory.entries[3].entry_offset, 0xFFFFFF00u);
    } else if (std::string(c.what) == "no probed member a model") {
      for (size_t i = 0; i < 8; ++i) bad[directory.entries[i].offset] ^= 0x5A;
    } else if (std::string(c.what) == "the first two members no models") {
      for (size_t i = 0; i < 2; ++i) bad[directory.entries[i].offset] ^= 0x5A;
    } else if (std::string(c.what) == "the first two members' streams broken") {
      // 10 FB kept; the declared output 64 KiB longer than the commands give.
      for (size_t i = 0; i < 2; ++i) bad[directory.entries[i].offset + 2] ^= 0x01;
    } else if (std::string(c.what) == "the first two members' first commands broken") {
      // 10 FB and the size kept; the first command copies from before the output's start.
      for (size_t i = 0; i < 2; ++i) {
        bad[directory.entries[i].offset + 5] = 0x00;
        bad[directory.entries[i].offset + 6] = 0x10;
      }
    } else {
      put_be32(bad, c.at, c.value);
    }
    const std::string path = (dir / "bad.hog").string();
    write_file_atomic(path, bad);
    for (const std::string member : {"#1", "#5", "#10"}) {
      CAPTURE(member);
      CHECK(opens_alike(path, member) ==
            (std::find(c.in_part.begin(), c.in_part.end(), member) != c.in_part.end()));
    }
  }
}

TEST_CASE("a HOG member is read in part only where no whole read is held, and only when large") {
  ScratchDir dir;
  const std::string path = (dir / "resource.hog").string();
  write_file_atomic(path, shapevm::shp::generate_resource_hog(7, 10));
  const std::string spec = path + ":#2";
  {
    const shapevm::SharedBytes held = shapevm::read_file_shared(path);
    CHECK(shapevm::read_program_input(spec, "", 0).bytes.same_storage(held));
  }
  // Smaller than the threshold: the whole file, as read_input reads it.
  const EngineInput small = shapevm::read_program_input(spec, "", uint64_t{1} << 40);
  CHECK(small.bytes == shapevm::read_file(path));
  // --engine naming another engine: the whole file, which that engine refuses as it did.
  const EngineInput forced = shapevm::read_program_input(spec, "fa", 0);
  CHECK(forced.bytes == shapevm::read_file(path));
  // A plain file argument is never read in part.
  CHECK(shapevm::read_program_input(path, "", 0).bytes == shapevm::read_file(path));
}

TEST_CASE("a process opens the first member of a file in part and reads it whole for the next") {
  ScratchDir dir;
  const std::string path = (dir / "resource.hog").string();
  write_file_atomic(path, shapevm::shp::generate_resource_hog(9, 40));
  REQUIRE(std::filesystem::file_size(path) >= shapevm::kPartialReadMinimum);
  auto first = shapevm::open_program(path + ":#3", {});
  CHECK_FALSE(shapevm::held_file_read(path).has_value());  // read in part: no whole read
  auto second = shapevm::open_program(path + ":#4", {});
  // Read whole, and held (by the registry's memory of what it recognised) for the members after.
  const auto held = shapevm::held_file_read(path);
  REQUIRE(held.has_value());
  CHECK(held->size() == std::filesystem::file_size(path));
  CHECK(first->info_text() != second->info_text());
  auto third = shapevm::open_program(path + ":#5", {});
  CHECK(shapevm::held_file_read(path)->same_storage(*held));
}

TEST_CASE("render of a member of a large HOG draws what the whole file draws") {
  ScratchDir dir;
  const auto hog = shapevm::shp::generate_resource_hog(8, 40);
  REQUIRE(hog.size() >= shapevm::kPartialReadMinimum);  // the command reads it in part
  write_file_atomic(dir / "resource.hog", hog);
  const std::string spec = (dir / "resource.hog").string() + ":#33";
  const auto png = dir / "member.png";
  const CliResult r = run_cli("render " + shell_quote(spec) + " -o " + shell_quote(png.string()));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const EngineInput whole = shapevm::read_input(spec);
  auto program = shapevm::engine_for(whole).open(whole, {});
  const auto expected =
      shapevm::harness::render_program(*program, {}, program->example_background());
  const auto drawn = shapevm::raster::read_png(png.string());
  CHECK(drawn.frame.pixels().size() == expected.frame.pixels().size());
  CHECK(std::equal(drawn.frame.pixels().begin(), drawn.frame.pixels().end(),
                   expected.frame.pixels().begin(), expected.frame.pixels().end()));
  CHECK(expected.outcome.faces > 0);
}

}  // namespace shp_hog_member_parts_tests
