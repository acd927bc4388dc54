// Start-up cost: Unicorn, Capstone, SDL2 (with its window-system and audio libraries) and libedit
// are opened when a run first needs them, never when shapevm starts. Checked on the real executable
// through the dynamic loader's own report (LD_DEBUG=files lists every object it loads, and why).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/shared_library.h"
#include "interp/shp/generator.h"
#include "tests/tools/run_cli.h"

namespace tools_startup_libraries_tests {

namespace {

const std::string kHangar = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/hangar.SH";  // no embedded x86
const std::string kJet = SHAPEVM_EXAMPLES_BUILD_DIR "/fa/jet.SH";        // x86 articulations

// One shapevm run with the loader's report of every object it loads on stderr.
CliResult loader_report(const std::string& args) {
  return run_command("LD_DEBUG=files " + shell_quote(SHAPEVM_EXE) + " " + args);
}

bool loaded(const CliResult& r, const std::string& soname_stem) {
  return r.err.find("file=" + soname_stem) != std::string::npos;
}

}  // namespace

TEST_CASE("start-up loads none of Unicorn, Capstone, SDL2 and libedit") {
  const ScratchDir dir;
  for (const std::string& args :
       std::vector<std::string>{"--version", "info " + shell_quote(kHangar),
                                "render " + shell_quote(kHangar) + " -o " +
                                    shell_quote((dir / "hangar.png").string())}) {
    CAPTURE(args);
    const CliResult r = loader_report(args);
    REQUIRE(r.exit_code == 0);
    // The report is real: it lists the C library the program needs.
    REQUIRE(loaded(r, "libc.so"));
    CHECK_FALSE(loaded(r, "libunicorn"));
    CHECK_FALSE(loaded(r, "libcapstone"));
    CHECK_FALSE(loaded(r, "libSDL2"));
    CHECK_FALSE(loaded(r, "libedit"));
  }
}

TEST_CASE("a shape with embedded x86 loads Unicorn when it runs, and Capstone when disassembled") {
  const ScratchDir dir;
  const CliResult run = loader_report("render " + shell_quote(kJet) + " -o " +
                                      shell_quote((dir / "jet.png").string()));
  REQUIRE(run.exit_code == 0);
#if SHAPEVM_UNICORN_LINKED
  // Linked into the program (cmake/static_runtime.cmake): never opened as a shared library, and
  // the jet's x86 still runs: its trace reports the instructions Unicorn executed.
  CHECK_FALSE(loaded(run, "libunicorn"));
  const CliResult traced = loader_report("trace " + shell_quote(kJet) + " --x86-trace");
  REQUIRE(traced.exit_code == 0);
  CHECK_FALSE(loaded(traced, "libunicorn"));
  CHECK(traced.out.find("x86_insn") != std::string::npos);
#else
  CHECK(loaded(run, "libunicorn.so"));
  CHECK(run.err.find("dynamically loaded by") != std::string::npos);
#endif
  CHECK_FALSE(loaded(run, "libSDL2"));

  const CliResult listing = loader_report("disasm " + shell_quote(kJet));
  REQUIRE(listing.exit_code == 0);
#if SHAPEVM_CAPSTONE_LINKED
  // Linked into the program (cmake/static_runtime.cmake): never opened as a shared library.
  CHECK_FALSE(loaded(listing, "libcapstone"));
#else
  CHECK(loaded(listing, "libcapstone.so"));
#endif
  CHECK(listing.out.find("; 020e: cmp word ptr [_PLgearDown], 1") != std::string::npos);
}

TEST_CASE("a library that cannot be loaded is named, with the purpose it was wanted for") {
  try {
    shapevm::core::SharedLibrary::open({"libshapevm-absent.so.7", "libshapevm-absent.so"},
                                       "testing the loader");
    FAIL("an absent library loaded");
  } catch (const shapevm::InputError& e) {  // exit 2: the machine lacks it, not a bug
    const std::string what = e.what();
    CHECK(what.find("testing the loader") != std::string::npos);
    CHECK(what.find("libshapevm-absent.so.7") != std::string::npos);
    CHECK(what.find("libshapevm-absent.so:") != std::string::npos);  // each soname tried
  }
  const auto libc = shapevm::core::SharedLibrary::open({"libc.so.6"}, "testing the loader");
  // Called rather than compared with &abs: under AddressSanitizer our own symbols may be its
  // interceptors, not the C library's.
  CHECK(libc.function<int (*)(int)>("abs")(-5) == 5);
  try {
    (void)libc.symbol("shapevm_absent_symbol");
    FAIL("an absent symbol resolved");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("libc.so.6 has no symbol shapevm_absent_symbol") !=
          std::string::npos);
  }
}

#if SHAPEVM_RUNTIME_ALL_STATIC
// cmake/static_runtime.cmake: libstdc++, libgcc, fmt, libpng, libdeflate and zlib are linked into
// the program, so starting it maps nothing but glibc's own objects.
TEST_CASE("start-up loads only glibc: the C++ runtime, fmt, libpng and zlib are linked in") {
  const ScratchDir dir;
  const CliResult r = loader_report("render " + shell_quote(kHangar) + " -o " +
                                    shell_quote((dir / "hangar.png").string()));
  REQUIRE(r.exit_code == 0);
  REQUIRE(loaded(r, "libc.so"));  // the report names what it loads
  for (const char* stem : {"libstdc++", "libgcc_s", "libfmt", "libpng", "libdeflate", "libz.so"}) {
    CAPTURE(stem);
    CHECK_FALSE(loaded(r, stem));
  }
#if SHAPEVM_LIBM_ON_FIRST_USE
  // The math library is opened by the first math function called (core/libm/on_first_use.cpp),
  // and neither the start nor drawing a frame calls one.
  CHECK_FALSE(loaded(r, "libm.so"));
  for (const char* args : {"--version", "info " SHAPEVM_EXAMPLES_BUILD_DIR "/fa/hangar.SH"}) {
    CAPTURE(args);
    CHECK_FALSE(loaded(loader_report(args), "libm.so"));
  }
#endif
  // The frame it wrote went through the linked-in libpng.
  CHECK(std::filesystem::file_size(dir / "hangar.png") > 0);
}
#endif

#if SHAPEVM_LIBM_ON_FIRST_USE
// core/libm/on_first_use.cpp: the first math function a run calls opens libm, and the calls go
// through to it. The Starlancer generator places its models' points with sincosf: the program's
// file is the one this test binary (linked to libm as usual) generates.
TEST_CASE("the math library is opened by the first math function a run calls") {
  const ScratchDir dir;
  const CliResult r =
      loader_report("gen shp --count 20 --seed 3 -o " + shell_quote(dir.path().string()));
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("file=libm.so.6 [0];  dynamically loaded by") != std::string::npos);
  CHECK(shapevm::read_file(dir / "resource.hog") == shapevm::shp::generate_resource_hog(3, 20));
}
#endif

#if defined(__GLIBCXX__)
// tools/lazy_iostream: no source of the program defines libstdc++'s per-file stream initialiser
// (the `static std::ios_base::Init` its <iostream> puts in every source including it, named
// __ioinit), whose constructor built the standard streams and the classic locale before main in
// every process. Read from the program's symbol table (nm lists local objects too). The streams
// still work where they are used: help and usage errors (CLI11 writes them to std::cout and
// std::cerr), `debug` and `dap` from a pipe.
TEST_CASE("the standard streams are built when a command uses them, not before main") {
  const CliResult nm = run_command("nm " + shell_quote(SHAPEVM_EXE));
  REQUIRE(nm.exit_code == 0);
  REQUIRE(nm.out.find("run_shapevm") != std::string::npos);  // the symbol table is there
  CHECK(nm.out.find("__ioinit") == std::string::npos);

  const CliResult help = run_command(shell_quote(SHAPEVM_EXE) + " info --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Usage: shapevm info [OPTIONS]") != std::string::npos);
  const CliResult refused =
      run_command(shell_quote(SHAPEVM_EXE) + " info --no-such-option " + shell_quote(kHangar));
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("not expected: --no-such-option") != std::string::npos);
  const CliResult debug =
      run_command("echo 'step' | " + shell_quote(SHAPEVM_EXE) + " debug " + shell_quote(kHangar));
  CHECK(debug.exit_code == 0);
  CHECK(debug.out.find("=> 0x") != std::string::npos);
}
#endif

#if SHAPEVM_STARTUP_ORDERED
// cmake/static_runtime.cmake: the functions short commands run are placed together by the linker,
// in cmake/startup_order.txt's order. Its first layer, what `--version` runs, then lies in a few
// chunks of the program's code; in the default order those functions were spread over its 16 MB,
// about 50 of 180 of them within any 256 KiB. Read from the program's symbol table (nm).
TEST_CASE("the functions --version runs lie together in the program's code") {
  std::set<std::string> version_layer;
  std::ifstream order(SHAPEVM_SOURCE_DIR "/cmake/startup_order.txt");
  REQUIRE(order);
  for (std::string line; std::getline(order, line);) {
    if (line.rfind("# info", 0) == 0) break;  // the next layer
    for (const std::string prefix : {".text.startup.", ".text."}) {
      if (line.rfind(prefix, 0) == 0) {
        version_layer.insert(line.substr(prefix.size()));
        break;
      }
    }
  }
  // 87 functions since the standard streams are built on first use (tools/lazy_iostream).
  REQUIRE(version_layer.size() >= 60);

  const CliResult nm = run_command("nm --defined-only " + shell_quote(SHAPEVM_EXE));
  REQUIRE(nm.exit_code == 0);
  std::vector<uint64_t> addresses;
  std::istringstream symbols(nm.out);
  for (std::string line; std::getline(symbols, line);) {
    std::istringstream fields(line);
    std::string address, type, name;
    if (fields >> address >> type >> name && type.size() == 1 &&
        std::string("TtWw").find(type[0]) != std::string::npos && version_layer.count(name))
      addresses.push_back(std::stoull(address, nullptr, 16));
  }
  std::sort(addresses.begin(), addresses.end());
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  REQUIRE(addresses.size() >= 60);  // the program still defines most of them
  // The most of them any 256 KiB of code holds.
  size_t most = 0;
  for (size_t first = 0, last = 0; last < addresses.size(); ++last) {
    while (addresses[last] - addresses[first] > 256 * 1024) ++first;
    most = std::max(most, last - first + 1);
  }
  CAPTURE(addresses.size());
  CHECK(most * 10 >= addresses.size() * 9);
}
#endif

TEST_CASE("start-up: the program's thread-local storage stays small") {
  // Every process, and every worker thread it starts, allocates and zeroes the static TLS block
  // before any code of its own runs: a 64 KiB table kept there once cost `--version` 17 page
  // faults. Large per-thread state is allocated when first used instead.
  const CliResult r = run_command("readelf -lW " + shell_quote(SHAPEVM_EXE));
  REQUIRE(r.exit_code == 0);
  bool found = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    // The TLS program header: type, offset, virtual and physical address, file and memory size.
    std::istringstream fields(line);
    std::string type, offset, vaddr, paddr, file_size, memory_size;
    if (fields >> type && type == "TLS" &&
        fields >> offset >> vaddr >> paddr >> file_size >> memory_size) {
      found = true;
      CAPTURE(memory_size);
      CHECK(std::stoull(memory_size, nullptr, 16) <= 4096);
    }
  }
  CHECK(found);
}

}  // namespace tools_startup_libraries_tests
