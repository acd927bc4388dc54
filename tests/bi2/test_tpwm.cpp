// BI-02: TPWM unpacking on known answers (literal runs, the AAAA reference, overlapping copies,
// corrupt distances, truncation to the declared size), the size cap, the XOR variant and the
// literal-only packer the writers use.
#include <doctest/doctest.h>

#include <string>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/tpwm.h"

namespace bi2_tpwm_tests {

using namespace shapevm;
using namespace shapevm::bi2;

namespace {

std::vector<uint8_t> stream(uint32_t size, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> out = {'T', 'P', 'W', 'M'};
  append_u32(out, size);
  for (uint8_t b : body) out.push_back(b);  // (not insert: GCC 12 warns falsely on it)
  return out;
}

std::string text(const std::vector<uint8_t>& b) {
  return {b.begin(), b.end()};
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    (void)tpwm_unpack(bytes, "T.LIB");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("BI-02: a flag byte 0x00 governs eight literal bytes") {
  const auto out = tpwm_unpack(stream(8, {0x00, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'}), "t");
  CHECK(text(out) == "ABCDEFGH");
}

TEST_CASE("BI-02: 'A' then flag bit 0x40 with b1 = 0x00, b2 = 0x01 repeats it: AAAA") {
  // Flag 0x40: item 0 a literal, item 1 a reference of length 3 at distance 1.
  const auto out = tpwm_unpack(stream(4, {0x40, 'A', 0x00, 0x01}), "t");
  CHECK(text(out) == "AAAA");
}

TEST_CASE("BI-02: flag bits are read from 0x80 down; an overlapping copy repeats a pattern") {
  // 0x20: literals A, B, then a reference (length (0x02 & 15) + 3 = 5, distance 2) -> ABABABA.
  const auto out = tpwm_unpack(stream(7, {0x20, 'A', 'B', 0x02, 0x02}), "t");
  CHECK(text(out) == "ABABABA");
  // Distance (b1 >> 4) * 256 + b2: b1 = 0x10, b2 = 0x00 reaches 256 bytes back.
  std::vector<uint8_t> body;
  std::string expected;
  for (int i = 0; i < 256; i += 8) {
    body.push_back(0x00);
    for (int k = 0; k < 8; ++k) {
      body.push_back(static_cast<uint8_t>('a' + (i + k) % 26));
      expected.push_back(static_cast<char>('a' + (i + k) % 26));
    }
  }
  body.insert(body.end(), {0x80, 0x10, 0x00});  // length 3 from 256 back
  expected += expected.substr(0, 3);
  CHECK(text(tpwm_unpack(stream(259, body), "t")) == expected);
}

TEST_CASE("BI-02: the output is truncated to the declared size") {
  // The reference would give 18 bytes; the header declares 5.
  const auto out = tpwm_unpack(stream(5, {0x40, 'Z', 0x0F, 0x01}), "t");
  CHECK(text(out) == "ZZZZZ");
  // Literals after the declared size are not taken either.
  CHECK(text(tpwm_unpack(stream(2, {0x00, 'a', 'b', 'c', 'd'}), "t")) == "ab");
}

TEST_CASE("BI-02: distance 0 or a distance past the output is corrupt input, with its offset") {
  const std::string zero = error_of(stream(4, {0x40, 'A', 0x00, 0x00}));
  CHECK(zero.find("T.LIB") != std::string::npos);
  CHECK(zero.find("0xa") != std::string::npos);  // the reference's offset
  CHECK(zero.find("distance 0") != std::string::npos);
  const std::string far = error_of(stream(4, {0x40, 'A', 0x00, 0x02}));
  CHECK(far.find("distance 2") != std::string::npos);
  CHECK(far.find("1..1 bytes back") != std::string::npos);
}

TEST_CASE("BI-02: a stream that ends early, a short header and an oversized declaration fail") {
  CHECK(error_of(stream(10, {0x00, 'a', 'b'})).find("ends after 2") != std::string::npos);
  CHECK(error_of({'T', 'P', 'W', 'M', 1}).find("unpacked size") != std::string::npos);
  CHECK(error_of(stream(0x7FFFFFFF, {0x00, 'a'})).find("at most") != std::string::npos);
  // Half a reference at the end of the input.
  CHECK(error_of(stream(4, {0x40, 'A', 0x00})).find("second byte") != std::string::npos);
}

TEST_CASE("BI-02: the literal-only packer round-trips through the unpacker") {
  std::vector<uint8_t> data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<uint8_t>(i * 7));
  const auto packed = tpwm_pack_literal(data);
  CHECK(is_tpwm(packed));
  CHECK(packed.size() == 8 + 1000 + 125);  // one flag byte per 8 literals
  CHECK(tpwm_unpack(packed, "t") == data);
  CHECK(tpwm_unpack(tpwm_pack_literal({}), "t").empty());
}

TEST_CASE("BI-02: the XOR variant: a size above 10x the file decodes with the 14-byte key") {
  const std::string key = "FUCKBAUEREWALD";
  const std::string plain = "hello, battle isle";  // what follows the magic, size field included
  std::vector<uint8_t> file = {'T', 'P', 'W', 'M'};
  for (size_t i = 0; i < plain.size(); ++i)
    file.push_back(static_cast<uint8_t>(plain[i] ^ key[i % key.size()]));
  REQUIRE(uint64_t{file[4] | file[5] << 8 | file[6] << 16 | uint32_t{file[7]} << 24} >
          assumed::kXorTriggerFactor * file.size());
  CHECK(is_tpwm_xor(file));
  CHECK_FALSE(is_tpwm(file));
  CHECK(text(tpwm_decode(file, "t")) == plain);
  // A real TPWM stream is not taken for the XOR variant; other bytes pass through.
  CHECK_FALSE(is_tpwm_xor(stream(8, {0x00, 1, 2, 3, 4, 5, 6, 7, 8})));
  CHECK(tpwm_decode(std::vector<uint8_t>{'3', 'D', 'O', 'B'}, "t") ==
        std::vector<uint8_t>{'3', 'D', 'O', 'B'});
}

}  // namespace bi2_tpwm_tests
