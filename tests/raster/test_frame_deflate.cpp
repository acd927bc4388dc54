// The PNG writer's own deflate encoder: every stream it writes inflates (RFC 1950/1951, through
// libdeflate's decoder, which rejects malformed codes, distances and checksums) to exactly the
// rows it was given, whatever they hold; its bytes depend on those rows alone; and a frame of
// runs takes a few bytes a row.
#include <doctest/doctest.h>
#include <libdeflate.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "raster/frame_deflate.h"
#include "raster/huffman_code.h"

namespace raster_frame_deflate_tests {

using shapevm::raster::deflate_frame_rows;

namespace {

struct Decompressor {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

std::vector<uint8_t> deflated(const std::vector<uint8_t>& rows, size_t stride, size_t pixel) {
  std::vector<uint8_t> out;
  deflate_frame_rows(rows, stride, pixel, out);
  return out;
}

// Encodes `rows` and checks the stream: a zlib header, and inflated, exactly `rows` again.
void check_round_trip(const std::vector<uint8_t>& rows, size_t stride, size_t pixel) {
  const std::vector<uint8_t> stream = deflated(rows, stride, pixel);
  REQUIRE(stream.size() >= 6);
  // CMF 0x78 (deflate, 32 KiB window); the header's check bits make it a multiple of 31.
  CHECK(stream[0] == 0x78);
  CHECK((stream[0] * 256 + stream[1]) % 31 == 0);
  const std::unique_ptr<libdeflate_decompressor, Decompressor> d(libdeflate_alloc_decompressor());
  std::vector<uint8_t> back(rows.size() + 1);
  size_t got = 0;
  const libdeflate_result r = libdeflate_zlib_decompress(d.get(), stream.data(), stream.size(),
                                                         back.data(), back.size(), &got);
  REQUIRE(r == LIBDEFLATE_SUCCESS);
  REQUIRE(got == rows.size());
  back.resize(got);
  CHECK(back == rows);
}

uint64_t g_seed = 7;
uint8_t next_byte() {
  g_seed = g_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<uint8_t>(g_seed >> 56);
}

// `height` rows of `width` pixels of `pixel` bytes, each led by a filter byte 0, from a maker.
template <class Pixel>
std::vector<uint8_t> make_rows(size_t width, size_t height, size_t pixel, Pixel at) {
  std::vector<uint8_t> rows;
  rows.reserve((width * pixel + 1) * height);
  for (size_t y = 0; y < height; ++y) {
    rows.push_back(0);
    for (size_t x = 0; x < width; ++x)
      for (size_t c = 0; c < pixel; ++c) rows.push_back(at(x, y, c));
  }
  return rows;
}

}  // namespace

TEST_SUITE("raster") {
  TEST_CASE("frame deflate: every kind of row inflates back to itself") {
    SUBCASE("one pixel, and one row") {
      check_round_trip({0, 0}, 2, 1);
      check_round_trip({0, 200}, 2, 1);
      check_round_trip(make_rows(5, 1, 1, [](size_t x, size_t, size_t) { return uint8_t(x); }), 6,
                       1);
    }
    SUBCASE("a blank frame: runs across rows, longer than a match") {
      check_round_trip(make_rows(640, 480, 1, [](size_t, size_t, size_t) { return uint8_t(0); }),
                       641, 1);
      // A background that is not the filter byte: each row's filter byte breaks the run.
      check_round_trip(make_rows(640, 48, 1, [](size_t, size_t, size_t) { return uint8_t(9); }),
                       641, 1);
    }
    SUBCASE("flat faces, patterns, and noise") {
      // Runs whose lengths pass through every length code's bounds (3 .. 258 and beyond).
      check_round_trip(make_rows(700, 40, 1,
                                 [](size_t x, size_t y, size_t) {
                                   return uint8_t((x / (y * 7 + 1)) % 2 ? 17 : 200);
                                 }),
                       701, 1);
      // A dither repeating every 4 pixels and every 2 rows, shifted by 2 on odd rows.
      check_round_trip(make_rows(640, 64, 1,
                                 [](size_t x, size_t y, size_t) {
                                   return uint8_t(((x + (y / 2 % 2) * 2) % 4) < 2 ? 0x2F : 0xF2);
                                 }),
                       641, 1);
      check_round_trip(make_rows(300, 50, 1, [](size_t, size_t, size_t) { return next_byte(); }),
                       301, 1);
      // Noise in some columns, runs in the others, as a textured face on a background.
      check_round_trip(make_rows(640, 100, 1,
                                 [](size_t x, size_t y, size_t) {
                                   return (x / 5 + y) % 3 == 0 ? next_byte() : uint8_t(y % 4);
                                 }),
                       641, 1);
    }
    SUBCASE("RGB rows: a colour repeats three bytes back") {
      check_round_trip(make_rows(640, 40, 3,
                                 [](size_t x, size_t y, size_t c) {
                                   return uint8_t(x < 300 ? 40 * c + y : (x * 3 + c) % 251);
                                 }),
                       1921, 3);
    }
    SUBCASE("rows wider than the window: no match reaches a row back") {
      const size_t width = 40000;
      check_round_trip(make_rows(width, 3, 1,
                                 [](size_t x, size_t, size_t) {
                                   return x % 1000 < 500 ? uint8_t(x % 7) : uint8_t(x % 251);
                                 }),
                       width + 1, 1);
    }
    SUBCASE("more tokens than one block holds") {
      check_round_trip(make_rows(1000, 300, 1, [](size_t, size_t, size_t) { return next_byte(); }),
                       1001, 1);
    }
  }

  TEST_CASE("frame deflate: the bytes depend on the rows alone") {
    // "AAAB" first lies inside the run of A (not a place the encoder notes), then after X Y, where
    // it must be literals. An encoder that kept its table of four-byte sequences from the image
    // before, in which "AAAB" stood at offset 8, would match it there, 6 back.
    const std::vector<uint8_t> frame = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 1, 1, 1, 2, 5};
    const std::vector<uint8_t> before = {0, 10, 11, 12, 13, 14, 15, 16, 1, 1, 1, 2, 20, 21};
    std::vector<uint8_t> fresh;  // in a thread of its own, which has encoded nothing before
    std::thread([&] { fresh = deflated(frame, frame.size(), 1); }).join();
    deflated(before, before.size(), 1);
    CHECK(deflated(frame, frame.size(), 1) == fresh);
    check_round_trip(frame, frame.size(), 1);
  }

  TEST_CASE("frame deflate: a frame of runs takes a few bytes a row") {
    // 640x480 of background with a flat-shaded rectangle: runs and rows repeated, each match's
    // length code a bit or two once the block's own codes are built.
    const auto frame = make_rows(640, 480, 1, [](size_t x, size_t y, size_t) {
      return uint8_t(x >= 200 && x < 440 && y >= 100 && y < 380 ? 37 : 0);
    });
    const std::vector<uint8_t> stream = deflated(frame, 641, 1);
    CHECK(stream.size() < 480 * 2);
    check_round_trip(frame, 641, 1);
  }

  TEST_CASE("frame deflate: a row that is the row above moved a pixel or three takes a few bytes") {
    // A ramp along the diagonal: each row is the one above moved right by `shift` pixels, so no
    // pixel repeats the one before it or the one straight above, and every row is one match.
    for (size_t shift = 1; shift <= 3; ++shift) {
      CAPTURE(shift);
      const auto frame = make_rows(640, 480, 1, [shift](size_t x, size_t y, size_t) {
        return uint8_t(16 + (x + 640 * shift - y * shift) % 200);
      });
      CHECK(deflated(frame, 641, 1).size() < 480 * 8);
      check_round_trip(frame, 641, 1);
    }
  }

  TEST_CASE("huffman: code lengths are optimal, complete, and never deeper than allowed") {
    using namespace shapevm::raster::huffman;
    // The Kraft sum of a complete code is 1: in units of 2^-15, 32768.
    const auto kraft = [](const auto& lengths) {
      uint32_t sum = 0;
      for (uint8_t len : lengths)
        if (len != 0) sum += uint32_t{1} << (15 - len);
      return sum;
    };
    SUBCASE("equal counts give a balanced code") {
      std::array<uint32_t, 8> freq{};
      freq.fill(5);
      const auto lengths = code_lengths(freq, 15);
      for (uint8_t len : lengths) CHECK(len == 3);
    }
    SUBCASE("skewed counts give the optimal lengths, unused symbols none") {
      const std::array<uint32_t, 6> freq = {40, 0, 20, 10, 5, 5};
      const auto lengths = code_lengths(freq, 15);
      CHECK(lengths == std::array<uint8_t, 6>{1, 0, 2, 3, 4, 4});
      CHECK(kraft(lengths) == 32768);
    }
    SUBCASE("Fibonacci counts: the optimal code is 24 deep, the one sent at most 15 or 7") {
      std::array<uint32_t, 286> freq{};
      std::array<uint32_t, 19> small{};
      uint32_t a = 1;
      uint32_t b = 1;
      for (size_t s = 0; s < 25; ++s) {
        freq[s * 11] = a;
        if (s < 19) small[s] = a;
        const uint32_t c = a + b;
        a = b;
        b = c;
      }
      const auto deep = code_lengths(freq, 15);
      CHECK(*std::max_element(deep.begin(), deep.end()) <= 15);
      CHECK(kraft(deep) == 32768);
      // A commoner symbol never has the longer code.
      for (size_t s = 0; s + 1 < 25; ++s) CHECK(deep[s * 11] >= deep[(s + 1) * 11]);
      const auto shallow = code_lengths(small, 7);
      CHECK(*std::max_element(shallow.begin(), shallow.end()) <= 7);
      CHECK(kraft(shallow) == 32768);
    }
    SUBCASE("one symbol gets one bit; use_two makes two") {
      std::array<uint32_t, 30> freq{};
      freq[7] = 9;
      CHECK(code_lengths(freq, 15)[7] == 1);
      use_two(freq);
      const auto lengths = code_lengths(freq, 15);
      CHECK(std::count(lengths.begin(), lengths.end(), 1) == 2);
    }
    SUBCASE("canonical codes: RFC 1951's example, sent least significant bit first") {
      // Lengths (3, 3, 3, 3, 3, 2, 4, 4) give 010 011 100 101 110 00 1110 1111.
      const std::array<uint8_t, 8> lengths = {3, 3, 3, 3, 3, 2, 4, 4};
      const auto codes = canonical_codes(lengths);
      CHECK(codes ==
            std::array<uint16_t, 8>{0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111});
    }
    CHECK_THROWS_AS(code_lengths(std::array<uint32_t, 19>{}, 4), std::invalid_argument);
  }

  TEST_CASE("frame deflate: rows that are not whole rows of whole pixels are refused") {
    std::vector<uint8_t> out;
    CHECK_THROWS_AS(deflate_frame_rows(std::vector<uint8_t>(10), 3, 1, out), std::invalid_argument);
    CHECK_THROWS_AS(deflate_frame_rows(std::vector<uint8_t>(10), 0, 1, out), std::invalid_argument);
    CHECK_THROWS_AS(deflate_frame_rows(std::vector<uint8_t>(10), 5, 0, out), std::invalid_argument);
    CHECK_THROWS_AS(deflate_frame_rows(std::vector<uint8_t>(10), 5, 6, out), std::invalid_argument);
    CHECK(out.empty());
  }
}

}  // namespace raster_frame_deflate_tests
