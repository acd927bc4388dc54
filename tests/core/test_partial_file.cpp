// PartialFile: a file read only in the parts asked for, each at its offset, the rest zero; the
// parts counted once however they overlap; a file shortened after it was opened refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/partial_file.h"
#include "tests/tools/run_cli.h"

namespace core_partial_file_tests {

namespace {

// Bytes that differ from their neighbours and are never zero, so a part left unread shows.
std::vector<uint8_t> pattern(size_t size) {
  std::vector<uint8_t> out(size);
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(1 + (i * 7 + i / 251) % 255);
  return out;
}

// Each byte of `file`'s view: the file's where [begin, end) of one of `parts`, zero elsewhere.
void check_parts(const shapevm::PartialFile& file, const std::vector<uint8_t>& whole,
                 const std::vector<std::pair<uint64_t, uint64_t>>& parts) {
  const auto bytes = file.bytes();
  REQUIRE(bytes.size() == whole.size());
  size_t wrong = 0;
  for (size_t i = 0; i < whole.size(); ++i) {
    bool inside = false;
    for (const auto& [begin, end] : parts) inside = inside || (i >= begin && i < end);
    if (bytes[i] != (inside ? whole[i] : 0)) ++wrong;
  }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("a partial file holds the parts loaded at their offsets and zeros elsewhere") {
  ScratchDir dir;
  const auto whole = pattern(300'000);
  shapevm::write_file_atomic(dir / "big.bin", whole);
  shapevm::PartialFile file(dir / "big.bin");
  CHECK(file.size() == whole.size());
  CHECK(file.loaded_bytes() == 0);
  check_parts(file, whole, {});

  file.load(100, 50);
  file.load(70'000, 10'000);
  check_parts(file, whole, {{100, 150}, {70'000, 80'000}});
  CHECK(file.loaded_bytes() == 10'050);

  // Overlapping, touching and enclosing loads read only what is missing and count once.
  file.load(120, 100);        // overlaps the first part's end
  file.load(220, 30);         // touches it
  file.load(69'000, 20'000);  // encloses the second
  file.load(75'000, 5);       // inside a part already loaded
  check_parts(file, whole, {{100, 250}, {69'000, 89'000}});
  CHECK(file.loaded_bytes() == 150 + 20'000);
  // One load spanning a gap between two parts joins them.
  file.load(200, 70'000);
  check_parts(file, whole, {{100, 89'000}});
  CHECK(file.loaded_bytes() == 88'900);

  // Past the end: only what the file has; at or beyond it, nothing.
  file.load(299'990, 100);
  file.load(300'000, 10);
  file.load(UINT64_MAX - 5, 100);
  check_parts(file, whole, {{100, 89'000}, {299'990, 300'000}});
  CHECK(file.loaded_bytes() == 88'910);

  // The shared view outlives the PartialFile that read it.
  shapevm::SharedBytes held;
  {
    shapevm::PartialFile other(dir / "big.bin");
    other.load(5, 3);
    held = other.shared();
  }
  REQUIRE(held.size() == whole.size());
  CHECK(held[4] == 0);
  CHECK(held[5] == whole[5]);
  CHECK(held[7] == whole[7]);
  CHECK(held[8] == 0);
}

TEST_CASE("a partial file refuses what read_file refuses, and a file shortened since it opened") {
  ScratchDir dir;
  CHECK_THROWS_WITH_AS(shapevm::PartialFile(dir / "missing.bin"), doctest::Contains("no such file"),
                       shapevm::InputError);
  CHECK_THROWS_WITH_AS(shapevm::PartialFile(dir.path()), doctest::Contains("no such file"),
                       shapevm::InputError);

  const auto whole = pattern(10'000);
  shapevm::write_file_atomic(dir / "shrinks.bin", whole);
  shapevm::PartialFile file(dir / "shrinks.bin");
  file.load(0, 100);
  std::filesystem::resize_file(dir / "shrinks.bin", 5'000);
  CHECK_THROWS_WITH_AS(file.load(4'000, 2'000),
                       doctest::Contains("the file ended at byte 5000 of the 10000"),
                       shapevm::InputError);
  // An empty file has a view of no bytes.
  shapevm::write_file_atomic(dir / "empty.bin", std::vector<uint8_t>{});
  shapevm::PartialFile empty(dir / "empty.bin");
  empty.load(0, 10);
  CHECK(empty.bytes().empty());
  CHECK(empty.loaded_bytes() == 0);
}

}  // namespace core_partial_file_tests
