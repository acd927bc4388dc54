// read_file: a whole file's bytes, and a precise refusal of anything that is not a readable
// regular file (a missing path, a folder, a FIFO, a path through a file). read_file_shared: the
// same, sharing a read that is still held while the file is unchanged.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "tests/tools/run_cli.h"

namespace core_file_io_tests {

namespace {

void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::string refusal(const std::filesystem::path& path, bool shared = false) {
  try {
    if (shared)
      (void)shapevm::read_file_shared(path);
    else
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
  CHECK(shapevm::read_file_shared(dir / "large.bin") == large);
  CHECK(shapevm::read_file_shared(dir / "empty.bin").empty());
  CHECK(shapevm::read_file_shared(dir / "zeros.bin") == std::vector<uint8_t>(17, 0));
}

TEST_CASE("read_file names the path and refuses what is not a regular file") {
  const ScratchDir dir;
  write_bytes(dir / "plain.bin", {1, 2, 3});
  REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
  for (const std::filesystem::path& path :
       {dir / "absent.SH", dir.path(), dir / "pipe", dir / "plain.bin" / "inside.SH"}) {
    CAPTURE(path);
    // A FIFO with no writer is refused at once: opening it must not wait for one.
    for (const bool shared : {false, true}) {
      const std::string what = refusal(path, shared);
      CHECK(what.find(path.string()) != std::string::npos);
      CHECK(what.find("no such file (or not a regular file)") != std::string::npos);
    }
  }
}

TEST_CASE("read_file_shared gives a held read's bytes again only while the file is unchanged") {
  const ScratchDir dir;
  const auto path = dir / "CONTAINER.BIN";
  const std::vector<uint8_t> first(5000, 0x11), second(5000, 0x22), third(5000, 0x33);
  write_bytes(path, first);
  const shapevm::SharedBytes held = shapevm::read_file_shared(path);
  CHECK(held == first);
  // Held and unchanged: the same storage, not a second read.
  const shapevm::SharedBytes again = shapevm::read_file_shared(path);
  CHECK(again.same_storage(held));
  CHECK(shapevm::read_file_shared(dir.path() / "." / "CONTAINER.BIN") == first);

  // Replaced (a new file renamed over it): read afresh; the holders keep what they read.
  shapevm::write_file_atomic(path, second);
  const shapevm::SharedBytes replaced = shapevm::read_file_shared(path);
  CHECK(replaced == second);
  CHECK_FALSE(replaced.same_storage(held));
  CHECK(held == first);

  // Rewritten in place, the same size, its modification time moved on: read afresh too.
  write_bytes(path, third);
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
  const shapevm::SharedBytes rewritten = shapevm::read_file_shared(path);
  CHECK(rewritten == third);
  CHECK_FALSE(rewritten.same_storage(replaced));
  // A different size is seen even within one tick of the file system's clock.
  write_bytes(path, std::vector<uint8_t>(4999, 0x44));
  CHECK(shapevm::read_file_shared(path) == std::vector<uint8_t>(4999, 0x44));
}

}  // namespace core_file_io_tests
