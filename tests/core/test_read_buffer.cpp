// allocate_read_buffer: large whole-file reads go into 2 MiB-aligned memory advised for huge
// pages, and read_file_shared hands such a read out, shared, exactly as it does a small one.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/read_buffer.h"
#include "tests/tools/run_cli.h"

namespace core_read_buffer_tests {

namespace {

bool huge_page_aligned(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % shapevm::core::kHugePageSize == 0;
}

// The VmFlags line of the mapping holding `p` in /proc/self/smaps ("" when none is found).
std::string vm_flags_of(const void* p) {
  const auto address = reinterpret_cast<uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' &&
        line.find(':') > line.find(' ')) {
      inside = begin <= address && address < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// Whether this kernel offers transparent huge pages to a process that asks (not "[never]").
bool kernel_offers_huge_pages() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string setting;
  std::getline(enabled, setting);
  return !setting.empty() && setting.find("[never]") == std::string::npos;
}

}  // namespace

TEST_CASE("a large read buffer is 2 MiB-aligned and advised for huge pages; a small one is not") {
  using shapevm::core::allocate_read_buffer;
  using shapevm::core::kHugePageReadMinimum;
  const auto large = allocate_read_buffer(kHugePageReadMinimum + 3);
  REQUIRE(large);
  CHECK(huge_page_aligned(large.get()));
  // Every byte asked for is writable (ASan reports a write past the block).
  large[0] = 1;
  large[kHugePageReadMinimum + 2] = 2;
  if (kernel_offers_huge_pages()) {
    const std::string flags = vm_flags_of(large.get());
    CAPTURE(flags);
    CHECK(flags.find(" hg") != std::string::npos);
  }
  // Below the minimum: ordinary memory, and an empty file still gets a buffer.
  CHECK(allocate_read_buffer(kHugePageReadMinimum - 1));
  CHECK(allocate_read_buffer(0));
}

TEST_CASE("read_file_shared reads a file past the huge-page minimum byte for byte and shares it") {
  const ScratchDir dir;
  const auto path = dir / "resource.hog";
  std::vector<uint8_t> bytes(shapevm::core::kHugePageReadMinimum + shapevm::core::kHugePageSize +
                             12345);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 131 + (i >> 12));
  shapevm::write_file_atomic(path, bytes);
  const shapevm::SharedBytes first = shapevm::read_file_shared(path);
  CHECK(first == bytes);
  CHECK(huge_page_aligned(first.data()));
  // Held and unchanged: the same storage, as for a small file.
  const shapevm::SharedBytes again = shapevm::read_file_shared(path);
  CHECK(again.same_storage(first));
  CHECK(shapevm::read_file(path) == bytes);
}

}  // namespace core_read_buffer_tests
