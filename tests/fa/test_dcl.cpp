// The DCL decoder against the format description: a known answer, hand-spelled bit patterns for
// the Huffman codes, every error path, and round trips through the test encoder.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "core/input_error.h"
#include "interp/fa/dcl_explode.h"
#include "tests/fa/lib_builder.h"
#include "tests/support/random_bytes.h"

namespace fa_dcl_tests {

using shapevm::InputError;
using shapevm::fa::dcl_explode;
using shapevm::test::BitWriter;
using shapevm::test::DclMatches;
using shapevm::test::to_bytes;
using shapevm::testing::random_bytes;

namespace {

const std::string kSource = "test.dcl";
constexpr size_t kNoLimit = size_t{1} << 30;

std::vector<uint8_t> explode(const std::vector<uint8_t>& stream, size_t max_output = kNoLimit) {
  return dcl_explode(stream, kSource, max_output);
}

// The error decoding `stream` throws; fails the test if it decodes.
InputError explode_error(const std::vector<uint8_t>& stream, size_t max_output = kNoLimit) {
  try {
    explode(stream, max_output);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

// Text-like data with plenty of repeats, runs and near-repeats, so the greedy encoder emits
// matches of every length class and many distances.
std::vector<uint8_t> compressible_bytes(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out;
  const std::string words[] = {"shape", "vm", "fighters", "anthology", " ", "\n", "EALIB", "A10"};
  while (out.size() < size) {
    switch (rng() % 4) {
      case 0:
        out.insert(out.end(), rng() % 700, static_cast<uint8_t>(rng()));  // runs up to 699
        break;
      case 1: {
        const std::string& w = words[rng() % 8];
        out.insert(out.end(), w.begin(), w.end());
        break;
      }
      case 2:
        if (!out.empty()) {  // copy an earlier stretch, possibly overlapping the end
          size_t from = rng() % out.size();
          size_t count = rng() % 600;
          for (size_t i = 0; i < count; ++i) out.push_back(out[from + i]);
        }
        break;
      default:
        out.push_back(static_cast<uint8_t>(rng()));
    }
  }
  out.resize(size);
  return out;
}

}  // namespace

TEST_CASE("dcl: known answer 00 04 82 24 25 8F 80 7F decodes to AIAIAIAIAIAIA") {
  std::vector<uint8_t> stream = {0x00, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F};
  CHECK(explode(stream) == to_bytes("AIAIAIAIAIAIA"));
  CHECK(explode(stream, 13) == to_bytes("AIAIAIAIAIAIA"));  // a limit equal to the size is fine
}

TEST_CASE("dcl: length symbol 0 is the stream bits 1,1 (length 3) and distance symbol 0 is 1,1") {
  BitWriter w(0, 4);
  w.literal('x');
  w.bits({1});           // a match
  w.bits({1, 1});        // length symbol 0: base 3, no extra bits
  w.bits({1, 1});        // distance symbol 0
  w.bits({0, 0, 0, 0});  // 4 low distance bits (dictionary bits 4): distance 1
  w.end_of_stream();
  CHECK(explode(w.bytes()) == to_bytes("xxxx"));
}

TEST_CASE("dcl: length symbol 1 is the stream bits 1,0,1 (length 2, two low distance bits)") {
  BitWriter w(0, 6);
  w.literal('a');
  w.literal('b');
  w.bits({1});
  w.bits({1, 0, 1});  // length symbol 1: base 2
  w.bits({1, 1});     // distance symbol 0
  w.field(1, 2);      // length 2 uses 2 low bits whatever the dictionary size: distance 2
  w.end_of_stream();
  CHECK(explode(w.bytes()) == to_bytes("abab"));
}

TEST_CASE("dcl: length symbol 15 is seven 0 bits (length 264 + 8 extra bits)") {
  for (uint32_t extra : {0u, 1u, 254u}) {
    CAPTURE(extra);
    BitWriter w(0, 5);
    w.literal('z');
    w.bits({1});
    w.bits({0, 0, 0, 0, 0, 0, 0});  // length symbol 15
    w.field(extra, 8);
    w.bits({1, 1});
    w.field(0, 5);
    w.end_of_stream();
    CHECK(explode(w.bytes()) == std::vector<uint8_t>(1 + 264 + extra, 'z'));
  }
}

TEST_CASE("dcl: distance symbol 1 is the stream bits 1,0,1,1 (canonical 0100 complemented)") {
  // Lengths 2,4,4,...: symbol 0 gets code 00, symbol 1 code 0100; sent complemented: 1,0,1,1.
  BitWriter w(0, 4);
  for (char c : std::string("0123456789abcdefghij")) w.literal(static_cast<uint8_t>(c));
  w.bits({1});
  w.bits({1, 1});        // length 3
  w.bits({1, 0, 1, 1});  // distance symbol 1
  w.field(2, 4);         // distance (1 << 4) + 2 + 1 = 19
  w.end_of_stream();
  CHECK(explode(w.bytes()) == to_bytes("0123456789abcdefghij123"));
}

TEST_CASE("dcl: the end code stops decoding even with trailing bytes") {
  std::vector<uint8_t> stream = {0x00, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F, 0xAA, 0x55};
  CHECK(explode(stream) == to_bytes("AIAIAIAIAIAIA"));
}

TEST_CASE("dcl error: literal mode 1 (coded literals) is unsupported") {
  InputError e = explode_error({0x01, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F});
  CHECK(std::string(e.what()).find("unsupported literal mode 1") != std::string::npos);
  CHECK(e.has_offset());
  CHECK(e.offset() == 0);
  CHECK(e.source() == kSource);
}

TEST_CASE("dcl error: a literal mode other than 0 or 1 is rejected") {
  InputError e = explode_error({0x02, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F});
  CHECK(e.offset() == 0);
  CHECK(std::string(e.what()).find("found 2") != std::string::npos);
}

TEST_CASE("dcl error: dictionary bits other than 4, 5, 6 are rejected at offset 1") {
  for (int dictionary_bits : {0, 3, 7, 255}) {
    CAPTURE(dictionary_bits);
    InputError e = explode_error(
        {0x00, static_cast<uint8_t>(dictionary_bits), 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F});
    CHECK(e.offset() == 1);
    CHECK(std::string(e.what()).find("offset 0x1:") != std::string::npos);
    CHECK(std::string(e.what()).find("found " + std::to_string(dictionary_bits)) !=
          std::string::npos);
  }
  for (int dictionary_bits : {4, 5, 6}) {
    BitWriter w(0, static_cast<uint8_t>(dictionary_bits));
    w.end_of_stream();
    CHECK(explode(w.bytes()).empty());
  }
}

TEST_CASE("dcl error: truncated stream (no end code, cut header, cut code)") {
  const std::vector<uint8_t> whole = {0x00, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F};
  for (size_t cut = 0; cut < whole.size(); ++cut) {
    CAPTURE(cut);
    std::vector<uint8_t> stream(whole.begin(), whole.begin() + static_cast<long>(cut));
    InputError e = explode_error(stream);
    CHECK(std::string(e.what()).find("truncated DCL stream") != std::string::npos);
    CHECK(e.offset() == (cut < 2 ? 0 : cut));
  }
  // Literals without an end code.
  BitWriter w(0, 4);
  w.literal('q');
  CHECK(std::string(explode_error(w.bytes()).what()).find("truncated DCL stream") !=
        std::string::npos);
}

TEST_CASE("dcl error: a distance reaching before the start of the output names the offset") {
  BitWriter w(0, 4);
  w.literal('a');
  w.literal('b');  // the match starts in byte 4 of the stream (bit 18)
  w.bits({1, 1, 1, 1, 1});
  w.field(2, 4);  // distance 3, but only 2 bytes exist
  w.end_of_stream();
  InputError e = explode_error(w.bytes());
  CHECK(e.offset() == 4);
  CHECK(std::string(e.what()).find("offset 0x4:") != std::string::npos);
  CHECK(std::string(e.what()).find("3 bytes back") != std::string::npos);

  BitWriter first(0, 4);  // a match before any literal
  first.bits({1, 1, 1, 1, 1, 0, 0, 0, 0});
  first.end_of_stream();
  CHECK(explode_error(first.bytes()).offset() == 2);
}

TEST_CASE("dcl error: output over max_output (literal and match)") {
  const std::vector<uint8_t> stream = {0x00, 0x04, 0x82, 0x24, 0x25, 0x8F, 0x80, 0x7F};
  InputError match_error = explode_error(stream, 12);  // the 11-byte match overflows
  CHECK(std::string(match_error.what()).find("within 12 bytes") != std::string::npos);
  CHECK(match_error.offset() == 4);
  InputError literal_error = explode_error(stream, 1);  // the second literal overflows
  CHECK(literal_error.offset() == 3);
  CHECK(explode_error(stream, 0).offset() == 2);
}

TEST_CASE("dcl: round trip of random data through the literal-only and greedy encoders") {
  for (size_t size : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{100}, size_t{4097},
                      size_t{100 * 1024}}) {
    for (int dictionary_bits : {4, 5, 6}) {
      for (DclMatches matches : {DclMatches::kLiteralsOnly, DclMatches::kGreedy}) {
        CAPTURE(size);
        CAPTURE(dictionary_bits);
        CAPTURE(static_cast<int>(matches));
        std::vector<uint8_t> data = random_bytes(size, static_cast<uint32_t>(size + 7));
        std::vector<uint8_t> stream = shapevm::test::dcl_implode(data, dictionary_bits, matches);
        CHECK(explode(stream, data.size()) == data);
      }
    }
  }
}

TEST_CASE("dcl: round trip of compressible data exercises matches of every length class") {
  for (size_t size : {size_t{50}, size_t{5000}, size_t{100 * 1024}}) {
    for (int dictionary_bits : {4, 5, 6}) {
      CAPTURE(size);
      CAPTURE(dictionary_bits);
      std::vector<uint8_t> data = compressible_bytes(size, static_cast<uint32_t>(size));
      std::vector<uint8_t> stream = shapevm::test::dcl_implode(data, dictionary_bits);
      CHECK(stream.size() < data.size());
      CHECK(explode(stream, data.size()) == data);
    }
  }
  // A long run: 518-byte matches at distance 1, the longest DCL can express.
  std::vector<uint8_t> run(10000, 0xEE);
  CHECK(explode(shapevm::test::dcl_implode(run, 4)) == run);
}

TEST_CASE("dcl: 1 MiB of literals and 1 MiB of one byte's run round-trip") {
  std::vector<uint8_t> data = random_bytes(1 << 20, 99);
  std::vector<uint8_t> literal_stream =
      shapevm::test::dcl_implode(data, 6, DclMatches::kLiteralsOnly);
  std::vector<uint8_t> run(1 << 20, 0x41);
  std::vector<uint8_t> run_stream = shapevm::test::dcl_implode(run, 6);
  CHECK(explode(literal_stream) == data);
  CHECK(explode(run_stream) == run);
}

TEST_CASE("dcl error: a stream cut at any byte is truncated at the cut, whatever item it cuts") {
  // The decoder reads an item unchecked when the bits of the longest item are buffered, and
  // checks each read near the end: every cut must still be reported where the input ends.
  for (int dictionary_bits : {4, 5, 6}) {
    // Literals and matches of every class: random bytes, then repeating ones.
    std::vector<uint8_t> data = random_bytes(600, static_cast<uint32_t>(dictionary_bits));
    const std::vector<uint8_t> repeating =
        compressible_bytes(20000, static_cast<uint32_t>(dictionary_bits));
    data.insert(data.end(), repeating.begin(), repeating.end());
    const std::vector<uint8_t> stream = shapevm::test::dcl_implode(data, dictionary_bits);
    REQUIRE(explode(stream, data.size()) == data);
    for (size_t cut = 2; cut < stream.size(); ++cut) {
      CAPTURE(dictionary_bits);
      CAPTURE(cut);
      const std::vector<uint8_t> part(stream.begin(), stream.begin() + static_cast<long>(cut));
      const InputError e = explode_error(part);
      CHECK(e.offset() == cut);
      CHECK(std::string(e.what()).find("truncated DCL stream") != std::string::npos);
    }
  }
}

}  // namespace fa_dcl_tests
