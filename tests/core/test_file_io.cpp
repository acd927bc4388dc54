// read_file: a whole file's bytes, and a precise refusal of anything that is not a readable
// regular file (a missing path, a folder, a FIFO, a path through a file).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "tests/tools/run_cli.h"

namespace {

void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::string refusal(const std::filesystem::path& path) {
  try {
    (void)shapevm::read_file(path);
  } catch (const shapevm::InputError& e) {
    return e.what();
  }
  return "(read)";
}

}  // namespace

TEST_CASE("read_file returns every byte of a file, empty and large alike") {
  const ScratchDir dir;
  std::vector<uint8_t> large(300000);
  for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<uint8_t>(i * 7 + i / 251);
  write_bytes(dir / "large.bin", large);
  write_bytes(dir / "empty.bin", {});
  write_bytes(dir / "zeros.bin", std::vector<uint8_t>(17, 0));
  CHECK(shapevm::read_file(dir / "large.bin") == large);
  CHECK(shapevm::read_file(dir / "empty.bin").empty());
  CHECK(shapevm::read_file(dir / "zeros.bin") == std::vector<uint8_t>(17, 0));
}

TEST_CASE("read_file names the path and refuses what is not a regular file") {
  const ScratchDir dir;
  write_bytes(dir / "plain.bin", {1, 2, 3});
  REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
  for (const std::filesystem::path& path :
       {dir / "absent.SH", dir.path(), dir / "pipe", dir / "plain.bin" / "inside.SH"}) {
    CAPTURE(path);
    // A FIFO with no writer is refused at once: opening it must not wait for one.
    const std::string what = refusal(path);
    CHECK(what.find(path.string()) != std::string::npos);
    CHECK(what.find("no such file (or not a regular file)") != std::string::npos);
  }
}
