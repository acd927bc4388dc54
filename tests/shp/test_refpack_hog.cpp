// RefPack (SL-03) on hand-made streams of every command form, and the BIGF .HOG container
// (SL-01, SL-02): its big-endian header and directory, repeated names, RefPack members and
// stored ones.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"

namespace shp_refpack_hog_tests {

using namespace shapevm;
using namespace shapevm::shp;

namespace {

std::vector<uint8_t> stream(uint32_t size, std::vector<uint8_t> commands) {
  std::vector<uint8_t> out = {0x10, 0xFB, static_cast<uint8_t>(size >> 16),
                              static_cast<uint8_t>(size >> 8), static_cast<uint8_t>(size)};
  out.insert(out.end(), commands.begin(), commands.end());
  return out;
}

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("SL-03: 2-byte command (00-7F): L = b0&3, N = ((b0>>2)&7)+3, D = ((b0>>5)&3)<<8|b1, +1") {
  // "ab" as literals, then copy 3 from 2 back: "ababa", then the end.
  // b0 = 0 00 000 10 = 0x02, b1 = 0x01 (D = 2).
  CHECK(refpack_decompress(stream(5, {0x02, 0x01, 'a', 'b', 0xFC}), "t") == bytes_of("ababa"));
  // Distance with the high bits: D = (1 << 8 | 0) + 1 = 257 needs 257 bytes before it.
  std::vector<uint8_t> cmds;
  // 256 + 4 literal bytes in 0xE0-0xFB runs: 112 + 112 + 36.
  std::vector<uint8_t> literal(260);
  for (size_t i = 0; i < literal.size(); ++i) literal[i] = static_cast<uint8_t>(i);
  size_t at = 0;
  for (size_t run : {112, 112, 36}) {
    cmds.push_back(static_cast<uint8_t>(0xE0 | (run / 4 - 1)));
    cmds.insert(cmds.end(), literal.begin() + static_cast<ptrdiff_t>(at),
                literal.begin() + static_cast<ptrdiff_t>(at + run));
    at += run;
  }
  cmds.push_back(0x20);  // 0 01 000 00: N = 3, D high = 1
  cmds.push_back(0x00);  // D = 256 + 0 + 1 = 257
  cmds.push_back(0xFC);
  const auto out = refpack_decompress(stream(263, cmds), "t");
  REQUIRE(out.size() == 263);
  CHECK(out[260] == literal[3]);
  CHECK(out[262] == literal[5]);
}

TEST_CASE("SL-03: 3-byte command (80-BF): N = (b0&3F)+4, L = b1>>6, D = (b1&3F)<<8|b2, +1") {
  // b0 = 10 000001 (N = 5), b1 = 01 000000 (L = 1), b2 = 0 (D = 1): "x" then 5 copies of it.
  CHECK(refpack_decompress(stream(6, {0x81, 0x40, 0x00, 'x', 0xFC}), "t") == bytes_of("xxxxxx"));
}

TEST_CASE(
    "SL-03: 4-byte command (C0-DF): N = ((b0>>2)&3)<<8|b3, +5; D = (b0>>4&1)<<16|b1<<8|b2, +1") {
  // b0 = 110 0 00 10 (L = 2, N high 0), b1 = 0, b2 = 1 (D = 2), b3 = 1 (N = 6): "ab" + "ababab".
  CHECK(refpack_decompress(stream(8, {0xC2, 0x00, 0x01, 0x01, 'a', 'b', 0xFC}), "t") ==
        bytes_of("abababab"));
}

TEST_CASE("SL-03: literal runs (E0-FB) of 4..112 and the end (FC-FF) with 0..3 literals") {
  CHECK(refpack_decompress(stream(7, {0xE0, 'a', 'b', 'c', 'd', 0xFF, 'e', 'f', 'g'}), "t") ==
        bytes_of("abcdefg"));
  // The end command as the very last byte: no lookahead past it.
  CHECK(refpack_decompress(stream(4, {0xE0, 'a', 'b', 'c', 'd', 0xFC}), "t") == bytes_of("abcd"));
}

TEST_CASE("SL-03: overlapping copies repeat byte by byte") {
  // "abc" then copy 9 from 3 back.
  CHECK(refpack_decompress(stream(12, {0x03 | (6 << 2), 0x02, 'a', 'b', 'c', 0xFC}), "t") ==
        bytes_of("abcabcabcabc"));
}

TEST_CASE("SL-03: errors: a short output, a copy before the start, no end, too large") {
  // Output shorter than the header's.
  CHECK_THROWS_WITH_AS(refpack_decompress(stream(5, {0xFC}), "t"), doctest::Contains("declares 5"),
                       InputError);
  // A copy from before the output's start, at the command's offset.
  try {
    (void)refpack_decompress(stream(6, {0x80, 0x00, 0x04, 0xFC}), "t");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.offset() == 5);
    CHECK(std::string(e.what()).find("5 bytes back") != std::string::npos);
  }
  // No end command.
  CHECK_THROWS_WITH_AS(refpack_decompress(stream(4, {0xE0, 'a', 'b', 'c', 'd'}), "t"),
                       doctest::Contains("FC-FF"), InputError);
  // A command's literal bytes past the input.
  CHECK_THROWS_AS(refpack_decompress(stream(4, {0xE0, 'a'}), "t"), InputError);
  // Past the declared size.
  CHECK_THROWS_WITH_AS(refpack_decompress(stream(2, {0xE0, 'a', 'b', 'c', 'd', 0xFC}), "t"),
                       doctest::Contains("past the declared output size"), InputError);
  // A declared size no stream of this length can reach (257 bytes of output per byte at most)
  // is refused as any short output is, by the walk.
  CHECK_THROWS_WITH_AS(refpack_decompress(stream(0xFFFFFF, {0xE0, 'a', 'b', 'c', 'd', 0xFC}), "t"),
                       doctest::Contains("ended after 4 bytes of output, but its header declares "
                                         "16777215"),
                       InputError);
  // A declared size over the cap (4-byte sizes with flag 0x80).
  const std::vector<uint8_t> huge = {0x90, 0xFB, 0x10, 0x00, 0x00, 0x00, 0xFC};
  CHECK_THROWS_WITH_AS(refpack_decompress(huge, "t"), doctest::Contains("MiB"), InputError);
  // Not RefPack.
  CHECK_THROWS_AS(refpack_decompress(std::vector<uint8_t>{0x11, 0xFA}, "t"), InputError);
}

TEST_CASE("SL-03: the general header's flags: 0x01 skips a compressed size, 0x80 widens sizes") {
  // 11 FB, compressed size (3 bytes), output size 4.
  const std::vector<uint8_t> with_size = {0x11, 0xFB, 0,   0,   9,   0,   0,
                                          4,    0xE0, 'w', 'x', 'y', 'z', 0xFC};
  CHECK(refpack_decompress(with_size, "t") == bytes_of("wxyz"));
  const std::vector<uint8_t> wide = {0x90, 0xFB, 0, 0, 0, 4, 0xE0, 'w', 'x', 'y', 'z', 0xFC};
  CHECK(refpack_decompress(wide, "t") == bytes_of("wxyz"));
  CHECK(!starts_refpack(wide));  // the engine decompresses only members starting 10 FB
}

TEST_CASE("SL-03: the literal encoder round-trips every length") {
  for (size_t n : {0, 1, 3, 4, 5, 111, 112, 113, 115, 116, 1000}) {
    std::vector<uint8_t> data(n);
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
    const auto packed = refpack_compress_literal(data);
    CHECK(starts_refpack(packed));
    CHECK(refpack_decompress(packed, "t") == data);
  }
}

TEST_CASE("SL-01: a HOG is big-endian: BIGF, size, count, data offset; directory at 0x10") {
  const auto hog = write_hog({{"a.SHP", {1, 2, 3}}, {"bb.shp", {4}}});
  CHECK(std::string(hog.begin(), hog.begin() + 4) == "BIGF");
  CHECK(hog[4] == 0);
  CHECK(hog[7] == hog.size());  // archive size, big-endian
  CHECK(hog[11] == 2);          // count
  const uint32_t data = 16 + (8 + 6) + (8 + 7);
  CHECK(hog[15] == data);
  CHECK(hog[0x10 + 3] == data);  // first member offset
  CHECK(hog[0x10 + 7] == 3);     // its size
  const Hog h = read_hog(hog, "x.hog");
  REQUIRE(h.entries.size() == 2);
  CHECK(h.entries[1].name == "bb.shp");
  CHECK(h.entries[1].offset == data + 3);
  CHECK(h.notes.empty());
}

TEST_CASE("SL-01: the directory stops at the first implausible entry (a filler entry)") {
  auto hog = write_hog({{"a.SHP", {1, 2, 3}}, {"b.SHP", {4}}});
  // Count one more entry than there are, as pilots.hog does, with 0xCD filler where it would be.
  hog[11] = 3;
  const Hog h = read_hog(hog, "pilots.hog");
  CHECK(h.entries.size() == 2);
  REQUIRE(!h.notes.empty());
  CHECK(h.notes[0].find("entry 2") != std::string::npos);
  // A member outside the file stops it too.
  auto bad = write_hog({{"a.SHP", {1, 2, 3}}});
  bad[0x10 + 7] = 200;
  CHECK(read_hog(bad, "x.hog").entries.empty());
  // A header that cannot hold is an error at its offset.
  std::vector<uint8_t> short_hog = {'B', 'I', 'G', 'F', 0, 0};
  CHECK_THROWS_AS(read_hog(short_hog, "x.hog"), InputError);
}

TEST_CASE("SL-02: repeated names: the first exact match, then the first case-insensitive one") {
  const auto hog = write_hog(
      {{"Stalag.SHP", {1}}, {"stalag.SHP", {2}}, {"stalag.SHP", {3}}, {"other.shp", {4}}});
  const Hog h = read_hog(hog, "resource.hog");
  CHECK(find_member(h, "stalag.SHP")->index == 1);  // exact beats the earlier case variant
  CHECK(find_member(h, "STALAG.shp")->index == 0);  // else the first ignoring case
  CHECK(find_member(h, "#2")->index == 2);
  CHECK(find_member(h, "missing.shp") == nullptr);
  CHECK(find_member(h, "#9") == nullptr);
}

TEST_CASE("SL-02: a member is decompressed only when it starts 10 FB, otherwise verbatim") {
  const std::vector<uint8_t> plain = {0, 0, 4, 0, 1, 0, 9, 9, 9, 9};
  const auto hog = write_hog({{"raw.shp", plain}, {"packed.shp", refpack_compress_literal(plain)}});
  const Hog h = read_hog(hog, "r.hog");
  CHECK(member_image(hog, h.entries[0], "r.hog:raw.shp") == plain);
  CHECK(member_image(hog, h.entries[1], "r.hog:packed.shp") == plain);
  CHECK(member_bytes(hog, h.entries[1]).size() != plain.size());
}

}  // namespace shp_refpack_hog_tests
