// BI-01: the LIB archive (index offset at 0, 12-byte entries to the end, count from the size,
// rising offsets, members ending where the next begins), members by name and by #N, TPWM-packed
// members and whole files, malformed archives; recognition against FA's EALIB both ways; BI-12:
// the generator's record counts.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/tpwm.h"
#include "interp/common/registry.h"

namespace bi2_lib_tests {

using namespace shapevm;
using namespace shapevm::bi2;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

std::vector<uint8_t> sample() {
  return write_lib({{"UNIT001", bytes_of("first")},
                    {"PAL", bytes_of("second member")},
                    {"LAST", bytes_of("3")}});
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    const LibArchive lib(bytes, "UN3D000.LIB");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("BI-01: the index offset at 0, count = (size - index) / 12, members end at the next") {
  const auto bytes = sample();
  const LibArchive lib(bytes, "UN3D000.LIB");
  REQUIRE(lib.members().size() == 3);
  CHECK(lib.index_offset() == 4 + 5 + 13 + 1);
  CHECK(bytes.size() - lib.index_offset() == 3 * 12);
  CHECK(lib.members()[0].offset == 4);
  CHECK(lib.members()[0].size == 5);
  CHECK(lib.members()[1].size == 13);
  CHECK(lib.members()[2].size == 1);  // the last ends at the index
  CHECK(lib.members()[0].name == "UNIT001");
  CHECK(lib.find("unit001").index == 0);
  CHECK(lib.find("#2").name == "LAST");
  const auto last = lib.stored(lib.find("LAST"));
  CHECK(std::string(last.begin(), last.end()) == "3");
}

TEST_CASE("BI-01: names are trimmed of NUL and space padding") {
  const auto bytes = write_lib({{"AB  ", bytes_of("x")}});
  const LibArchive lib(bytes, "T.LIB");
  CHECK(lib.members()[0].name == "AB");
  CHECK(lib.members()[0].raw_name == std::string("AB  \0\0\0\0", 8));
}

TEST_CASE("BI-01: a member is found by name or #N; a missing one names what exists") {
  const auto bytes = sample();
  const LibArchive lib(bytes, "UN3D000.LIB");
  CHECK_THROWS_WITH_AS(lib.find("#3"), doctest::Contains("the LIB has 3 members"), InputError);
  CHECK_THROWS_WITH_AS(lib.find("NOPE"), doctest::Contains("no member named NOPE"), InputError);
}

TEST_CASE("BI-01: malformed LIBs are rejected with the offset and the rule broken") {
  auto bytes = sample();
  SUBCASE("an index that is not whole 12-byte entries") {
    bytes.push_back(0);
    const std::string e = error_of(bytes);
    CHECK(e.find("whole 12-byte entries") != std::string::npos);
    CHECK(e.find("1 too many") != std::string::npos);
  }
  SUBCASE("an index offset past the end") {
    put_u32(bytes, 0, static_cast<uint32_t>(bytes.size() + 1));
    CHECK(error_of(bytes).find("an index offset 4..") != std::string::npos);
  }
  SUBCASE("an index offset below 4") {
    put_u32(bytes, 0, 2);
    CHECK(error_of(bytes).find("an index offset 4..") != std::string::npos);
  }
  SUBCASE("offsets that fall") {
    const LibArchive lib(bytes, "t");
    put_u32(bytes, lib.index_offset() + 12 + 8, 3);
    const std::string e = error_of(bytes);
    CHECK(e.find("member #1 to start at 4..") != std::string::npos);
    CHECK(e.find(fmt::format("0x{:x}", lib.index_offset() + 20)) != std::string::npos);
  }
  SUBCASE("an offset beyond the index") {
    const LibArchive lib(bytes, "t");
    put_u32(bytes, lib.index_offset() + 24 + 8, lib.index_offset() + 1);
    CHECK(error_of(bytes).find("member #2 to start") != std::string::npos);
  }
  SUBCASE("too short for an index offset") {
    CHECK(error_of({1, 0}).find("index offset") != std::string::npos);
  }
}

TEST_CASE("BI-01: TPWM-packed members are unpacked; a whole packed LIB is read") {
  const auto packed_member = tpwm_pack_literal(bytes_of("3DOB-ish member bytes"));
  const auto bytes = write_lib({{"A", packed_member}, {"B", bytes_of("plain")}});
  const LibArchive lib(bytes, "L.LIB");
  const auto a = lib.decoded(lib.members()[0]);
  CHECK(std::string(a.begin(), a.end()) == "3DOB-ish member bytes");
  const auto whole = tpwm_pack_literal(bytes);
  CHECK(tpwm_decode(whole, "L.LIB") == bytes);
  CHECK(engine_for(EngineInput{"L.LIB", "L.LIB", std::nullopt, whole}).name() == "bi2");
}

TEST_CASE("BI-01: a BI2 LIB and an FA EALIB share the extension; content decides both ways") {
  const auto bi2 = sample();
  EngineInput lib{"UN3D000.LIB", "UN3D000.LIB", std::nullopt, bi2};
  CHECK(engine_for(lib).name() == "bi2");
  CHECK_FALSE(find_engine("fa")->recognises(bi2));
  CHECK_FALSE(find_engine("apache")->recognises(bi2));
  // An EALIB starts with its magic; the BI2 engine must not take "EALI" for an index offset.
  std::vector<uint8_t> ealib = bytes_of("EALIB");
  ealib.resize(64, 0);
  CHECK_FALSE(find_engine("bi2")->recognises(ealib));
  CHECK(engine_for(EngineInput{"FA_2.LIB", "FA_2.LIB", std::nullopt, ealib}).name() == "fa");
}

TEST_CASE("BI-12: gen writes the archives with the seed's record counts, some members packed") {
  const auto files = generate_archives(1, kGeneratedUnits);
  REQUIRE(files.size() == 4);
  std::map<std::string, size_t> counts;
  size_t packed = 0;
  for (const auto& f : files) {
    const LibArchive lib(f.bytes, f.name);
    counts[f.name] = lib.members().size();
    for (const auto& m : lib.members()) packed += is_tpwm(lib.stored(m)) ? 1 : 0;
  }
  CHECK(counts["UN3D000.LIB"] == 240);
  CHECK(counts["LAND000.LIB"] == 288);
  CHECK(counts["PAL000.LIB"] == 41);
  CHECK(counts["LAYR000.LIB"] == 96);
  CHECK(packed > 100);
  // Deterministic for a seed.
  CHECK(generate_archives(1, 3)[0].bytes == generate_archives(1, 3)[0].bytes);
  CHECK(generate_archives(1, 3)[0].bytes != generate_archives(2, 3)[0].bytes);
}

}  // namespace bi2_lib_tests
