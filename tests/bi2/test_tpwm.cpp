// BI-02: TPWM unpacking on known answers (literal runs, the AAAA reference, overlapping copies,
// corrupt distances, truncation to the declared size), the size cap, the XOR variant and the
// literal-only packer the writers use.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <array>
#include <random>
#include <string>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/tpwm.h"
#include "tests/support/random_bytes.h"

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

// BI-02 read one item at a time, as the format describes it: the oracle the unpacker is held to
// (output, or the refusal's message) on random streams.
std::string read_item_by_item(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 8) return error_of(bytes);  // the header's refusals: the unpacker's own
  const uint32_t size = load_u32(bytes.data() + 4);
  if (size > assumed::kMaxUnpackedBytes) return error_of(bytes);
  std::vector<uint8_t> out;
  size_t at = 8;
  auto refused = [&](size_t offset, const std::string& what) {
    return fmt::format("T.LIB: at 0x{:x}: {}", offset, what);
  };
  while (out.size() < size && at < bytes.size()) {
    const uint8_t flags = bytes[at++];
    for (int bit = 7; bit >= 0 && out.size() < size && at < bytes.size(); --bit) {
      if ((flags >> bit & 1) == 0) {
        out.push_back(bytes[at++]);
        continue;
      }
      if (at + 2 > bytes.size()) return error_of(bytes);  // half a reference: its own wording
      const size_t length = (bytes[at] & 0x0Fu) + 3;
      const size_t distance = static_cast<size_t>(bytes[at] >> 4) * 256 + bytes[at + 1];
      if (distance == 0 || distance > out.size()) {
        const std::string e = error_of(bytes);
        // The refusal names this reference's offset and its distance.
        return e.find(fmt::format("0x{:x}", at)) != std::string::npos &&
                       e.find(fmt::format("distance {}", distance)) != std::string::npos
                   ? e
                   : refused(at, "a bad distance the unpacker did not refuse here");
      }
      at += 2;
      for (size_t i = 0; i < length && out.size() < size; ++i)
        out.push_back(out[out.size() - distance]);
    }
  }
  if (out.size() < size) {
    const std::string e = error_of(bytes);
    return e.find(fmt::format("ends after {}", out.size())) != std::string::npos
               ? e
               : refused(bytes.size(), "a short stream the unpacker did not refuse");
  }
  return text(out);
}

std::string unpacked(const std::vector<uint8_t>& bytes) {
  try {
    return text(tpwm_unpack(bytes, "T.LIB"));
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE(
    "BI-02: random streams unpack as an item-by-item reading of them, or are refused "
    "where it fails") {
  std::mt19937 rng(41);
  size_t refused = 0, truncated = 0, whole = 0;
  for (int round = 0; round < 1500; ++round) {
    // Items: literals, and references of every length reaching up to the output so far; a third
    // of the streams mostly references, a third mostly literals, a third literals only.
    const uint32_t literal_eighths = std::array<uint32_t, 3>{3, 7, 8}[(round / 4) % 3];
    std::vector<uint8_t> body;
    size_t produced = 0;
    const size_t items = rng() % 300;
    for (size_t i = 0; i < items;) {
      const size_t flags_at = body.size();
      body.push_back(0);
      for (int bit = 7; bit >= 0 && i < items; --bit, ++i) {
        if (produced == 0 || rng() % 8 < literal_eighths) {
          body.push_back(static_cast<uint8_t>(rng()));
          ++produced;
          continue;
        }
        body[flags_at] = static_cast<uint8_t>(body[flags_at] | 1 << bit);
        const size_t distance = 1 + rng() % std::min<size_t>(produced, 4095);
        const size_t length = 3 + rng() % 16;
        body.push_back(static_cast<uint8_t>((distance >> 8) << 4 | (length - 3)));
        body.push_back(static_cast<uint8_t>(distance));
        produced += length;
      }
    }
    // The declared size: the whole output, less (cut there), or more (a stream ending early).
    uint32_t size = static_cast<uint32_t>(produced);
    if (round % 4 == 1 && size > 0) size = static_cast<uint32_t>(rng() % size);
    if (round % 4 == 2) size += 1 + rng() % 40;
    std::vector<uint8_t> bytes = stream(size, body);
    if (round % 4 == 3) {  // damaged: bytes changed, or the end cut
      for (int k = 0; k < 3 && bytes.size() > 8; ++k) {
        const size_t at = 8 + rng() % (bytes.size() - 8);
        if (rng() % 2)
          bytes[at] = static_cast<uint8_t>(rng());
        else
          bytes.resize(at);
      }
    }
    CAPTURE(round);
    const std::string expected = read_item_by_item(bytes);
    CHECK(unpacked(bytes) == expected);
    if (error_of(bytes).empty()) {
      (size < produced ? truncated : whole) += 1;
    } else {
      ++refused;
    }
  }
  CHECK(refused > 100);
  CHECK(truncated > 100);
  CHECK(whole > 100);
}

TEST_CASE("BI-02: the matching packer round-trips, and its references shorten repeating data") {
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t n : {0, 1, 2, 3, 8, 9, 17, 1000})
    inputs.push_back(testing::random_bytes(n, static_cast<uint32_t>(n)));
  inputs.push_back(std::vector<uint8_t>(5000, 'A'));
  std::vector<uint8_t> far = testing::random_bytes(6000, 3);
  far.insert(far.end(), far.begin() + 2000, far.begin() + 2500);  // 4,000 back: in reach
  inputs.push_back(far);
  for (const auto& data : inputs) {
    CAPTURE(data.size());
    const auto packed = tpwm_pack(data);
    CHECK(is_tpwm(packed));
    CHECK(tpwm_unpack(packed, "t") == data);
  }
  CHECK(tpwm_pack(inputs[8]).size() < 5000 / 8);  // 5,000 x 'A': 18 bytes per 2, and flags
  CHECK(tpwm_pack(far).size() < tpwm_pack_literal(far).size() - 400);
}

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
